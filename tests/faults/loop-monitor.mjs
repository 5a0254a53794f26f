// Loaded into the server under test (NODE_OPTIONS=--import): the server's own
// event-loop delay (perf_hooks) and resident memory, written to
// LOOP_MONITOR_FILE when the test asks (it creates `<file>.ask`), after a
// full garbage collection when the server runs with --expose-gc. Asked by a
// file, not a signal: the server's shutdown listens to the free signals.
// Test-only; the product knows nothing of it.
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.LOOP_MONITOR_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    if (!fs.existsSync(`${file}.ask`)) return;
    fs.rmSync(`${file}.ask`, { force: true });
    globalThis.gc?.();
    const report = { maxDelayMs: delay.max / 1e6, rssBytes: process.memoryUsage.rss() };
    delay.reset();
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(report));
    fs.renameSync(`${file}.tmp`, file);
  }, 100).unref();
}
