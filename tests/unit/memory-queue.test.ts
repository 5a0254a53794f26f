// The image work queue: jobs start in arrival order while their decoded
// bytes fit the budget; a job over the whole budget runs alone.
import { describe, expect, it } from "vitest";
import { memoryQueue } from "~/services/memory-queue.server";
import { IMAGE_MEMORY_BUDGET, imageJobBytes } from "~/services/images.server";

const MB = 1024 * 1024;

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("memoryQueue", () => {
  it("runs small jobs together and two 12 MP photos one after the other, in arrival order", async () => {
    const queue = memoryQueue(64 * MB);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const job = (name: string, bytes: number) => {
      const g = gate();
      gates.set(name, g);
      return queue.run(bytes, async () => {
        started.push(name);
        await g.opened;
        return name;
      });
    };
    const a = job("small-a", 10 * MB);
    const b = job("small-b", 10 * MB);
    const big = job("12mp", 48 * MB);
    const big2 = job("12mp-2", 48 * MB);
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    // The big photo waits for room; the one after it waits its turn too.
    expect(started).toEqual(["small-a", "small-b"]);
    expect(queue.inUse()).toBe(20 * MB);
    gates.get("small-a")!.open();
    gates.get("small-b")!.open();
    expect(await a).toBe("small-a");
    await b;
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(["small-a", "small-b", "12mp"]);
    expect(queue.inUse()).toBe(48 * MB);
    gates.get("12mp")!.open();
    await big;
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(["small-a", "small-b", "12mp", "12mp-2"]);
    gates.get("12mp-2")!.open();
    await big2;
    expect(queue.inUse()).toBe(0);
  });

  it("runs a job over the whole budget alone, and a failing job frees its room", async () => {
    const queue = memoryQueue(64 * MB);
    const huge = gate();
    const order: string[] = [];
    const first = queue.run(200 * MB, async () => {
      order.push("huge");
      await huge.opened;
    });
    const second = queue.run(1 * MB, async () => {
      order.push("small");
      throw new Error("broken photo");
    });
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(["huge"]);
    huge.open();
    await first;
    await expect(second).rejects.toThrow("broken photo");
    expect(order).toEqual(["huge", "small"]);
    expect(queue.inUse()).toBe(0);
  });

  it("renders phone photos shrunk to 2560 px one at a time, counting the AVIF encoder's buffers, and 800 px ones together", async () => {
    // The queue and the estimate processImage uses. Counted as decoded
    // pixels alone (19 MB each), three 2560 px photos rendered together and
    // the server's peak RSS passed 256 MB.
    const queue = memoryQueue(IMAGE_MEMORY_BUDGET);
    const running = new Set<string>();
    let most = 0;
    const job = (name: string, width: number, height: number) =>
      queue.run(imageJobBytes(width, height), async () => {
        running.add(name);
        most = Math.max(most, running.size);
        await new Promise((r) => setTimeout(r, 5));
        running.delete(name);
      });
    await Promise.all([job("a", 2560, 1920), job("b", 2560, 1920), job("c", 1920, 2560)]);
    expect(most).toBe(1);
    most = 0;
    await Promise.all([job("s1", 800, 600), job("s2", 800, 600), job("s3", 600, 800)]);
    expect(most).toBe(3);
    // The estimate grows with the photo: a 12 MP original costs more than a shrunk one.
    expect(imageJobBytes(4000, 3000)).toBeGreaterThan(imageJobBytes(2560, 1920));
    expect(imageJobBytes(2560, 1920)).toBeGreaterThan(IMAGE_MEMORY_BUDGET);
  });
});
