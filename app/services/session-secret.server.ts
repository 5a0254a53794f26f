// The secret that signs session and message cookies, and the session
// cookie's names: read by the HTTP layer (one-time messages, the page cache)
// as well as by sign-in, so they live below both.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "~/services/config.server";

/**
 * SESSION_SECRET when set; otherwise (development, tests, the embedded
 * default) a random secret generated once and kept in DATA_DIR so that
 * sessions survive a restart. config.server.ts requires SESSION_SECRET in
 * production with an external database.
 */
export function sessionSecrets(): string[] {
  const cfg = config();
  if (cfg.sessionSecrets.length) return cfg.sessionSecrets;
  const file = path.join(cfg.dataDir, "session-secret");
  // A short secret (hand-written, cut off) would let cookies be forged: the
  // operator replaces it, the server never does silently.
  const read = () => {
    const secret = fs.readFileSync(file, "utf8").trim();
    if (secret.length < 32) throw new WeakSessionSecret(file, secret.length);
    return secret;
  };
  try {
    return [read()];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(cfg.dataDir, { recursive: true, mode: 0o700 });
  const secret = crypto.randomBytes(32).toString("base64url");
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return [secret];
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return [read()];
    throw error;
  }
}

/** The session cookie's name: plain in development and tests, __Host- in production. */
export const SESSION_COOKIE_NAMES = ["session", "__Host-session"] as const;

export class WeakSessionSecret extends Error {
  constructor(file: string, length: number) {
    super(
      `${file} holds a secret of ${length} characters; at least 32 are needed. ` +
        "Put a longer random one in it (openssl rand -base64 32) or delete the file to have one made; either signs every session out.",
    );
  }
}
