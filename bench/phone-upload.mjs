// Phone upload benchmark: the pastor adds 12 MP camera photos (grainy, about
// 5 MB each) to a new album through Chromium, on a phone's uplink
// (1.5 Mbit/s up, 150 ms round trip), once with JavaScript (the editor's
// script shrinks each photo before it is sent) and once without (the form
// posts the originals, ten at a time). Each run on a fresh server and
// database, started as a real deployment starts (no demo content).
//
//   node bench/phone-upload.mjs          (after `npm run build`)
//
// Reported per run: seconds until the album is saved, bytes sent (counted
// by a TCP proxy between the browser and the server), server CPU seconds, the server's peak RSS (VmHWM) and its
// RSS after start, and the machine's load average at the start and the end. Environment: BENCH_PHOTOS (20), BENCH_UP_KBIT (1500),
// BENCH_RTT_MS (150), BENCH_MODES ("js,no-js"; one of them to run only that
// path), BENCH_TIMELINE=1 (each upload's start, end of its body and the
// server's answer, and the seconds the uplink stood idle), CHROME_PATH
// (/usr/bin/chromium), TEST_DATABASE_URL.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { cpuTicks, memory, startServer } from "./lib.mjs";

const COUNT = Number(process.env.BENCH_PHOTOS ?? 20);
const UP_KBIT = Number(process.env.BENCH_UP_KBIT ?? 1500);
const RTT_MS = Number(process.env.BENCH_RTT_MS ?? 150);
const PER_POST = 10;
const MODES = (process.env.BENCH_MODES ?? "js,no-js").split(",").map((m) => m.trim());
const TIMELINE = process.env.BENCH_TIMELINE === "1";
for (const mode of MODES) if (!["js", "no-js"].includes(mode)) throw new Error(`BENCH_MODES: unknown mode ${mode}`);
const ADMIN = { email: "bench@example.org", password: "bench-haslo-bench-haslo" };
const CLK_TCK = 100;

/** 12 MP JPEGs with sensor grain and fine texture, as heavy as a phone's (about 5 MB). */
async function photos() {
  const dir = path.join(os.tmpdir(), "zbor-bench-phone");
  fs.mkdirSync(dir, { recursive: true });
  const files = [];
  for (let i = 0; i < COUNT; i++) {
    const file = path.join(dir, `IMG_${String(i + 1).padStart(4, "0")}.JPG`);
    if (!fs.existsSync(file)) {
      const [w, h] = [4000, 3000];
      const noise = await sharp({
        create: {
          width: w,
          height: h,
          channels: 3,
          background: "#000",
          noise: { type: "gaussian", mean: 128, sigma: 26 },
        },
      })
        .raw()
        .toBuffer();
      await sharp({ create: { width: w, height: h, channels: 3, background: `hsl(${(i * 37) % 360}, 50%, 50%)` } })
        .composite([{ input: noise, raw: { width: w, height: h, channels: 3 }, blend: "overlay" }])
        .jpeg({ quality: 92 })
        .withMetadata({ orientation: 1 })
        .toFile(file);
    }
    files.push(file);
  }
  return files;
}

/**
 * A TCP proxy in front of the server that counts the bytes the browser sends.
 * It also notes, per request on each connection, when its first and last
 * bytes went up and when the server's answer began: an upload's body ends
 * at its last byte, and the wait until the answer is the server's work.
 */
