// `zbor seed`: adds the demo content to the configured database (also a
// real one; the server seeds only a freshly created embedded database).
import { db } from "~/services/db.server";
import { seedDemoContent } from "~/boot/seed.server";
import type { Io } from "./cli";

export async function main(args: string[], io: Io): Promise<number> {
  if (args.length) return (io.stderr.write("Użycie: zbor seed\n"), 1);
  process.env.SEED_DEMO ??= "0"; // no second seeding while connecting
  await seedDemoContent(await db());
  io.stdout.write("Dodano przykładowe treści.\n");
  return 0;
}
