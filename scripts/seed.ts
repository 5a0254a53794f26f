// `npm run seed`: adds the demo content to the configured database (also a
// real one; the server seeds only a freshly created embedded database).
import { closeDb, db } from "~/services/db.server";
import { seedDemoContent } from "~/boot/seed.server";

process.env.SEED_DEMO ??= "0"; // no second seeding while connecting
await seedDemoContent(await db());
console.log("Dodano przykładowe treści.");
await closeDb();
