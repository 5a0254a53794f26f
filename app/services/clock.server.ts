/**
 * The server's notion of "now" for sessions and sign-in limits. Tests
 * replace `clock.now` (e.g. `vi.spyOn(clock, "now")`) to move through time
 * without waiting; timestamps are always written from here, never by the
 * database's now(), so both agree.
 */
export const clock = {
  now: (): Date => new Date(),
};
