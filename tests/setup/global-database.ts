// Once per vitest run: a database with every migration applied, which each
// test file's database is copied from (tests/setup/setup-test-env.ts).
// Copying is a file copy; running the migrations took seconds per file.
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { createScratchDatabase, postgresAvailable } from "./database";

export default async function setup() {
  if (process.env.TEST_DATABASE_FORCE_PGLITE === "1" || !(await postgresAvailable())) return;
  const template = await createScratchDatabase("vt");
  const client = postgres(template.url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(client), { migrationsFolder: fileURLToPath(new URL("../../drizzle", import.meta.url)) });
  } finally {
    await client.end();
  }
  process.env.TEST_TEMPLATE_DATABASE = template.name;
  return async () => {
    await template.drop();
  };
}
