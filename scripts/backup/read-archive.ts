// Reading an archive: unpacked and checked whole before anything is restored.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Parser } from "tar";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupError,
  type BackupManifest,
  MANIFEST,
  MANIFEST_SUM,
  manifestSchema,
} from "./format";

export interface ExtractedEntry {
  file: string;
  size: number;
  sha256: string;
}

export interface VerifiedArchive {
  manifest: BackupManifest;
  entries: Map<string, ExtractedEntry>;
}

/**
 * Unpacks the archive into `dir` (under names of our own, never the archive's
 * paths) while hashing every entry, then checks everything against the
 * manifest. Nothing is written anywhere else until this has passed.
 */
export async function extractAndVerify(file: string, dir: string): Promise<VerifiedArchive> {
  const entries = new Map<string, ExtractedEntry>();
  const problems: string[] = [];
  let n = 0;
  // Our own failures (disk full, say) are not the archive's fault: keep them apart.
  let localError: Error | undefined;
  const outs: ReturnType<typeof createWriteStream>[] = [];
  let input: ReturnType<typeof createReadStream> | undefined;
  await new Promise<void>((resolve, reject) => {
    let pendingWrites = 0;
    let parsed = false;
    const settle = () => parsed && pendingWrites === 0 && resolve();
    const parser = new Parser({
      strict: true,
      onReadEntry(entry) {
        if (entry.type !== "File" && entry.type !== "OldFile") {
          problems.push(`nieoczekiwany wpis ${entry.path} (${entry.type})`);
          entry.resume();
          return;
        }
        if (entries.has(entry.path)) {
          problems.push(`wpis ${entry.path} występuje dwa razy`);
          entry.resume();
          return;
        }
        const extracted = { file: path.join(dir, `entry-${n++}`), size: 0, sha256: "" };
        entries.set(entry.path, extracted);
        const hash = createHash("sha256");
        const out = createWriteStream(extracted.file, { flags: "wx", mode: 0o600 });
        outs.push(out);
        pendingWrites++;
        out.on("error", (error) => {
          localError = error;
          reject(error);
        });
        out.on("finish", () => {
          pendingWrites--;
          settle();
        });
        entry.on("data", (chunk: Buffer) => {
          hash.update(chunk);
          extracted.size += chunk.length;
          // Holding the entry holds the parser: the archive is read no faster than the disk writes.
          if (!out.write(chunk)) {
            entry.pause();
            out.once("drain", () => entry.resume());
          }
        });
        entry.on("end", () => {
          extracted.sha256 = hash.digest("hex");
          out.end();
        });
      },
    });
    parser.on("error", reject);
    parser.on("abort", reject);
    parser.on("end", () => {
      parsed = true;
      settle();
    });
    input = createReadStream(file);
    input.on("error", (error) => {
      localError = error;
      reject(error);
    });
    input.pipe(parser);
  }).catch(async (error: Error) => {
    // Stop reading and let every half-written file close before the folder is removed.
    input?.destroy();
    await Promise.all(
      outs.map((out) =>
        out.closed ? null : new Promise<void>((resolve) => out.once("close", () => resolve()).destroy()),
      ),
    );
    if (error === localError) throw error;
    throw new BackupError(`Archiwum jest uszkodzone albo to nie kopia strony: ${error.message}`);
  });

  const manifestEntry = entries.get(MANIFEST);
  const sumEntry = entries.get(MANIFEST_SUM);
  if (!manifestEntry || !sumEntry)
    throw new BackupError("Archiwum nie zawiera manifestu (niepełne albo to nie kopia strony).");
  const expectedSum = (await fs.readFile(sumEntry.file, "utf8")).split(/\s+/)[0];
  if (expectedSum !== manifestEntry.sha256)
    throw new BackupError("Suma kontrolna manifestu się nie zgadza: archiwum jest uszkodzone.");
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(manifestEntry.file, "utf8"));
  } catch {
    throw new BackupError("Manifest archiwum nie jest poprawnym JSON-em.");
  }
  const header = raw as { format?: unknown; version?: unknown };
  if (header?.format !== BACKUP_FORMAT)
    throw new BackupError("To nie jest kopia zapasowa tej strony (inny format archiwum).");
  if (header.version !== BACKUP_VERSION) {
    throw new BackupError(
      `Archiwum ma format w wersji ${String(header.version)}, a ta wersja aplikacji zna wersję ${BACKUP_VERSION}.`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new BackupError(
      `Manifest archiwum jest niepoprawny: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  }
  const manifest = parsed.data;

  const expected = new Map<string, { size: number; sha256: string }>();
  for (const t of manifest.tables) expected.set(t.path, t);
  for (const f of manifest.files) {
    if (expected.has(f.path)) problems.push(`wpis ${f.path} opisany dwa razy`);
    expected.set(f.path, f);
  }
  for (const [entryPath, want] of expected) {
    const got = entries.get(entryPath);
    if (!got) problems.push(`brak ${entryPath}`);
    else if (got.size !== want.size || got.sha256 !== want.sha256)
      problems.push(`${entryPath}: suma kontrolna się nie zgadza`);
  }
  for (const entryPath of entries.keys()) {
    if (entryPath !== MANIFEST && entryPath !== MANIFEST_SUM && !expected.has(entryPath)) {
      problems.push(`wpis ${entryPath} spoza manifestu`);
    }
  }
  if (problems.length) {
    const shown = problems.slice(0, 10).join("; ") + (problems.length > 10 ? `; … (${problems.length} problemów)` : "");
    throw new BackupError(`Archiwum jest uszkodzone, nic nie przywrócono: ${shown}`);
  }
  return { manifest, entries };
}

/** Reads and checks an archive without restoring it (e.g. to test a backup). */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-verify-"));
  try {
    return (await extractAndVerify(file, dir)).manifest;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Lines of a file split at "\n" only (JSON escapes every other line break). */
export async function* readLines(file: string): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of createReadStream(file, { encoding: "utf8" })) {
    const parts = (rest + (chunk as string)).split("\n");
    rest = parts.pop()!;
    yield* parts;
  }
  if (rest) yield rest;
}
