// The layering rules are lint's, so a change that breaks them fails `npm test`:
// services/, http/ and lib/ never import a feature or a route, and features
// never read a request nor build a reply.
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

describe("request → reply belongs to routes", () => {
  const feature = "app/features/galleries/x.server.ts";

  it("refuses a feature that takes a Request or builds a reply", async () => {
    const cases = [
      'export const f = (request: Request) => new URL(request.url).searchParams.get("szkic");\n',
      'import { redirect } from "@remix-run/node";\nexport const f = () => redirect("/");\n',
      'import { data } from "@remix-run/node";\nexport const f = () => data({}, { status: 400 });\n',
      "export const f = () => Response.json({}, { status: 409 });\n",
      'export const f = () => new Headers({ "Cache-Control": "no-store" });\n',
    ];
    for (const code of cases) {
      expect(await layerErrors(feature, code), code).toEqual([expect.stringContaining("Features take plain values")]);
    }
  });

  it("lets routes and http/ do it, and the session guards read the request", async () => {
    const code =
      'import { redirect } from "@remix-run/node";\nexport const f = (request: Request) => redirect(request.url);\n';
    for (const file of ["app/routes/x.tsx", "app/http/x.server.ts", "app/features/auth/x.server.ts"]) {
      expect(await layerErrors(file, code), file).toEqual([]);
    }
  });

  it("still refuses a route imported from a feature's server module", async () => {
    const code = 'import { loader } from "~/routes/_index";\nvoid loader;\n';
    expect(await layerErrors(feature, code)).toEqual([expect.stringContaining("never import a route")]);
  });
});
