// Bytes a phone downloads for a page before the visitor scrolls: a fresh
// browser context at 375×667 CSS px, device scale factor 2, mobile and touch
// emulation, waiting for load and network idle. Sizes are the encoded
// (on-the-wire) lengths Chromium reports over CDP, headers included.
import { chromium } from "playwright-core";

const TYPE_GROUPS = { Document: "html", Stylesheet: "css", Script: "js", Image: "img", Font: "font" };

export async function openBrowser({ chromePath, chromeFlags }) {
  return chromium.launch({ executablePath: chromePath, args: chromeFlags, headless: true });
}

export async function pageWeight(browser, url) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 667 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const requests = new Map();
    cdp.on("Network.requestWillBeSent", (e) => {
      requests.set(e.requestId, { url: e.request.url, type: e.type ?? "Other", bytes: 0, done: false });
    });
    cdp.on("Network.responseReceived", (e) => {
      const r = requests.get(e.requestId);
      if (r) r.type = e.type ?? r.type;
    });
    cdp.on("Network.loadingFinished", (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { bytes: e.encodedDataLength, done: true });
    });
    cdp.on("Network.loadingFailed", (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { failed: true, done: true });
    });
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    const response = await page.goto(url, { waitUntil: "load", timeout: 60_000 });
    await page.waitForLoadState("networkidle", { timeout: 30_000 }).catch(() => {});
    const images = await page.evaluate(() => {
      const all = [...document.images];
      const visible = all.filter((i) => {
        const r = i.getBoundingClientRect();
        return r.width > 0 && r.top < innerHeight && r.bottom > 0;
      });
      return {
        inPage: all.length,
        visible: visible.length,
        loaded: all.filter((i) => i.complete && i.naturalWidth > 0 && i.currentSrc).length,
      };
    });
    const byType = { html: 0, css: 0, js: 0, img: 0, font: 0, other: 0 };
    let total = 0;
    let count = 0;
    let failed = 0;
    for (const r of requests.values()) {
      if (r.failed) {
        failed++;
        continue;
      }
      if (!r.done || r.url.startsWith("data:")) continue;
      const group = TYPE_GROUPS[r.type] ?? "other";
      byType[group] += r.bytes;
      total += r.bytes;
      count++;
    }
    return { status: response?.status() ?? 0, total, requests: count, failed, byType, images };
  } finally {
    await context.close();
  }
}
