// Which content version kept pages must have, and how long they outlive a
// database that stopped answering: content changes only through the
// database, so while it is away nothing newer exists.

/** How long kept pages outlive a database that stopped answering (also the header's stale-if-error). */
export const STALE_IF_ERROR_MS = 24 * 60 * 60 * 1000;

export function createFreshness(now: () => number = () => Date.now()) {
  // The content key (see contentKey()): the version, and the next moment a
  // scheduled item goes public, after which every kept page is stale.
  let version: string | null = null;
  // When `version` was last read from the database.
  let confirmedAt = 0;

  return {
    /** The version last read, or null before the first. */
    current: () => version,
    /** Records a version just read; true when it differs from the one before (every kept page is older). */
    confirm(read: string): boolean {
      confirmedAt = now();
      if (read === version) return false;
      version = read;
      return true;
    },
    /** The version kept pages may still be served under while the database is away, or null when too long. */
    staleVersion(): string | null {
      return version !== null && now() - confirmedAt < STALE_IF_ERROR_MS ? version : null;
    },
  };
}
