// What can be checked of the image and of compose.yaml without a container
// engine (the development machines and CI have none). The final stage's
// steps themselves are run on the host by tests/faults/image-commands.test.ts.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { HISTORY_FOLDER } from "~/features/about-photos/about-photos.server";
import { ARTICLE_IMAGE_FOLDER } from "~/features/articles/article-photos.server";
import { EVENT_IMAGE_FOLDER } from "~/features/events/event-photo.server";
import { GALLERY_FOLDER } from "~/features/galleries/galleries.server";
import { KEPT_FOLDER } from "~/features/kept-forms/kept-forms.server";

const dockerfile = fs.readFileSync("Dockerfile", "utf8");
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  dependencies: Record<string, string>;
};
/** Dependencies that only build the app (and run the operator's TypeScript in a checkout). */
const BUILD_TOOLS = ["@remix-run/dev", "esbuild", "tsx"];

/** The Dockerfile's stages: name, base image and instructions (continued lines joined, comments dropped). */
function stages() {
  const lines = dockerfile
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const out: { from: string; name: string | null; steps: string[] }[] = [];
  for (const line of lines) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) out.push({ from: from[1], name: from[2] ?? null, steps: [] });
    else out.at(-1)?.steps.push(line);
  }
  return out;
}

describe("the Dockerfile", () => {
  const all = stages();
  const final = all.at(-1)!;

  it("builds on one Node major, the one package.json's engines allow", () => {
    const majors = new Set(
      all.filter((s) => s.from.startsWith("node:")).map((s) => /^node:(\d+)/.exec(s.from)?.[1] ?? "?"),
    );
    expect(majors.size).toBe(1);
    const [major] = majors;
    expect(semver.satisfies(`${major}.0.0`, pkg.engines.node), `node ${major} vs engines ${pkg.engines.node}`).toBe(
      true,
    );
  });

  it("ships production dependencies only, without the build tools, from a stage that installed no others", () => {
    const copied = final.steps.find((s) => /^COPY\s+--from=\S+.*node_modules/.test(s));
    expect(copied).toBeTruthy();
    const source = /--from=(\S+)/.exec(copied!)![1];
    const stage = all.find((s) => s.name === source)!;
    const installs = stage.steps.filter((s) => /^RUN\b.*npm (ci|install)\b/.test(s));
    expect(installs.length).toBeGreaterThan(0);
    expect(installs.every((s) => /--omit=dev/.test(s))).toBe(true);
    // What it drops before installing are dependencies only the build needs.
    const dropped = stage.steps.join(" ").match(/npm pkg delete((?: dependencies\.\S+)+)/)?.[1];
    expect(dropped?.trim().split(" ")).toEqual(BUILD_TOOLS.map((name) => `dependencies.${name}`));
    for (const name of BUILD_TOOLS) expect(Object.keys(pkg.dependencies)).toContain(name);
  });

  it("carries the demo photos the seed copies (npm run demo:photos)", () => {
    expect(final.steps.some((s) => /^COPY\s.*\bdemo\s+\.\/demo$/.test(s))).toBe(true);
    const ignored = fs.readFileSync(".dockerignore", "utf8").split("\n");
    expect(ignored.filter((line) => /^\/?demo\b/.test(line.trim()))).toEqual([]);
  });

  it("runs as a user other than root, with a health check on /readyz", () => {
    const user = final.steps.filter((s) => /^USER\s/.test(s)).at(-1);
    expect(user).toBeTruthy();
    expect(user!.split(/\s+/)[1]).not.toMatch(/^(root|0)(:|$)/);
    const health = final.steps.find((s) => /^HEALTHCHECK\s/.test(s));
    expect(health).toMatch(/\/readyz/);
    expect(final.steps.find((s) => /^CMD\s/.test(s))).toMatch(/server\/index\.mjs/);
  });
});

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  volumes?: string[];
  entrypoint?: string[];
}

describe("compose.yaml", () => {
  const compose = parse(fs.readFileSync("compose.yaml", "utf8")) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };
  const { app, db, minio, bucket } = compose.services;

  it("runs the app image beside PostgreSQL and MinIO, starting it once both are ready", () => {
    expect(app.build).toBe(".");
    expect(db.image).toMatch(/^postgres:/);
    expect(minio.image).toMatch(/^minio\/minio/);
    expect(app.depends_on).toEqual({
      db: { condition: "service_healthy" },
      bucket: { condition: "service_completed_successfully" },
    });
    expect(bucket.depends_on).toEqual({ minio: { condition: "service_healthy" } });
    // Every service another one waits for reports its health.
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dep, { condition }] of Object.entries(service.depends_on ?? {})) {
        if (condition === "service_healthy") expect(compose.services[dep].healthcheck, `${name} → ${dep}`).toBeTruthy();
      }
    }
    expect(JSON.stringify(app.healthcheck!.test)).toMatch(/\/readyz/);
  });

  it("points the app at the database, the bucket it creates and the named volumes", () => {
    const env = app.environment!;
    expect(env.DATABASE_URL).toMatch(/@db:5432\//);
    expect(env.S3_ENDPOINT).toBe("http://minio:9000");
    expect(env.S3_FORCE_PATH_STYLE).toBe("1");
    expect(bucket.entrypoint!.join(" ")).toContain(`mc mb --ignore-existing local/${env.S3_BUCKET}`);
    expect(env.SESSION_SECRET).toMatch(/^\$\{SESSION_SECRET:\?/); // required, never a default
    expect(db.volumes).toContain("db:/var/lib/postgresql/data");
    expect(minio.volumes).toContain("files:/data");
    expect(Object.keys(compose.volumes).sort()).toEqual(["db", "files"]);
  });

  it("lets anyone read the photo folders of the bucket and nothing else: never the kept forms' files", () => {
    const name = app.environment!.S3_BUCKET;
    const script = bucket.entrypoint!.join(" ");
    // A policy of a whole bucket from an earlier version is taken back first.
    expect(script).toContain(`mc anonymous set none local/${name} `);
    const readable = [...script.matchAll(/mc anonymous set (?:download|public) local\/(\S+)/g)].map((m) => m[1]);
    expect(readable.sort()).toEqual(
      [ARTICLE_IMAGE_FOLDER, EVENT_IMAGE_FOLDER, GALLERY_FOLDER, HISTORY_FOLDER].map((f) => `${name}/${f}/`).sort(),
    );
    expect(readable.some((r) => r.startsWith(`${name}/${KEPT_FOLDER}`))).toBe(false);
  });

  // Only where a container engine's compose plugin is installed; not on these machines.
  const hasCompose = (() => {
    try {
      execFileSync("docker", ["compose", "version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  it.runIf(hasCompose)("is valid for docker compose", () => {
    execFileSync("docker", ["compose", "config", "--quiet"], {
      env: { ...process.env, SESSION_SECRET: "x".repeat(32) },
    });
  });
});
