// The history of changes on a real database: what the pastor's actions and
// the site's own purges record, refused sign-ins once per lock-out, the page
// newest first, a year kept.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { clock } from "~/services/clock.server";
import { createArticle, deleteArticle, updateArticle } from "~/features/articles/article-writes.server";
import { deleteGallery } from "~/features/galleries/galleries.server";
import { createDraft } from "~/features/galleries/drafts.server";
import { saveGallery } from "~/features/galleries/save.server";
import { purgeExpired, purgeItem, restoreArticle, restoreGallery } from "~/features/bin/bin.server";
import {
  ACTIVITY_KEEP_MS,
  ACTIVITY_PAGE_SIZE,
  activityPage,
  listActivity,
  pruneActivity,
  recordActivity,
} from "~/features/activity/activity.server";
import { activityLabel, actorLabel } from "~/features/activity/actions";
import { LoginRefusedError, authenticator } from "~/features/auth/auth.server";
import { createUser, removeUser } from "~/features/auth/users.server";
import { LOGIN_LIMITS } from "~/features/auth/sign-in-limits.server";
import { db } from "~/services/db.server";
import { requestContext } from "~/http/request-context.server";
import { resetDatabase } from "../helpers";

const DAY = 24 * 60 * 60 * 1000;
let tmp: string;
let pastor: { id: number; email: string };

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "zbor-activity-"));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});
beforeEach(async () => {
  vi.restoreAllMocks();
  await resetDatabase();
  pastor = await createUser({ email: "pastor@example.org", password: "haslo-testowe-123" });
});

