// Small forms of the pastor area are read only up to their cap (64 KiB, 1 MB
// for the long texts of 'dane zboru'): a larger body, sent with or without a
// length, is answered 413 'Formularz jest zbyt duży.' as soon as it passes
// the cap, and a normal form still works.
import { beforeEach, describe, expect, it } from "vitest";
import { LONG_FORM_MAX_BYTES, SMALL_FORM_MAX_BYTES, readSmallForm } from "~/http/small-form.server";
import { action as devicesAction } from "~/routes/strefapastora.urzadzenia";
import { action as binAction } from "~/routes/strefapastora.kosz";
import { action as factsAction } from "~/routes/strefapastora.dane-zboru";
import { loader as factsLoader } from "~/routes/strefapastora.dane-zboru";
import { ORIGIN, addPastor, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const MB = 1024 * 1024;
const encoder = new TextEncoder();

/** A url-encoded body that starts with `head` and goes on to `total` bytes, counting what was read of it. */
function streamedBody(head: string, total: number) {
  const filler = encoder.encode("x".repeat(16 * 1024));
  const counter = { read: 0 };
  let first = true;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.read >= total) return controller.close();
      const chunk = first ? encoder.encode(`${head}&filler=`) : filler;
      first = false;
      counter.read += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

function post(path: string, body: ReadableStream<Uint8Array> | string, cookie: string) {
  return request(path, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, Cookie: cookie },
    duplex: "half",
  } as RequestInit);
}

async function csrfOf(cookie: string): Promise<string> {
  const res = await settle(() =>
    factsLoader({
      request: request("/strefapastora/dane-zboru", { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    }),
  );
  return ((await res.json()) as { csrf: string }).csrf;
}

describe("readSmallForm", () => {
  it("stops reading a streamed body once it passes the cap, and answers 413 in Polish", async () => {
    const { stream, counter } = streamedBody("a=1", 50 * MB);
    const started = performance.now();
    const thrown = await readSmallForm(post("/x", stream, "")).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.status).toBe(413);
    expect(await res.text()).toBe("Formularz jest zbyt duży.");
    expect(counter.read).toBeLessThan(SMALL_FORM_MAX_BYTES + 64 * 1024);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses a body whose length says it is too large without reading it", async () => {
    const { stream, counter } = streamedBody("a=1", 50 * MB);
    const req = request("/x", {
      method: "POST",
      body: stream,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(2 * MB) },
      duplex: "half",
    } as RequestInit);
    await expect(readSmallForm(req, LONG_FORM_MAX_BYTES)).rejects.toMatchObject({ status: 413 });
    // Nothing beyond the stream's first chunk, which a Request pulls on its own.
    expect(counter.read).toBeLessThan(64 * 1024);
  });

  it("reads a normal form, url-encoded or multipart", async () => {
    expect(Object.fromEntries(await readSmallForm(post("/x", "intent=others&csrf=abc", "")))).toEqual({
      intent: "others",
      csrf: "abc",
    });
    const form = new FormData();
    form.set("intent", "purge");
    form.set("title", "Wieczór kolęd");
    expect((await readSmallForm(request("/x", { method: "POST", body: form }))).get("title")).toBe("Wieczór kolęd");
  });
});

describe("the pastor area's small forms", () => {
  let cookie: string;
  let csrf: string;
  beforeEach(async () => {
    await resetDatabase();
    await addPastor();
    cookie = await signIn();
    csrf = await csrfOf(cookie);
  });

  it("answer 413 to a streamed body over the cap without reading it all", async () => {
    // Past the small cap, with a good token: the route's own cap refuses it.
    const small = streamedBody(`csrf=${csrf}&intent=others`, 50 * MB);
    const res = await settle(() =>
      devicesAction({ request: post("/strefapastora/urzadzenia", small.stream, cookie), params: {}, context: {} }),
    );
    expect(res.status).toBe(413);
    expect(small.counter.read).toBeLessThan(LONG_FORM_MAX_BYTES + 2 * MB);

    const bin = streamedBody(`csrf=${csrf}&intent=restore&kind=article&id=1`, 200 * 1024);
    const refused = await settle(() =>
      binAction({ request: post("/strefapastora/kosz", bin.stream, cookie), params: {}, context: {} }),
    );
    expect(refused.status).toBe(413);
  });

  it("take a normal form; 'dane zboru' takes long texts up to 1 MB", async () => {
    const res = await settle(() =>
      devicesAction({
        request: post("/strefapastora/urzadzenia", `csrf=${csrf}&intent=others`, cookie),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(302);

    // 200 KB of text: over the small cap, under the long one: the form's own checks answer.
    const long = `csrf=${csrf}&about=${"a".repeat(200 * 1024)}`;
    const facts = await settle(() =>
      factsAction({ request: post("/strefapastora/dane-zboru", long, cookie), params: {}, context: {} }),
    );
    expect(facts.status).not.toBe(413);
    expect(facts.status).toBeLessThan(500);
  });
});
