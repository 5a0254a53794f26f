// Opening the configured database for the commands, and telling whether the
// server is running.
import fs from "node:fs/promises";
import net from "node:net";
import type { Config } from "~/services/config.server";
import type { Db } from "~/services/db.server";
import * as schema from "~/services/schema";

export interface OpenDatabase {
  db: Db;
  close(): Promise<void>;
}

/**
 * Opens the configured database without migrating, seeding or creating
 * accounts (db() does all three): a backup only reads, and a restore needs
 * the database exactly as empty as it found it.
 */
export async function openDatabase(database: Config["database"]): Promise<OpenDatabase> {
  if (database.kind === "postgres") {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(database.url, { max: 4, connect_timeout: 10, onnotice: () => {} });
    return { db: drizzle(client, { schema }), close: () => client.end({ timeout: 10 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  if (database.dir) await fs.mkdir(database.dir, { recursive: true });
  const client = database.dir ? new PGlite(database.dir) : new PGlite();
  await client.waitReady;
  return { db: drizzle(client, { schema }) as unknown as Db, close: () => client.close() };
}

/** True when something accepts connections on the port (the server, most likely). */
export function portAnswers(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 500 });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
}