async function countingProxy(target) {
  const { port } = new URL(target);
  let sent = 0;
  let t0 = performance.now();
  const sockets = new Set();
  const requests = [];
  /** Times (ms since reset) at which bytes went up, with their count. */
  const sentChunks = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), "127.0.0.1");
    sockets.add(client).add(upstream);
    let current = null;
    client.on("data", (chunk) => {
      sent += chunk.length;
      const now = performance.now() - t0;
      sentChunks.push([now, chunk.length]);
      if (!current || current.answered !== null) {
        current = { first: now, last: now, bytes: 0, answered: null };
        requests.push(current);
      }
      current.last = now;
      current.bytes += chunk.length;
    });
    upstream.on("data", () => {
      if (current && current.answered === null) current.answered = performance.now() - t0;
    });
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    sent: () => sent,
    reset: () => {
      sent = 0;
      t0 = performance.now();
      requests.length = 0;
      sentChunks.length = 0;
    },
    /** Uploads (requests of more than 100 kB) and the seconds of the run in which nothing went up. */
    timeline: (endMs) => {
      const uploads = requests.filter((r) => r.bytes > 100_000).sort((a, b) => a.first - b.first);
      let idle = 0;
      let previous = 0;
      for (const [at] of sentChunks) {
        if (at - previous > 500) idle += at - previous;
        previous = at;
      }
      if (endMs - previous > 500) idle += endMs - previous;
      return { uploads, idleSeconds: idle / 1000 };
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function run(mode, files) {
  const server = await startServer({
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SEED_DEMO: "0" },
  });
  const proxy = await countingProxy(server.base);
  const base = proxy.base;
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const context = await browser.newContext({ javaScriptEnabled: mode === "js" });
    const page = await context.newPage();
    // A slow uplink: a post of ten originals takes minutes.
    page.setDefaultTimeout(0);
    page.setDefaultNavigationTimeout(0);
    await page.goto(`${base}/strefapastora/logowanie`);
    await page.getByLabel("Login").fill(ADMIN.email);
    await page.getByLabel("Hasło").fill(ADMIN.password);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/logowanie"));
    await page.goto(`${base}/strefapastora/galeria/dodaj`);
    await page.getByLabel("TYTUŁ").fill("Nabożeństwo – z telefonu");
    await page.getByLabel("DATA", { exact: true }).fill("2026-11-22");

    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: RTT_MS,
      downloadThroughput: (10_000 * 1024) / 8,
      uploadThroughput: (UP_KBIT * 1024) / 8,
    });
    const idle = memory(server.pid);
    // The machine may be shared: its load says how much CPU the server could have.
    const load0 = os.loadavg()[0];
    const cpu0 = cpuTicks(server.pid);
    const started = performance.now();
    proxy.reset();
    if (mode === "js") {
      await page.getByLabel("Wybierz zdjęcia").setInputFiles(files);
      await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
      await page.locator(".upload-report").getByText(`${files.length} z ${files.length}`).waitFor({ timeout: 0 });
    } else {
      for (let i = 0; i < files.length; i += PER_POST) {
        await page.getByLabel("Wybierz zdjęcia").setInputFiles(files.slice(i, i + PER_POST));
        await page.getByRole("button", { name: "dodaj zdjęcie" }).click();
        await page.waitForURL(/szkic=/, { timeout: 0 });
        await page.locator(".upload-report").first().waitFor({ timeout: 0 });
      }
    }
    await page.getByRole("button", { name: "zapisz", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/dodaj"), { timeout: 0 });
    const seconds = (performance.now() - started) / 1000;
    const bytes = proxy.sent();
    if (TIMELINE) {
      const { uploads, idleSeconds } = proxy.timeline(seconds * 1000);
      const at = (ms) => (ms === null ? "-" : (ms / 1000).toFixed(1).padStart(6));
      console.log(`${mode}: upload  first byte  last byte  answer  (s since the first photo was chosen; MB)`);
      uploads.forEach((u, i) =>
        console.log(
          `${mode}: #${String(i + 1).padStart(2)}  ${at(u.first)}  ${at(u.last)}  ${at(u.answered)}  ${(u.bytes / 1e6).toFixed(2)}`,
        ),
      );
      console.log(
        `${mode}: the uplink stood idle (gaps over 0.5 s) for ${idleSeconds.toFixed(0)} s of ${seconds.toFixed(0)} s`,
      );
    }
    const cpu = ((cpuTicks(server.pid) ?? 0) - (cpu0 ?? 0)) / CLK_TCK;
    const peak = memory(server.pid);
    const [{ n }] = await server.sql`select count(*)::int as n from gallery_images`;
    if (n !== files.length) throw new Error(`${mode}: ${n} of ${files.length} photos in the album`);
    return { mode, seconds, bytes, cpu, peakMb: peak.peakMb, idleMb: idle.rssMb, load: [load0, os.loadavg()[0]] };
  } finally {
    await browser.close();
    await proxy.close();
    await server.stop();
  }
}

const files = await photos();
const original = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
console.log(
  `${files.length} photos, 4000×3000 (12 MP), ${(original / files.length / 1e6).toFixed(1)} MB each; ` +
    `uplink ${UP_KBIT} kbit/s, ${RTT_MS} ms RTT; ${os.cpus().length} CPUs, Node ${process.version}\n`,
);
const results = [];
for (const mode of MODES) {
  const r = await run(mode, files);
  results.push(r);
  console.log(
    `${mode.padEnd(6)} saved after ${r.seconds.toFixed(0)} s  sent ${(r.bytes / 1e6).toFixed(1)} MB ` +
      `(${((r.bytes / original) * 100).toFixed(0)} % of the originals)  server CPU ${r.cpu.toFixed(1)} s  ` +
      `peak RSS ${r.peakMb.toFixed(0)} MB (after start ${r.idleMb.toFixed(0)} MB)  ` +
      `load average ${r.load.map((l) => l.toFixed(1)).join(" → ")}`,
  );
}
const js = results.find((r) => r.mode === "js");
const plain = results.find((r) => r.mode === "no-js");
if (js && plain) {
  console.log(
    `\nwith JavaScript: ${(plain.seconds / js.seconds).toFixed(1)}× faster, ${((js.bytes / plain.bytes) * 100).toFixed(0)} % of the bytes`,
  );
}
