import path from "node:path";
import { z } from "zod";
import { PASSWORD_MIN_LENGTH, type PasswordProblem, passwordProblem } from "~/services/password-rule.server";
import { trimEndWhile } from "~/lib/text";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : ["1", "true", "yes"].includes(v)));

const ADMIN_PASSWORD_PROBLEMS: Record<PasswordProblem, string> = {
  short: `must be at least ${PASSWORD_MIN_LENGTH} characters`,
  long: "is too long",
  common: "is a common or simple password: choose another",
};

// An empty variable counts as unset.
const blankAsUnset = (v: unknown) => (v === "" ? undefined : v);

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
    // How long a start waits for the database to answer before it gives up.
    DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    SEED_DEMO: flag,
    STORAGE: z.enum(["disk", "s3"]).optional(),
    S3_BUCKET: z.string().optional(),
    S3_REGION: z.string().default("us-east-1"),
    S3_ENDPOINT: z.string().url().optional(),
    S3_FORCE_PATH_STYLE: flag,
    S3_PUBLIC_URL: z.string().url().optional(),
    // Comma-separated: the first signs new cookies, the rest are still accepted (rotation).
    SESSION_SECRET: z.preprocess(blankAsUnset, z.string().optional()),
    // Set when exactly one reverse proxy in front of the app appends X-Forwarded-For.
    TRUST_PROXY: flag,
    ADMIN_EMAIL: z.preprocess(blankAsUnset, z.string().trim().toLowerCase().email().max(254).optional()),
    // The account is made with it: the same rule as any new password.
    ADMIN_PASSWORD: z.preprocess(
      blankAsUnset,
      z
        .string()
        .superRefine((password, ctx) => {
          const problem = passwordProblem(password);
          if (problem) ctx.addIssue({ code: "custom", message: ADMIN_PASSWORD_PROBLEMS[problem] });
        })
        .optional(),
    ),
    // Memory for rendered public pages (app/http/page-cache.server.ts); 0 turns the cache off.
    PAGE_CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
    // Rendering the main public pages into the cache after start and after each change (0 turns it off).
    WARM_PAGES: flag,
    // The site's public address, for canonical links, feeds and sharing tags.
    PUBLIC_URL: z.preprocess(
      blankAsUnset,
      z
        .string()
        .trim()
        .refine(isPublicUrl, "must be an absolute http:// or https:// address without ?query or #fragment")
        .transform((v) => trimEndWhile(v, (c) => c === "/"))
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    const storage = env.STORAGE ?? (env.S3_BUCKET ? "s3" : "disk");
    if (storage === "s3" && !env.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required when STORAGE=s3" });
    }
    const embedded = !env.DATABASE_URL || env.DATABASE_URL === "memory:";
    const secrets = env.SESSION_SECRET?.split(",").filter(Boolean) ?? [];
    if (env.NODE_ENV === "production" && !embedded && secrets.length === 0) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required in production" });
    }
    if (secrets.some((s) => s.length < 32)) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "must be at least 32 characters" });
    }
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: [env.ADMIN_EMAIL ? "ADMIN_PASSWORD" : "ADMIN_EMAIL"],
        message: "ADMIN_EMAIL and ADMIN_PASSWORD go together",
      });
    }
  });

function isPublicUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && !url.search && !url.hash && !url.username;
  } catch {
    return false;
  }
}

export type Config = ReturnType<typeof readConfig>;

/** A variable missing or malformed; `message` lists each, in words for the operator (no stack needed). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export function readConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration in environment variables:\n${lines.join("\n")}`);
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
    databaseWaitMs: e.DATABASE_WAIT_SECONDS * 1000,
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
    // How to reach S3 (also for backups to s3:// when photos are kept on disk).
    s3: { region: e.S3_REGION, endpoint: e.S3_ENDPOINT, forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false },
    // Empty: the embedded default keeps a generated secret under DATA_DIR (see session.server.ts).
    sessionSecrets: e.SESSION_SECRET?.split(",").filter(Boolean) ?? [],
    trustProxy: e.TRUST_PROXY ?? false,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : null,
    // `npm start` without DATABASE_URL: a demo pastor account is made with the database.
    demoAccount: embedded && e.DATABASE_URL !== "memory:",
    pageCacheBytes: Math.floor(e.PAGE_CACHE_MB * 1024 * 1024),
    warmPages: (e.WARM_PAGES ?? true) && e.PAGE_CACHE_MB > 0,
    // Null: absolute links use the origin of each request (see app/features/seo/seo.ts).
    publicUrl: e.PUBLIC_URL ?? null,
  };
}

let cached: Config | undefined;

/** Configuration read once from the environment on first use. */
export function config(): Config {
  cached ??= readConfig();
  return cached;
}

/**
 * The address the site is known by: PUBLIC_URL, or else the origin the
 * request came to (fine for local use and tests; production sets PUBLIC_URL).
 */
export function siteOrigin(request: Request): string {
  return config().publicUrl ?? new URL(request.url).origin;
}
