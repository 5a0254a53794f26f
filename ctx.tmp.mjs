import { chromium } from "@playwright/test";
import http from "node:http";
import fs from "node:fs";
import { execSync } from "node:child_process";
const srv = http.createServer((q, r) => { r.setHeader("content-type","text/html"); r.end("<!doctype html><title>x</title><h1>hi</h1><a href='/b'>b</a>"); }).listen(6198);
const args = ["--headless","--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync","--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1", ...(process.env.EXTRA? process.env.EXTRA.split(" "):[])];
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args });
const tree = () => { const out = execSync(`ps -eo pid=,ppid=,times=,args=`).toString().trim().split("\n").map(l=>l.trim().split(/\s+/)); return out; };
const root = b.process ? null : null;
const cpu = () => { const rows = tree(); const kids = new Map(); for (const [pid,ppid] of rows) { if (!kids.has(ppid)) kids.set(ppid, []); kids.get(ppid).push(pid); }
  const mine = new Set([String(process.pid)]); let grew = true; while (grew) { grew = false; for (const [pid,ppid] of rows) if (mine.has(ppid) && !mine.has(pid)) { mine.add(pid); grew = true; } }
  let s = 0; for (const [pid,ppid,t] of rows) if (mine.has(pid) && pid !== String(process.pid)) s += Number(t); return s; };
const c0 = cpu(), t0 = Date.now();
const mode = process.env.MODE;
let shared = mode === "shared" ? await b.newContext() : null;
for (let i = 0; i < 40; i++) {
  const ctx = shared ?? await b.newContext();
  const p = await ctx.newPage();
  await p.goto("http://127.0.0.1:6198/");
  await p.getByRole("link", { name: "b" }).click();
  await p.close();
  if (!shared) await ctx.close();
}
console.log(mode, "cpu", cpu() - c0, "wall", Date.now() - t0);
await b.close(); srv.close();
