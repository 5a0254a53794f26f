// Starts the built server (`node server/index.mjs`, as npm start and the
// image do) as a child process for fault tests.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/lib.mjs";

export { freePort };

export interface SpawnedServer {
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output: () => string;
  exited: Promise<number | null>;
}

export interface RunningServer extends SpawnedServer {
  stop(): Promise<number | null>;
}

/** Starts the server without waiting for it; the caller decides what to wait for. */
export async function spawnBuiltServer(env: Record<string, string>, cwd = process.cwd()): Promise<SpawnedServer> {
  if (!fs.existsSync(path.join(cwd, "build/index.js")))
    throw new Error("build/index.js missing: run `npm run build` first");
  // A caller with a port of its own (a browser test's port base) names it in env.PORT.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zbor-fault-"));
  let log = "";
  const child = spawn(process.execPath, ["server/index.mjs"], {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: "0",
      // Tests that count renders start with an empty page cache; the outage test turns it on.
      WARM_PAGES: "0",
      SESSION_SECRET: "fault-test-secret-fault-test-secret",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { base: `http://127.0.0.1:${port}`, port, dataDir, child, output: () => log, exited };
}

/**
 * Starts the server and waits until it listens and /readyz answers 200. A
 * port found free can be taken by another test file's server before this
 * one listens (files run side by side): the server then exits with
 * EADDRINUSE and is started again on another port. Until it has printed
 * that it listens, an answer on the port may be the other server's.
 */
export async function startBuiltServer(env: Record<string, string>, cwd?: string): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    const spawned = await spawnBuiltServer(env, cwd);
    const { base, child, exited, dataDir } = spawned;
    let exitCode: number | null | undefined;
    void exited.then((code) => (exitCode = code));
    for (let i = 0; ; i++) {
      if (spawned.output().includes("[remix-serve]")) {
        try {
          if ((await fetch(`${base}/readyz`)).status === 200) break;
        } catch {}
      }
      if (exitCode !== undefined) break;
      if (i > 600) throw new Error(`server did not start:\n${spawned.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (exitCode !== undefined) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!env.PORT && attempt < 5 && spawned.output().includes("EADDRINUSE")) continue;
      throw new Error(`server exited with code ${exitCode}:\n${spawned.output()}`);
    }
    return {
      ...spawned,
      async stop() {
        if (child.exitCode === null) child.kill("SIGTERM");
        const code = await exited;
        fs.rmSync(dataDir, { recursive: true, force: true });
        return code;
      },
    };
  }
}

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/** Signs in through the real sign-in form of a running server; returns the session's Cookie header. */
export async function signInTo(server: { base: string }, email: string, password: string): Promise<string> {
  const page = await fetch(`${server.base}/strefapastora/logowanie`);
  const csrf = (await page.text()).match(/name="csrf" value="([^"]+)"/)![1];
  const login = await fetch(`${server.base}/strefapastora/logowanie`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.base, Cookie: cookiesOf(page), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, email, password }),
  });
  if (login.status !== 302) throw new Error(`sign-in answered ${login.status}`);
  return cookiesOf(login);
}
