// The operator's commands from a copy of the app assembled by following the
// Dockerfile's final stage: production dependencies only, without the build
// tools (the prod-deps stage's steps), the build output, drizzle/, public/, server/, the `zbor` link
// to build/cli.js, and (when the test runs as root) owned by and run as an
// unprivileged user. Nothing is read from the checkout: a command
// that needed TypeScript or a dev dependency fails here.
import { execFile, spawn } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { verify } from "@node-rs/argon2";
import postgres from "postgres";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3Storage, s3Storage } from "~/services/storage.server";
import { createScratchDatabase, postgresAvailable, postgresRequired } from "../setup/database";
import { freePort } from "./server";

const run = promisify(execFile);
const root = process.cwd();
const hasPostgres = (await postgresAvailable()) || postgresRequired;

const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
const PHOTOS = "zdjecia";
const BACKUPS = "kopie";
const EMAIL = "pastor@example.org";
const PASSWORD = "haslo-z-obrazu-1";
const NEW_PASSWORD = "nowe-haslo-z-obrazu";

// The image's user is `node`; here any unprivileged account does.
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : null;

let image = "";
let work = "";
let s3Port = 0;
let s3rver: S3rver;
let photos: S3Storage;
let pictures: http.Server;
const databases: Awaited<ReturnType<typeof createScratchDatabase>>[] = [];

/** The COPY steps, `ln -s` links and USER of the Dockerfile's last stage. */
function finalStage(dockerfile: string) {
  const lines = dockerfile.replace(/\\\n/g, " ").split("\n");
  const from = lines.map((l, i) => (/^FROM\s/i.test(l) ? i : -1)).filter((i) => i >= 0);
  const stage = lines.slice(from[from.length - 1] + 1);
  const copies = stage
    .filter((l) => /^COPY\s/i.test(l))
    .map((l) => {
      const words = l.trim().split(/\s+/).slice(1);
      const [src, dest] = words.filter((w) => !w.startsWith("--"));
      return { from: words.find((w) => w.startsWith("--from="))?.slice("--from=".length) ?? null, src, dest };
    });
  const links = [...stage.join("\n").matchAll(/ln -s (\S+) (\S+)/g)].map((m) => ({ target: m[1], link: m[2] }));
  const user = stage
    .filter((l) => /^USER\s/i.test(l))
    .pop()
    ?.split(/\s+/)[1];
  return { copies, links, user };
}

