// The event forms' way in for the upload script (app/components/upload-progress.tsx):
// the same form the page's action reads, answered with JSON instead of a
// redirect or a page.
import { beforeAll, describe, expect, it } from "vitest";
import { loader as addLoader, action as addAction } from "~/routes/strefapastora.wydarzenia.dodaj";
import { action as addUploadAction } from "~/routes/strefapastora.wydarzenia.dodaj.wyslij";
import { action as editUploadAction } from "~/routes/strefapastora.wydarzenia.edytuj.$id.wyslij";
import { loader as listLoader } from "~/routes/strefapastora.wydarzenia._index";
import { ORIGIN, PASTOR, addPastor, cookieHeader, cookiesFrom, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

let session: string;
let csrf: string;

beforeAll(async () => {
  await resetDatabase();
  await addPastor();
  session = await signIn(PASTOR);
  const res = await settle(async () =>
    addLoader({
      request: request("/strefapastora/wydarzenia/dodaj", { headers: { Cookie: session } }),
      params: {},
      context: {},
    }),
  );
  csrf = ((await res.json()) as { csrf: string }).csrf;
});

/** The form as the page sends it: the session's token first, then the fields. */
function post(path: string, fields: Record<string, string>) {
  const body = new FormData();
  body.append("csrf", csrf);
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append("image", new File([], "", { type: "application/octet-stream" }));
  return request(path, { method: "POST", body, headers: { Cookie: session, Origin: ORIGIN } });
}

const EVENT = {
  title: "Wieczór uwielbienia",
  startDate: "2030-05-10",
  startTime: "19:00",
  version: "0",
  intent: "publish",
};

describe("the event upload routes", () => {
  it("save as the page does, answering { redirectTo } and leaving the one-time message", async () => {
    const res = await settle(async () =>
      addUploadAction({ request: post("/strefapastora/wydarzenia/dodaj/wyslij", EVENT), params: {}, context: {} }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ redirectTo: "/strefapastora/wydarzenia" });
    const list = await settle(async () =>
      listLoader({
        request: request("/strefapastora/wydarzenia", {
          headers: { Cookie: `${session}; ${cookieHeader(cookiesFrom(res))}` },
        }),
        params: {},
        context: {},
      }),
    );
    expect(((await list.json()) as { flash: string }).flash).toBe("Dodano wydarzenie „Wieczór uwielbienia”.");
  });

  it("answer a refusal with the page's own refusal data under `refused`, with its status", async () => {
    const fields = { ...EVENT, startTime: "25:00" };
    const page = await settle(async () =>
      addAction({ request: post("/strefapastora/wydarzenia/dodaj", fields), params: {}, context: {} }),
    );
    const script = await settle(async () =>
      addUploadAction({ request: post("/strefapastora/wydarzenia/dodaj/wyslij", fields), params: {}, context: {} }),
    );
    expect(script.status).toBe(400);
    expect(script.status).toBe(page.status);
    expect(script.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await script.json()).toEqual({ refused: await page.json() });

    const missing = await settle(async () =>
      editUploadAction({
        request: post("/strefapastora/wydarzenia/edytuj/999/wyslij", EVENT),
        params: { id: "999" },
        context: {},
      }),
    );
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ refused: { refused: null } });
  });
});
