// Polish letters must reach the browser intact wherever they fall in the
// response. (React 18's streaming writer pads its 2 KB buffers with zero
// bytes when a multi-byte letter straddles a buffer boundary.)
import postgres from "postgres";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createScratchDatabase, postgresAvailable } from "../setup/database";
import { type RunningServer, startBuiltServer } from "./server";

// The articles are written straight into the server's database, which
// needs a Postgres server (an embedded database has one owner only).
const hasPostgres = await postgresAvailable();
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let server: RunningServer;

beforeAll(async () => {
  if (!hasPostgres) return;
  scratch = await createScratchDatabase("utf8");
  server = await startBuiltServer({ DATABASE_URL: scratch.url });
  const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
  // Texts that shift where the letters fall by one byte each time.
  for (let k = 0; k < 48; k++) {
    await sql`insert into articles (id, header, text, date) values (${String(1_000 + k)}, ${"Zażółć gęślą jaźń"}, ${"a".repeat(k) + "żółć łąka ".repeat(60)}, ${"2025-01-01"})`;
  }
  await sql.end();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
});

it.runIf(hasPostgres)("renders every article without stray bytes", async () => {
  for (let k = 0; k < 48; k++) {
    const res = await fetch(`${server.base}/aktualnosci/${1_000 + k}`);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(body.includes(0), `article ${1_000 + k}`).toBe(false);
    expect(body.toString("utf8")).toContain(`${"a".repeat(k)}żółć łąka żółć`);
  }
});
