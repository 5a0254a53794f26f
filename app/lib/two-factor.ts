// Client-safe facts of the second factor that pages render.

/** How many recovery codes an account gets at a time. */
export const RECOVERY_CODE_COUNT = 10;

/** A base32 secret in groups of four, easier to type into an app by hand. */
export const groupSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");
