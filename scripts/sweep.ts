// `npm run sweep [-- --apply] [--older-than MINUTES]`: lists the stored files that no article,
// album, draft or history photo names and that are older than an hour (left
// by a save that failed midway, e.g. while the storage was down); with
// --apply removes them and the album drafts untouched for a day. The server
// does the same at start and every hour; this is the look before it does.
// --older-than lowers the age (0 right after an outage; never while the
// pastor is uploading: a photo whose row is not written yet looks unnamed).
import { closeDb } from "~/services/db.server";
import { ORPHAN_MIN_AGE_MS, cleanupGalleryDrafts } from "~/features/galleries/cleanup.server";
import { type Io, runIfMain } from "./cli";

const USAGE = "Użycie: zbor sweep [--apply] [--older-than MINUT]  (w repozytorium: npm run sweep -- …)";

export async function main(args: string[], io: Io): Promise<number> {
  const out = (line: string) => io.stdout.write(`${line}\n`);
  let apply = false;
  let minutes = ORPHAN_MIN_AGE_MS / 60_000;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--apply") apply = true;
    else if (args[i] === "--older-than" && /^\d+$/.test(args[i + 1] ?? "")) minutes = Number(args[++i]);
    else {
      io.stderr.write(`${USAGE}\n`);
      return 1;
    }
  }
  const result = await cleanupGalleryDrafts({ dryRun: !apply, orphanMinAgeMs: minutes * 60_000 });
  if (result.skipped) {
    out("Porządki trwają w innym procesie; spróbuj za chwilę.");
    return 0;
  }
  for (const key of result.orphans) out(key);
  if (!apply) {
    out(
      result.orphans.length
        ? `Plików bez właściciela: ${result.orphans.length}. Usuń je: npm run sweep -- --apply`
        : "Nie ma plików bez właściciela.",
    );
  } else {
    out(`Usunięto plików: ${result.files}; porzuconych szkiców galerii: ${result.drafts}.`);
  }
  return result.files === result.orphans.length || !apply ? 0 : 1;
}

runIfMain(import.meta.url, main, closeDb);
