// server/index.mjs starts the site in front of remix-serve, which has no
// hooks. These tests fail, naming what changed, when remix-serve stops
// matching what that module relies on, and check what it promises: nothing
// is served before the start-up work is done, and a start that cannot work
// stops with a clear message.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, spawnBuiltServer, startBuiltServer } from "./server";

const require = createRequire(import.meta.url);

describe("what server/index.mjs relies on in @remix-run/serve", () => {
  const cli = fs.readFileSync(require.resolve("@remix-run/serve/dist/cli.js"), "utf8");

  it("imports the build at the address server/index.mjs imports it at", () => {
    expect(cli, "remix-serve no longer imports the build as `<file url>?t=<mtime>`").toMatch(
      /pathToFileURL\(buildPath\)\.href \+ "\?t=" \+ stat\.mtimeMs/,
    );
  });

  it("takes morgan through require() and listens through app.listen", () => {
    expect(cli, "remix-serve no longer loads morgan with require()").toMatch(/require\('morgan'\)/);
    expect(cli, "remix-serve no longer listens with app.listen()").toMatch(/app\.listen\(port/);
    // app.listen is http.createServer(app).listen(...) in Express.
    const express = fs.readFileSync(
      require.resolve("express/lib/application.js", {
        paths: [path.dirname(require.resolve("@remix-run/serve/package.json"))],
      }),
      "utf8",
    );
    expect(express, "Express no longer creates its server with http.createServer").toMatch(
      /http\.createServer\(this\)/,
    );
  });
});

describe("the running server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startBuiltServer({});
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("runs every request through the front door, static files included, and writes JSON logs only", async () => {
    const file = await fetch(`${server.base}/logo.svg`);
    expect(file.status).toBe(200);
    expect(file.headers.get("X-Request-Id"), "the front door did not see a static file").toBeTruthy();
    expect(file.headers.get("X-Frame-Options")).toBe("DENY");
    const page = await fetch(`${server.base}/kontakt`);
    expect(page.headers.get("X-Request-Id")).toBeTruthy();
    await new Promise((r) => setTimeout(r, 200));
    const lines = server
      .output()
      .split("\n")
      .filter((l) => l.trim() && !l.startsWith("{") && !l.startsWith("[remix-serve]"));
    // morgan's "GET /logo.svg 200 ..." would show here.
    expect(lines.filter((l) => /^(GET|HEAD|POST) \//.test(l))).toEqual([]);
  });

  it("answers on a connection left idle longer than Node's 5 s default, which a reusing client would see reset", async () => {
    const socket = net.connect(server.port, "127.0.0.1");
    await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    let received = "";
    let closed = false;
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("close", () => (closed = true));
    const ask = () => socket.write(`GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    const answers = () => received.split("HTTP/1.1 200").length - 1;
    const waitFor = async (n: number) => {
      for (let i = 0; i < 200 && answers() < n && !closed; i++) await new Promise((r) => setTimeout(r, 50));
    };
    try {
      ask();
      await waitFor(1);
      expect(received).toMatch(/Keep-Alive: timeout=65/i);
      await new Promise((r) => setTimeout(r, 6_500));
      expect(closed, "the server dropped the idle connection").toBe(false);
      ask();
      await waitFor(2);
      expect(answers()).toBe(2);
    } finally {
      socket.destroy();
    }
  }, 30_000);

  it("serves with the build instance that booted: /readyz is 200", async () => {
    const res = await fetch(`${server.base}/readyz`);
    expect(res.status, "remix-serve uses a build instance that was never booted").toBe(200);
  });
});

describe("start-up", () => {
  it("opens the port only after the database, demo content and accounts are ready, and prints the account first", async () => {
    // The embedded default on a new folder: migrations and the demo account.
    // Another test file's server can take the port found free before this
    // one listens (files run side by side); this one then exits with
    // EADDRINUSE, and what answered was the other: start again elsewhere.
    for (let attempt = 1; ; attempt++) {
      const spawned = await spawnBuiltServer({ SEED_DEMO: "1", DATABASE_URL: "" });
      try {
        let firstAnswer: Response | null = null;
        let printedWhenOpen = "";
        for (let i = 0; i < 1200 && !firstAnswer; i++) {
          const open = await new Promise<boolean>((resolve) => {
            const socket = net.connect(spawned.port, "127.0.0.1");
            socket.once("connect", () => (socket.destroy(), resolve(true)));
            socket.once("error", () => resolve(false));
          });
          if (open) {
            printedWhenOpen = spawned.output();
            firstAnswer = await fetch(`${spawned.base}/readyz`);
          } else await new Promise((r) => setTimeout(r, 50));
        }
        // Ours listens once it has said so, or it has gone.
        while (!spawned.output().includes("[remix-serve]") && spawned.child.exitCode === null)
          await new Promise((r) => setTimeout(r, 50));
        if (spawned.child.exitCode !== null && spawned.output().includes("EADDRINUSE") && attempt < 5) continue;
        expect(firstAnswer?.status).toBe(200);
        // The account was printed before anything could connect.
        expect(printedWhenOpen).toContain("Konto demonstracyjne pastora");
        const output = spawned.output();
        expect(output.indexOf("Konto demonstracyjne pastora")).toBeLessThan(
          output.indexOf("[remix-serve] http://localhost"),
        );
        // The demo content was there at the first page.
        const news = await (await fetch(`${spawned.base}/aktualnosci`)).text();
        expect(news).toContain("Nabożeństwo dziękczynne");
        return;
      } finally {
        spawned.child.kill("SIGTERM");
        await spawned.exited;
        fs.rmSync(spawned.dataDir, { recursive: true, force: true });
      }
    }
  }, 120_000);

  it("gives up on a database that does not answer after DATABASE_WAIT_SECONDS, with a clear message and code 1", async () => {
    const spawned = await spawnBuiltServer({
      DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
      DATABASE_WAIT_SECONDS: "2",
    });
    const started = Date.now();
    const code = await spawned.exited;
    fs.rmSync(spawned.dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(spawned.output()).toContain(
      "Start failed: The database does not answer (127.0.0.1:1/none); gave up after 2 s. Check DATABASE_URL",
    );
    expect(spawned.output()).not.toContain("[remix-serve]");
  }, 30_000);

  it("refuses a bad configuration with a message naming the variable", async () => {
    const spawned = await spawnBuiltServer({ DATABASE_URL: "mysql://x" });
    const code = await spawned.exited;
    fs.rmSync(spawned.dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(spawned.output()).toMatch(
      /Start failed: Invalid configuration in environment variables:\n\s+DATABASE_URL: must start with postgres:\/\//,
    );
    expect(spawned.output()).not.toContain("    at ");
  }, 30_000);

  it("refuses a session-secret file shorter than 32 characters instead of signing sessions with it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zbor-secret-"));
    fs.writeFileSync(path.join(dataDir, "session-secret"), "krótki\n", { mode: 0o600 });
    const spawned = await spawnBuiltServer({ DATA_DIR: dataDir, DATABASE_URL: "", SESSION_SECRET: "" });
    const code = await spawned.exited;
    const secret = fs.readFileSync(path.join(dataDir, "session-secret"), "utf8");
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(spawned.dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(spawned.output()).toContain(
      `Start failed: ${path.join(dataDir, "session-secret")} holds a secret of 6 characters; at least 32 are needed.`,
    );
    expect(spawned.output()).not.toContain("    at ");
    // Left for the operator to replace: never overwritten silently.
    expect(secret).toBe("krótki\n");
  }, 30_000);

  it("keeps the data folder owner-only: the embedded database, the secret and uploads, existing files included", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zbor-modes-"));
    fs.chmodSync(dataDir, 0o777);
    // Left by an older version, before the folder was kept private.
    fs.mkdirSync(path.join(dataDir, "uploads", "aktualnosci"), { recursive: true, mode: 0o777 });
    fs.writeFileSync(path.join(dataDir, "uploads", "aktualnosci", "stare.jpg"), "x", { mode: 0o666 });
    fs.chmodSync(path.join(dataDir, "uploads", "aktualnosci", "stare.jpg"), 0o666);
    fs.chmodSync(path.join(dataDir, "uploads", "aktualnosci"), 0o777);
    const server = await startBuiltServer({ DATA_DIR: dataDir, DATABASE_URL: "" });
    try {
      const open: string[] = [];
      const walk = (dir: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const file = path.join(dir, entry.name);
          if (fs.lstatSync(file).mode & 0o077)
            open.push(`${path.relative(dataDir, file)} ${(fs.lstatSync(file).mode & 0o777).toString(8)}`);
          if (entry.isDirectory()) walk(file);
        }
      };
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      walk(dataDir);
      expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(true);
      expect(open).toEqual([]);
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("refuses a SESSION_SECRET shorter than 32 characters", async () => {
    const spawned = await spawnBuiltServer({ SESSION_SECRET: "za-krotki-sekret" });
    const code = await spawned.exited;
    fs.rmSync(spawned.dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(spawned.output()).toMatch(
      /Start failed: Invalid configuration in environment variables:\n\s+SESSION_SECRET: must be at least 32 characters/,
    );
  }, 30_000);
});