async function photo() {
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.jpg`);
  await sharp({ create: { width: 32, height: 24, channels: 3, background: "#336699" } })
    .jpeg()
    .toFile(file);
  return { input: file, name: "a.jpg" };
}

/** The page's rows as the pastor reads them: who, and what. */
async function shown() {
  return (await listActivity()).map((e) => `${actorLabel(e)}: ${activityLabel(e)}`);
}

describe("what is recorded", () => {
  it("records article and album changes, the bin and purges, newest first", async () => {
    let t = Date.now() - 10 * 60_000;
    // Each step a second apart, so the order is the order of the steps.
    vi.spyOn(clock, "now").mockImplementation(() => new Date((t += 1000)));
    const created = await createArticle(
      { header: "Dzień dziecka", text: "Zapraszamy.", date: "2026-06-01", image: await photo() },
      { actor: pastor },
    );
    if (!created.ok) throw new Error(created.message);
    await updateArticle(
      { id: created.id, header: "Dzień dziecka 2026", text: "Zapraszamy.", date: "" },
      { actor: pastor },
    );
    await deleteArticle({ id: created.id }, { actor: pastor });
    await restoreArticle({ id: created.id, actor: pastor });

    const draftId = await createDraft({
      userId: pastor.id,
      values: { title: "Piknik", description: "", date: "2026-05-01" },
    });
    const saved = await saveGallery({
      userId: pastor.id,
      draftId,
      galleryId: null,
      values: { title: "Piknik", description: "", date: "2026-05-01" },
      actor: pastor,
    });
    expect(saved.ok).toBe(true);
    await deleteGallery({ title: "Piknik" }, undefined, { actor: pastor });
    const binned = (await (await db()).query.galleries.findFirst())!;
    await restoreGallery({ id: String(binned.id), actor: pastor });
    await deleteGallery({ title: "Piknik" }, undefined, { actor: pastor });
    await purgeItem({ kind: "gallery", id: String(binned.id), actor: pastor });
    await deleteArticle({ id: created.id }, { actor: pastor });
    vi.restoreAllMocks();
    // Thirty days later the site purges the article by itself.
    await purgeExpired({ now: new Date(t + 31 * DAY) });

    expect(await shown()).toEqual([
      "strona (automatycznie): usunięto na zawsze artykuł „Dzień dziecka 2026”",
      "pastor@example.org: przeniesiono do kosza artykuł „Dzień dziecka 2026”",
      "pastor@example.org: usunięto na zawsze galerię „Piknik”",
      "pastor@example.org: przeniesiono do kosza galerię „Piknik”",
      "pastor@example.org: przywrócono z kosza galerię „Piknik”",
      "pastor@example.org: przeniesiono do kosza galerię „Piknik”",
      "pastor@example.org: dodano galerię „Piknik”",
      "pastor@example.org: przywrócono z kosza artykuł „Dzień dziecka 2026”",
      "pastor@example.org: przeniesiono do kosza artykuł „Dzień dziecka 2026”",
      "pastor@example.org: zmieniono artykuł „Dzień dziecka 2026”",
      "pastor@example.org: dodano artykuł „Dzień dziecka”",
    ]);
  });

  it("records a sign-in with its address, and a refusal over the limit once per lock-out", async () => {
    const attempt = (password: string) => {
      const body = new URLSearchParams({ email: "Pastor@Example.org", password });
      const request = new Request("http://localhost/strefapastora/logowanie", { method: "POST", body });
      return requestContext
        .run({ clientAddress: "192.0.2.7" }, () => authenticator.authenticate("form", request))
        .then(
          () => "ok",
          (e: unknown) => (e instanceof LoginRefusedError ? e.reason : e),
        );
    };
    expect(await attempt("haslo-testowe-123")).toBe("ok");
    for (let i = 0; i < LOGIN_LIMITS.perAddressAndEmail; i++) expect(await attempt("zle-haslo-1234")).toBe("invalid");
    expect(await attempt("haslo-testowe-123")).toBe("locked");
    expect(await attempt("zle-haslo-1234")).toBe("locked");

    expect(await shown()).toEqual([
      "niezalogowany gość: odmowa logowania: zbyt wiele nieudanych prób (adres 192.0.2.7, 2 razy, wpisano „Pastor@Example.org”)",
      "pastor@example.org: zalogowano się (adres 192.0.2.7)",
    ]);
    const [refusal, signIn] = await listActivity();
    // What a visitor typed is never recorded as who acted.
    expect(refusal.actor).toBe("");
    expect(signIn.actor).toBe("pastor@example.org");
  });

  it("records refusals from one address as one counted line, whatever e-mails are typed", async () => {
    const attempt = (email: string, clientAddress = "198.51.100.9") => {
      const body = new URLSearchParams({ email, password: "zle-haslo-1234" });
      const request = new Request("http://localhost/strefapastora/logowanie", { method: "POST", body });
      return requestContext
        .run({ clientAddress }, () => authenticator.authenticate("form", request))
        .catch((e: unknown) => (e instanceof LoginRefusedError ? e.reason : e));
    };
    const long = `${"x".repeat(500)}@example.org`;
    for (let i = 0; i < 30; i++) await attempt(i === 29 ? long : `atak${i}@example.org`);
    const refused = (await listActivity()).filter((e) => e.action === "sign_in_refused");
    expect(refused).toHaveLength(1);
    const [line] = refused;
    expect(line.count).toBeGreaterThan(1);
    expect(line.count).toBeLessThan(30);
    // The last typed text, cut short, as data.
    expect(line.subjectTitle).toBe("x".repeat(80));
    expect(actorLabel(line)).toBe("niezalogowany gość");
    expect(activityLabel(line)).toContain(`${line.count} razy`);

    // Another address has a line of its own.
    await attempt("inny@example.org", "203.0.113.4");
    expect((await listActivity()).filter((e) => e.action === "sign_in_refused")).toHaveLength(1);
    for (let i = 0; i < LOGIN_LIMITS.perAddress + 2; i++) await attempt(`inny${i}@example.org`, "203.0.113.4");
    expect((await listActivity()).filter((e) => e.action === "sign_in_refused")).toHaveLength(2);
  });
});

describe("the page", () => {
  it("shows 50 entries a page, newest first, with links to older and newer pages", async () => {
    const d = await db();
    const start = Date.now() - 200 * 60_000;
    for (let i = 0; i < 120; i++) {
      await recordActivity(d, {
        actor: pastor,
        action: "edited",
        subject: { kind: "article", id: String(i), title: `Wpis ${i}` },
        at: new Date(start + i * 60_000),
      });
    }
    const first = await activityPage(1);
    expect(first.entries).toHaveLength(ACTIVITY_PAGE_SIZE);
    expect(first.entries[0].subjectTitle).toBe("Wpis 119");
    expect(first.hasOlder).toBe(true);
    const third = await activityPage(3);
    expect(third.entries.map((e) => e.subjectTitle)).toEqual(Array.from({ length: 20 }, (_, i) => `Wpis ${19 - i}`));
    expect(third.hasOlder).toBe(false);
    expect((await activityPage(4)).entries).toEqual([]);
  });
});

describe("keeping a year", () => {
  it("shows and keeps the last year only", async () => {
    const now = Date.now();
    const at = (ago: number) => new Date(now - ago);
    const d = await db();
    await recordActivity(d, {
      actor: pastor,
      action: "published",
      subject: { kind: "article", id: "1", title: "Stare" },
      at: at(ACTIVITY_KEEP_MS + DAY),
    });
    await recordActivity(d, {
      actor: pastor,
      action: "scheduled",
      subject: { kind: "article", id: "2", title: "Nowe" },
      at: at(ACTIVITY_KEEP_MS - DAY),
    });
    expect(await shown()).toEqual(["pastor@example.org: zaplanowano publikację: artykuł „Nowe”"]);
    expect(await pruneActivity({ now: new Date(now) })).toBe(1);
    expect((await d.query.activityLog.findMany()).map((e) => e.subjectTitle)).toEqual(["Nowe"]);
  });

  it("keeps an entry when its account is removed", async () => {
    const d = await db();
    await recordActivity(d, { actor: pastor, action: "signed_in", address: "192.0.2.1" });
    await removeUser({ email: pastor.email });
    expect(await shown()).toEqual(["pastor@example.org: zalogowano się (adres 192.0.2.1)"]);
  });
});
