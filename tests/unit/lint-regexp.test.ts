// Lint refuses a pattern that can backtrack super-linearly, so one cannot
// come back into the product (a Host check of this shape froze the server).
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

async function ruleIds(code: string) {
  const [result] = await eslint.lintText(code, { filePath: "app/http/x.server.ts" });
  return new Set(result.messages.map((m) => m.ruleId));
}

describe("super-linear patterns", () => {
  it("refuses the exponential host pattern, bounded quantifiers included", async () => {
    const ids = await ruleIds("export const ok = (s: string) => /^(?:[a-z0-9-]{0,62}\\.?)*$/.test(s);\n");
    expect(ids.has("redos/no-vulnerable")).toBe(true);
  });

  it("refuses a quadratic pattern with both regexp rules", async () => {
    const ids = await ruleIds("export const ok = (s: string) => /a+a+b/.test(s);\n");
    expect(ids).toContain("regexp/no-super-linear-backtracking");
    expect(ids).toContain("regexp/no-super-linear-move");
  });

  it("accepts a linear pattern", async () => {
    expect([...(await ruleIds("export const ok = (s: string) => /^[a-z0-9-]{1,63}$/.test(s);\n"))]).toEqual([]);
  });
});
