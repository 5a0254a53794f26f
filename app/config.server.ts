import path from "node:path";
import { z } from "zod";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : ["1", "true", "yes"].includes(v)));

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .optional()
      .refine(
        (v) => !v || v === "memory:" || /^postgres(ql)?:\/\//.test(v),
        "must start with postgres:// or postgresql:// (or be memory: for a throwaway embedded database)",
      ),
    SEED_DEMO: flag,
    STORAGE: z.enum(["disk", "s3"]).optional(),
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_ENDPOINT: z.string().url().optional(),
    S3_FORCE_PATH_STYLE: flag,
    S3_PUBLIC_URL: z.string().url().optional(),
  })
  .superRefine((env, ctx) => {
    const storage = env.STORAGE ?? (env.S3_BUCKET ? "s3" : "disk");
    if (storage === "s3" && !env.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when STORAGE=s3" });
    }
  });

export type Config = ReturnType<typeof readConfig>;

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration in environment variables:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const embedded = !e.DATABASE_URL || e.DATABASE_URL === "memory:";
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === "production",
    port: e.PORT,
    dataDir,
    database: embedded
      ? { kind: "pglite" as const, dir: e.DATABASE_URL === "memory:" ? null : path.join(dataDir, "pglite") }
      : { kind: "postgres" as const, url: e.DATABASE_URL! },
    // The embedded default shows demo content; a real database only when asked.
    seedDemo: e.SEED_DEMO ?? (embedded && e.DATABASE_URL !== "memory:"),
    storage:
      (e.STORAGE ?? (e.S3_BUCKET ? "s3" : "disk")) === "s3"
        ? {
            kind: "s3" as const,
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
            publicUrl: e.S3_PUBLIC_URL,
          }
        : { kind: "disk" as const, dir: path.join(dataDir, "uploads") },
  };
}

let cached: Config | undefined;

/** Configuration read once from the environment on first use. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}
