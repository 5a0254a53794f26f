// The layering rule is lint's, so a change that breaks it fails `npm test`:
// services/, http/ and lib/ never import a feature or a route.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

async function layerErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages
    .filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax")
    .map((m) => m.message);
}

describe("import layers", () => {
  it("refuses a feature imported from services/, http/ or lib/", async () => {
    const code = 'import { listArticleCards } from "~/features/articles/articles.server";\nvoid listArticleCards;\n';
    for (const file of ["app/services/x.server.ts", "app/http/x.server.ts", "app/lib/x.ts"]) {
      expect(await layerErrors(file, code), file).toEqual([expect.stringContaining("never import a feature")]);
    }
  });

  it("refuses a feature reached by a relative path or by import()", async () => {
    const relative =
      'import { listArticleCards } from "../features/articles/articles.server";\nvoid listArticleCards;\n';
    expect(await layerErrors("app/services/x.server.ts", relative)).toEqual([
      expect.stringContaining("never import a feature"),
    ]);
    const dynamic = 'export const load = () => import("~/features/articles/articles.server");\n';
    for (const file of ["app/services/x.server.ts", "app/http/x.server.ts", "app/lib/x.ts"]) {
      expect(await layerErrors(file, dynamic), file).toEqual([expect.stringContaining("never import a feature")]);
    }
  });

  it("refuses a route imported from a feature", async () => {
    const code = 'import { loader } from "~/routes/_index";\nvoid loader;\n';
    expect(await layerErrors("app/features/articles/x.server.ts", code)).toHaveLength(1);
  });

  it("lets routes and boot import features, and features import services", async () => {
    const feature = 'import { listArticleCards } from "~/features/articles/articles.server";\nvoid listArticleCards;\n';
    expect(await layerErrors("app/routes/x.tsx", feature)).toEqual([]);
    expect(await layerErrors("app/boot/x.server.ts", feature)).toEqual([]);
    const service = 'import { config } from "~/services/config.server";\nvoid config;\n';
    expect(await layerErrors("app/features/articles/x.server.ts", service)).toEqual([]);
  });
});
