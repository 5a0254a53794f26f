// A new site's sample events: today's three meetings, written once at start,
// shown on the home page ('Nasze spotkania') and in the Church structured
// data exactly as before, and then the pastor's: an edit shows at once, a
// removed meeting does not come back at the next start.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { church } from "~/content/church";
import { currentMeetings } from "~/features/events/events.server";
import { seedSampleEvents } from "~/features/events/samples.server";
import { loader as homeLoader } from "~/routes/_index";
import { db } from "~/services/db.server";
import { events } from "~/services/schema";
import { request, resetDatabase, settle } from "../helpers";

type Shown = { name: string; when: string; where?: string };
const home = async () =>
  (
    (await (await settle(() => homeLoader({ request: request("/"), params: {}, context: {} }))).json()) as {
      meetings: Shown[];
    }
  ).meetings;

beforeAll(async () => {
  await resetDatabase();
});

describe("the sample meetings", () => {
  it("are today's three meetings, as the home page showed them", async () => {
    await seedSampleEvents(await db());
    expect((await home()).map((m) => [m.name, m.when, m.where ?? null])).toEqual([
      ["Nabożeństwo niedzielne", "niedziela, godz. 10:00", "Kampus Wieliczka, skrzydło E"],
      ["Spotkania młodzieżowe", "sobota, godz. 17:00–20:00", "Kampus Wieliczka"],
      ["Grupy domowe", "wtorek i piątek, godz. 19:00", null],
    ]);
    expect(await currentMeetings()).toEqual(church.meetings);
  });

  it("are written once: a second start adds nothing, a removed one stays removed", async () => {
    const d = await db();
    await seedSampleEvents(d);
    expect(await d.select().from(events)).toHaveLength(3);
    await d.delete(events).where(eq(events.title, "Grupy domowe"));
    await seedSampleEvents(d);
    expect((await home()).map((m) => m.name)).toEqual(["Nabożeństwo niedzielne", "Spotkania młodzieżowe"]);
  });

  it("follow the pastor's changes: a monthly meeting reads 'pierwsza niedziela miesiąca'", async () => {
    const d = await db();
    await d.insert(events).values({
      title: "Wieczerza Pańska",
      startDate: "2026-01-04",
      startTime: "11:30",
      repeat: "monthly",
      weekdays: ["SU"],
      monthWeek: 1,
      publishAt: new Date(Date.now() - 1000),
    });
    expect((await home()).at(-1)).toMatchObject({
      name: "Wieczerza Pańska",
      when: "pierwsza niedziela miesiąca, godz. 11:30",
    });
  });
});
