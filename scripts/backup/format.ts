// Backup and restore of the whole site: every table of the public schema and
// every stored file, in one tar.gz archive with a manifest of checksums.
//
// Archive layout (format "zbor-backup", version 1):
//   db/<table>.jsonl        one line per row: a JSON array of the row's values
//                           as PostgreSQL prints them (column::text), null as null
//   files/<key>             every stored file, byte for byte
//   manifest.json           format, createdAt, migration level, tables (columns,
//                           row counts, size and SHA-256 of each table file),
//                           sequences, files (key, size, SHA-256)
//   manifest.json.sha256    `sha256sum` line for manifest.json
// The manifest comes last because it holds checksums of what was streamed
// before it; restore reads the whole archive before writing anything anyway.
import { z } from "zod";
import { isValidKey } from "~/services/storage.server";

export const BACKUP_FORMAT = "zbor-backup";
export const BACKUP_VERSION = 1;
export const MANIFEST = "manifest.json";
export const MANIFEST_SUM = "manifest.json.sha256";

/** "1 wiersz", "3 wiersze", "5 wierszy": Polish plural forms. */
export function plural(n: number, [one, few, many]: [string, string, string]): string {
  const tens = n % 100;
  const units = n % 10;
  const word = n === 1 ? one : units >= 2 && units <= 4 && (tens < 12 || tens > 14) ? few : many;
  return `${n} ${word}`;
}
export const ROWS: [string, string, string] = ["wiersz", "wiersze", "wierszy"];
export const FILES: [string, string, string] = ["plik", "pliki", "plików"];
export const TABLES: [string, string, string] = ["tabela", "tabele", "tabel"];

/** A refusal or a failed check, with a message meant for the person running the command. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  createdAt: z.string(),
  migration: z.object({ idx: z.number().int(), tag: z.string(), when: z.number().int() }),
  tables: z.array(
    z.object({
      name: z.string().min(1),
      path: z.string().min(1),
      columns: z.array(z.object({ name: z.string().min(1), type: z.string().min(1) })),
      rows: z.number().int().min(0),
      size: z.number().int().min(0),
      sha256: sha256Hex,
    }),
  ),
  sequences: z.array(
    z.object({ name: z.string().min(1), lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() }),
  ),
  files: z.array(
    z.object({
      key: z.string().refine(isValidKey, "invalid storage key"),
      path: z.string().min(1),
      size: z.number().int().min(0),
      sha256: sha256Hex,
    }),
  ),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type MigrationLevel = BackupManifest["migration"];
