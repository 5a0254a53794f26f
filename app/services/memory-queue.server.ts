/**
 * Runs image work within a memory budget: each job states roughly how many
 * bytes its decoded pixels take, and jobs start in arrival order while their
 * sum stays within the budget. A 12 MP photo (about 48 MB decoded) runs
 * alone; a few small ones run together. A job over the whole budget still
 * runs, alone, so nothing waits forever.
 */
export function memoryQueue(budgetBytes: number) {
  let used = 0;
  let running = 0;
  const waiting: { bytes: number; start: () => void }[] = [];

  function pump() {
    while (waiting.length > 0) {
      const next = waiting[0];
      if (running > 0 && used + next.bytes > budgetBytes) return;
      waiting.shift();
      used += next.bytes;
      running++;
      next.start();
    }
  }

  return {
    async run<T>(bytes: number, job: () => Promise<T>): Promise<T> {
      await new Promise<void>((start) => {
        waiting.push({ bytes, start });
        pump();
      });
      try {
        return await job();
      } finally {
        used -= bytes;
        running--;
        pump();
      }
    },
    /** Bytes of the jobs running now (for tests and the log). */
    inUse: () => used,
  };
}