/** The RUN commands of the Dockerfile's stage named `name`. */
function stageRuns(dockerfile: string, name: string) {
  const lines = dockerfile.replace(/\\\n/g, " ").split("\n");
  const start = lines.findIndex((l) => {
    const words = l.trim().split(/\s+/);
    return /^FROM$/i.test(words[0]) && /^AS$/i.test(words.at(-2) ?? "") && words.at(-1) === name;
  });
  expect(start).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && /^FROM\s/i.test(l));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .filter((l) => /^RUN\s/i.test(l))
    .map((l) => l.replace(/^RUN\s+/i, ""));
}

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `zbor <args>` as `docker exec -i <container> zbor …` would run it. */
function zbor(args: string[], env: { database: string; bucket?: string }, input?: string): Promise<Result> {
  const child = spawn("zbor", args, {
    cwd: work,
    ...asUser,
    env: {
      PATH: `${path.join(image, "bin")}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: work,
      NODE_ENV: "production",
      DATA_DIR: path.join(work, "data"),
      DATABASE_URL: env.database,
      SESSION_SECRET: "image-test-secret-image-test-secret",
      S3_BUCKET: env.bucket ?? PHOTOS,
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_FORCE_PATH_STYLE: "1",
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      // The image runs Node 22; this machine may run 20, which the SDK warns about on stderr.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end(input ?? "");
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function query<T extends object>(url: string, text: string): Promise<T[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return (await sql.unsafe(text)) as unknown as T[];
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const keysIn = async (bucket: string) =>
  (await s3Storage({ ...s3Options(), bucket }).list()).map((e) => `${e.key} ${e.size}`);

const s3Options = () => ({
  bucket: PHOTOS,
  region: "us-east-1",
  endpoint: `http://127.0.0.1:${s3Port}`,
  forcePathStyle: true,
  credentials: CREDENTIALS,
});

describe.runIf(hasPostgres)("operator commands in the production image", () => {
  beforeAll(async () => {
    for (const built of ["build/index.js", "build/cli.js"]) {
      await fs.access(path.join(root, built)).catch(() => {
        throw new Error(`${built} missing: run \`npm run build\` first`);
      });
    }
    // The final stage, step by step, as the Dockerfile says.
    const dockerfile = await fs.readFile(path.join(root, "Dockerfile"), "utf8");
    const stage = finalStage(dockerfile);
    image = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-image-"));
    for (const { from, src, dest } of stage.copies) {
      const to = path.join(image, dest.endsWith("/") ? path.join(dest, path.basename(src)) : dest);
      if (from === "prod-deps") {
        // That stage: package.json, package-lock.json and its RUN steps
        // (the build tools dropped, `npm install --omit=dev`).
        expect(src).toBe("/app/node_modules");
        const deps = path.join(image, ".prod-deps");
        await fs.mkdir(deps);
        for (const file of ["package.json", "package-lock.json"]) {
          await fs.copyFile(path.join(root, file), path.join(deps, file));
        }
        for (const command of stageRuns(dockerfile, "prod-deps")) {
          await run("sh", ["-c", command], {
            cwd: deps,
            env: { ...process.env, NODE_ENV: "production", npm_config_prefer_offline: "true" },
            timeout: 540_000,
          });
        }
        // The image serves the build; the tools that made it stay out.
        for (const tool of ["@remix-run/dev", "esbuild", "tsx", "vite"]) {
          await expect(fs.access(path.join(deps, "node_modules", tool))).rejects.toThrow();
        }
        await fs.rename(path.join(deps, "node_modules"), to);
        await fs.rm(deps, { recursive: true });
      } else {
        // The build stage is the checkout plus `npm run build`'s output.
        await fs.cp(path.join(root, src.replace(/^\/app\//, "")), to, { recursive: true });
      }
    }
    // `ln -s /app/build/cli.js /usr/local/bin/zbor`: bin/ here stands for /usr/local/bin.
    await fs.mkdir(path.join(image, "bin"));
    for (const { target, link } of stage.links) {
      await fs.symlink(path.join(image, target.replace(/^\/app\//, "")), path.join(image, "bin", path.basename(link)));
    }
    work = path.join(image, "work");
    await fs.mkdir(work);
    await fs.chmod(image, 0o755);
    expect(stage.user).toBe("node");
    if (asUser) await run("chown", ["-R", `${asUser.uid}:${asUser.gid}`, image]);

    s3Port = await freePort();
    s3rver = new S3rver({
      address: "127.0.0.1",
      port: s3Port,
      silent: true,
      directory: path.join(os.tmpdir(), `zbor-image-s3-${process.pid}`),
      configureBuckets: ["zdjecia", "zdjecia-2", "zdjecia-3", BACKUPS].map((name) => ({ name, configs: [] })),
    });
    await s3rver.run();
    photos = s3Storage(s3Options());

    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#3a6" } })
      .jpeg()
      .toBuffer();
    pictures = http.createServer((_req, res) => res.writeHead(200, { "Content-Type": "image/jpeg" }).end(jpeg));
    await new Promise<void>((resolve) => pictures.listen(0, "127.0.0.1", resolve));

    for (let i = 0; i < 3; i++) databases.push(await createScratchDatabase("image"));
  }, 600_000);

  afterAll(async () => {
    await photos?.close();
    await s3rver?.close();
    await new Promise((resolve) => pictures?.close(resolve));
    for (const d of databases) await d.drop();
    if (image) await fs.rm(image, { recursive: true, force: true });
    await fs.rm(path.join(os.tmpdir(), `zbor-image-s3-${process.pid}`), { recursive: true, force: true });
  });

  it("has no dev dependency and no TypeScript to run", async () => {
    await expect(fs.access(path.join(image, "node_modules", "tsx"))).rejects.toThrow();
    await expect(fs.access(path.join(image, "node_modules", "esbuild"))).rejects.toThrow();
    const usage = await zbor([], { database: databases[0].url });
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain("Użycie: zbor <polecenie>");
  });

  it("manages pastor accounts, with the password from standard input", async () => {
    const env = { database: databases[0].url };
    // No terminal and no --password-stdin: nothing to ask the password with.
    const noTty = await zbor(["pastor", "add", EMAIL], env, `${PASSWORD}\n`);
    expect(noTty.code).toBe(1);
    expect(noTty.stderr).toContain("--password-stdin");

    const added = await zbor(["pastor", "add", EMAIL, "--password-stdin"], env, `${PASSWORD}\n`);
    expect(added).toMatchObject({ code: 0, stdout: `Dodano konto ${EMAIL}.\n`, stderr: "" });
    expect(await zbor(["pastor", "add", "drugi@example.org", "--password-stdin"], env, `${PASSWORD}\n`)).toMatchObject({
      code: 0,
    });
    const list = await zbor(["pastor", "list"], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^drugi@example\.org\tutworzone \d{4}-\d\d-\d\d\npastor@example\.org\t/);

    const changed = await zbor(["pastor", "passwd", EMAIL, "--password-stdin"], env, `${NEW_PASSWORD}\n`);
    expect(changed).toMatchObject({ code: 0, stderr: "" });
    const [{ password_hash: hash }] = await query<{ password_hash: string }>(
      env.database,
      `select password_hash from users where email = '${EMAIL}'`,
    );
    expect(await verify(hash, NEW_PASSWORD)).toBe(true);
    expect(await verify(hash, PASSWORD)).toBe(false);

    expect(await zbor(["pastor", "remove", "drugi@example.org"], env)).toMatchObject({
      code: 0,
      stdout: "Usunięto konto drugi@example.org.\n",
    });
    expect((await zbor(["pastor", "list"], env)).stdout).not.toContain("drugi@example.org");
    expect(await zbor(["pastor", "reset-2fa", EMAIL], env)).toMatchObject({
      code: 0,
      stdout: `Konto ${EMAIL} nie ma włączonej weryfikacji dwuetapowej.\n`,
    });
  }, 120_000);

  it("seeds demo content and imports the old site's export, photos into the bucket", async () => {
    const env = { database: databases[0].url };
    expect(await zbor(["seed"], env)).toMatchObject({ code: 0, stdout: "Dodano przykładowe treści.\n", stderr: "" });
    const [{ n }] = await query<{ n: number }>(env.database, "select count(*)::int as n from articles");
    expect(n).toBeGreaterThan(0);

    const exportFile = path.join(work, "eksport.json");
    const base = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;
    await fs.writeFile(
      exportFile,
      JSON.stringify({
        aktualnosci: {
          "1710000000000": { header: "Z obrazu", text: "Treść", url: `${base}/a.jpg`, date: "2024-03-09" },
        },
        galleries: {},
        "history-gallery": {},
      }),
    );
    if (asUser) await fs.chown(exportFile, asUser.uid, asUser.gid);
    // The photos come from a local stand-in for the old site's file host.
    const imported = await zbor(["import:firebase", `--local-source=${base}`, exportFile], env);
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain("aktualnosci: w pliku 1, dodano 1, już były 0, pobrane zdjęcia 1");
    expect((await keysIn(PHOTOS)).length).toBeGreaterThan(0);
  }, 120_000);

  it("backs up to a file and to s3://, and restores each into an empty database and bucket", async () => {
    const source = { database: databases[0].url };
    const file = path.join(work, "kopia.tar.gz");
    const toFile = await zbor(["backup", file], source);
    expect(toFile.stderr).toBe("");
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toContain(`Zapisano kopię ${file}:`);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);

    const url = `s3://${BACKUPS}/2026/kopia.tar.gz`;
    const toBucket = await zbor(["backup", url], source);
    expect(toBucket.stderr).toBe("");
    expect(toBucket.code).toBe(0);
    expect(toBucket.stdout).toContain(`Zapisano kopię ${url}:`);
    expect((await keysIn(BACKUPS)).map((k) => k.split(" ")[0])).toEqual(["2026/kopia.tar.gz"]);
    // A backup never overwrites one.
    const again = await zbor(["backup", url], source);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Kopia ${url} już istnieje`);

    const tables =
      "select (select count(*) from articles)::int as articles, (select count(*) from users)::int as users";
    const want = await query(source.database, tables);
    const photosWanted = await keysIn(PHOTOS);
    for (const [from, target] of [
      [file, { database: databases[1].url, bucket: "zdjecia-2" }],
      [url, { database: databases[2].url, bucket: "zdjecia-3" }],
    ] as const) {
      const restored = await zbor(["restore", from], target);
      expect(restored.stderr, from).toBe("");
      expect(restored.code, from).toBe(0);
      expect(restored.stdout, from).toContain("Przywrócono kopię z ");
      expect(await query(target.database, tables), from).toEqual(want);
      expect(await keysIn(target.bucket), from).toEqual(photosWanted);
      expect((await zbor(["pastor", "list"], target)).stdout, from).toMatch(/^pastor@example\.org\t/);
    }
    const missing = await zbor(["restore", `s3://${BACKUPS}/nie-ma.tar.gz`], {
      database: databases[2].url,
      bucket: "zdjecia-3",
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`Nie ma kopii s3://${BACKUPS}/nie-ma.tar.gz.`);
  }, 240_000);
});
