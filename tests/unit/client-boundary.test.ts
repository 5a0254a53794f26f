// The classic Remix compiler replaces every `.server` module of app/ (and the
// server runtime, @remix-run/node) with an empty CommonJS module in the
// browser build. A value a component, `meta` or `links` takes from one is in
// the server's HTML but `undefined` after hydration: a maxLength that vanishes,
// a link to "undefined". Loaders and actions are not in the browser build, so
// any property read of an emptied module left there runs in the browser.
//
// This reads the browser build (`npm test` builds first) as esbuild emits it,
//   chunk:  var p=o((r,e)=>{e.exports={}});export{p as a};
//   route:  import{a as w}from"/build/_shared/chunk-….js";var d=t(w(),1); … d.HEADER_MAX
// and names each emptied module from the build's metafile, which lists the
// inputs of every output file in the order they were written.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const METAFILE = path.join(ROOT, "build", "metafile.js.json");
const EMPTY = "empty-module:";
const ID = "[\\w$]+";

interface Metafile {
  inputs: Record<string, { imports: { path: string }[] }>;
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

const escape = (name: string) => name.replace(/\$/g, "\\$");

/** Local name → exported name, from the `export{…}` lists of a file. */
function exportsOf(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, list] of code.matchAll(/export\{([^}]*)\}/g)) {
    for (const spec of list.split(",")) {
      const [local, exported = local] = spec.trim().split(/\s+as\s+/);
      out.set(local, exported);
    }
  }
  return out;
}

function readBuild() {
  if (!fs.existsSync(METAFILE)) throw new Error(`${METAFILE} is missing: run \`npx remix build\` first.`);
  const meta = JSON.parse(fs.readFileSync(METAFILE, "utf8")) as Metafile;
  const files = Object.keys(meta.outputs).filter((f) => f.endsWith(".js"));
  const code = new Map(files.map((f) => [f, fs.readFileSync(path.join(ROOT, f), "utf8")]));

  // Every emptied module, by the file that defines it and its local name there.
  const defined = new Map<string, Map<string, string>>();
  const problems: string[] = [];
  for (const file of files) {
    const src = code.get(file)!;
    const factories = [
      ...src.matchAll(new RegExp(`(${ID})=${ID}\\(\\(${ID},(${ID})\\)=>\\{\\2\\.exports=\\{\\}\\}\\)`, "g")),
    ]
      .map((m) => m[1])
      // A route module with nothing for the browser is itself emptied: `export default p()`.
      .filter((f) => !src.includes(`export default ${f}()`));
    const modules = Object.keys(meta.outputs[file].inputs)
      .filter((i) => i.startsWith(EMPTY))
      .map((i) => i.slice(EMPTY.length));
    if (factories.length !== modules.length) {
      problems.push(`${file}: ${factories.length} empty modules in the code, ${modules.length} in the metafile`);
      continue;
    }
    defined.set(file, new Map(factories.map((f, i) => [f, modules[i]])));
  }
  return { meta, files, code, defined, problems };
}

/** Property reads of emptied modules: which module, which property, in which output and source files. */
function serverValuesReadInTheBrowser() {
  const { meta, files, code, defined, problems } = readBuild();
  const reads: string[] = [];
  let emptied = 0;
  for (const file of files) {
    const src = code.get(file)!;
    // Factories of emptied modules usable here: defined here, or imported from the chunk that defines them.
    const factories = new Map(defined.get(file));
    for (const [, list, from] of src.matchAll(/import\{([^}]*)\}from"([^"]+)"/g)) {
      const chunk = `public${from}`;
      const there = defined.get(chunk);
      if (!there) continue;
      const exported = exportsOf(code.get(chunk) ?? "");
      for (const spec of list.split(",")) {
        const [name, local = name] = spec.trim().split(/\s+as\s+/);
        const factory = [...exported].find(([, e]) => e === name)?.[0];
        const module = factory && there.get(factory);
        if (module) factories.set(local, module);
      }
    }
    for (const [factory, module] of factories) {
      emptied++;
      const calls = src.match(new RegExp(`(?<![\\w$.])${escape(factory)}\\(`, "g"))?.length ?? 0;
      const namespaces = [...src.matchAll(new RegExp(`(${ID})=${ID}\\(${escape(factory)}\\(\\),1\\)`, "g"))].map(
        (m) => m[1],
      );
      // The definition's own `o((r,e)=>…)` is not a call of the factory; anything but `x=t(p(),1)` is unknown.
      if (calls !== namespaces.length) {
        problems.push(`${file}: ${module} is used in a way this test does not recognise`);
      }
      const sources = Object.keys(meta.outputs[file].inputs).filter((i) =>
        meta.inputs[i]?.imports.some((imp) => imp.path === `${EMPTY}${module}`),
      );
      for (const ns of namespaces) {
        for (const [, property] of src.matchAll(new RegExp(`(?<![\\w$.])${escape(ns)}(?:\\?\\.|\\.)(${ID})`, "g"))) {
          reads.push(`${sources.join(" or ") || file} reads ${property} from ${module} (${file})`);
        }
        if (new RegExp(`(?<![\\w$.])${escape(ns)}(?:\\?\\.)?\\[`).test(src)) {
          reads.push(`${sources.join(" or ") || file} reads a computed property of ${module} (${file})`);
        }
      }
    }
  }
  return { reads, problems, emptied };
}

describe("the browser build", () => {
  it("reads no value from a .server module (emptied in the browser: limits, messages and paths belong in client-safe modules)", () => {
    const { reads, problems, emptied } = serverValuesReadInTheBrowser();
    // The compiler's output still looks as this test expects.
    expect(problems).toEqual([]);
    expect(emptied).toBeGreaterThan(0);
    expect(reads).toEqual([]);
  });

  it("carries no server-side library: form schemas stay with zod in `.server` modules", () => {
    const meta = JSON.parse(fs.readFileSync(METAFILE, "utf8")) as Metafile;
    const outputs = Object.keys(meta.outputs).filter((f) => f.endsWith(".js"));
    // The check reads the build as it should: React is in it.
    expect(
      outputs.some((f) => Object.keys(meta.outputs[f].inputs).some((i) => i.includes("node_modules/react-dom/"))),
    ).toBe(true);
    const shipped = outputs.flatMap((f) =>
      Object.keys(meta.outputs[f].inputs)
        .filter((i) => /node_modules\/(?:zod|drizzle-orm|postgres|sharp)\//.test(i))
        .map((i) => `${f}: ${i}`),
    );
    expect(shipped).toEqual([]);
  });
});
