// Soak: 50 connections across the public pages (wrk) for SOAK_SECONDS
// (default 600) while the pastor saves an article with a photo every 10 s.
// Reports errors on both sides and the server's memory after warm-up and
// at the end. Run with bench/soak.sh (or `node bench/soak.mjs`) after a build.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { memory, signIn, startServer } from "./lib.mjs";

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const WARMUP = Math.min(60, Math.round(SECONDS / 10));
const EMAIL = "soak@example.org";
const PASSWORD = "soak-haslo-12345";
const PAGES = [
  "/",
  "/onas",
  "/aktualnosci",
  "/aktualnosci/1735000000000",
  "/galeria",
  `/galeria/${encodeURIComponent("Piknik zborowy 2025")}`,
  "/kontakt",
  "/sluzby",
  "/kalendarz",
  "/polityka-prywatnosci",
];

const photo = await sharp({
  create: { width: 2400, height: 1800, channels: 3, noise: { type: "gaussian", mean: 120, sigma: 30 } },
})
  .jpeg({ quality: 85 })
  .toBuffer();

// wrk walks the pages in turn and counts answers that are not 2xx.
const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "zbor-soak-")), "pages.lua");
fs.writeFileSync(
  script,
  `local pages = {${PAGES.map((p) => `"${p}"`).join(",")}}
local i = 0
request = function() i = i % #pages + 1; return wrk.format("GET", pages[i]) end
local bad = 0
response = function(status) if status >= 400 then bad = bad + 1 end end
done = function(summary) io.write(string.format("BAD %d\\n", summary.errors.status)) end
`,
);

const server = await startServer({ env: { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD } });
try {
  const session = await signIn(server.base, EMAIL, PASSWORD);
  const wrk = spawn("wrk", ["-t2", "-c50", `-d${SECONDS}s`, "--timeout", "10s", "-s", script, server.base], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let wrkOut = "";
  wrk.stdout.on("data", (d) => (wrkOut += d));
  const wrkDone = new Promise((r) => wrk.once("exit", r));

  const saves = { ok: 0, failed: 0 };
  const started = Date.now();
  let warm = null;
  let n = 0;
  while (Date.now() - started < SECONDS * 1000) {
    const body = new FormData();
    body.append("csrf", session.csrf);
    body.append("image", new Blob([photo], { type: "image/jpeg" }), `soak-${++n}.jpg`);
    body.append("header", `Soak ${n}`);
    body.append("text", "Zapis co 10 sekund podczas obciążenia.");
    body.append("date", "2025-06-01");
    const res = await fetch(`${server.base}/strefapastora/artykuly/dodaj`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.base, Cookie: session.cookie },
      body,
    }).catch(() => null);
    if (res) await res.arrayBuffer();
    if (res?.status === 302) saves.ok++;
    else saves.failed++;
    if (!warm && Date.now() - started >= WARMUP * 1000) warm = memory(server.pid);
    await new Promise((r) => setTimeout(r, Math.max(0, 10_000 - ((Date.now() - started) % 10_000))));
  }
  await wrkDone;
  const end = memory(server.pid);
  const requests = Number(/(\d+) requests in/.exec(wrkOut)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(wrkOut);
  const badStatus = Number(/BAD (\d+)/.exec(wrkOut)?.[1] ?? 0);
  const sockets = socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  const growth = warm ? ((end.rssMb - warm.rssMb) / warm.rssMb) * 100 : NaN;
  console.log(
    `soak: ${SECONDS} s, 50 connections over ${PAGES.length} public pages, an article with a photo every 10 s`,
  );
  console.log(
    `public requests: ${requests} (${(requests / SECONDS).toFixed(0)}/s), non-2xx/3xx: ${badStatus}, socket errors: ${sockets}`,
  );
  console.log(`article saves: ${saves.ok} ok, ${saves.failed} failed`);
  console.log(
    `server RSS: ${warm?.rssMb.toFixed(0)} MB after ${WARMUP} s warm-up, ${end.rssMb.toFixed(0)} MB at the end (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} %), peak ${end.peakMb.toFixed(0)} MB`,
  );
  const ok = badStatus === 0 && sockets === 0 && saves.failed === 0 && Math.abs(growth) <= 10;
  console.log(ok ? "result: zero errors, memory flat (within 10 %)" : "result: TARGET MISSED");
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
}
