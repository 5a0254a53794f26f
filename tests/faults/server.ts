// Starts the built server (build/index.js) as a child process for fault tests.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  base: string;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

export async function startBuiltServer(env: Record<string, string>): Promise<RunningServer> {
  if (!fs.existsSync("build/index.js")) throw new Error("build/index.js missing: run `npx remix build` first");
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "zbor-fault-"));
  let log = "";
  const child = spawn(process.execPath, ["--require", "./server/observe.cjs", "node_modules/@remix-run/serve/dist/cli.js", "build/index.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: "0",
      SESSION_SECRET: "fault-test-secret-fault-test-secret",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).status < 500) break;
    } catch {}
    if (i > 300) throw new Error(`server did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    dataDir,
    child,
    output: () => log,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      const code = await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
