// Bodies read before a route's own limits (the sign-in form, the CSRF check
// of signed-in posts) are capped: a huge post is refused without the server
// reading, or holding, more than the cap.
import { beforeEach, describe, expect, it } from "vitest";
import { URLENCODED_FORM_MAX_BYTES } from "~/features/auth/csrf.server";
import { action as deleteArticle } from "~/routes/strefapastora.artykuly.$id";
import { action as loginAction } from "~/routes/strefapastora.logowanie";
import { ORIGIN, addPastor, cookieHeader, cookiesFrom, openLoginPage, signIn } from "../auth-helpers";
import { request, resetDatabase, settle } from "../helpers";

const MB = 1024 * 1024;

/** A url-encoded body of `total` bytes that counts how much of it was read. */
function countedBody(total: number) {
  const chunk = new TextEncoder().encode(`a=${"x".repeat(64 * 1024 - 2)}`);
  const counter = { read: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.read >= total) return controller.close();
      counter.read += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

function post(path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return request(path, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN, ...headers },
    duplex: "half",
  } as RequestInit);
}

describe("bodies read before a route's limits", () => {
  beforeEach(async () => {
    await resetDatabase();
    await addPastor();
  });

  it("the sign-in form refuses a body that says it is large, without reading it", async () => {
    const { res: page } = await openLoginPage();
    const { stream, counter } = countedBody(60 * MB);
    const res = await settle(() =>
      loginAction({
        request: post("/strefapastora/logowanie", stream, {
          "Content-Length": String(60 * MB),
          Cookie: cookieHeader(cookiesFrom(page)),
        }),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(413);
    expect(await res.text()).toBe("Formularz jest zbyt duży.");
    expect(counter.read).toBeLessThan(MB);
  });

  it("the sign-in form stops reading a body sent without a length once it passes the cap", async () => {
    const { res: page } = await openLoginPage();
    const { stream, counter } = countedBody(60 * MB);
    const res = await settle(() =>
      loginAction({
        request: post("/strefapastora/logowanie", stream, { Cookie: cookieHeader(cookiesFrom(page)) }),
        params: {},
        context: {},
      }),
    );
    expect(res.status).toBe(413);
    expect(counter.read).toBeLessThan(MB);
  });

  it("a signed-in post's token check reads at most the largest form the area takes", async () => {
    const cookie = await signIn();
    const { stream, counter } = countedBody(40 * MB);
    const res = await settle(() =>
      deleteArticle({
        request: post("/strefapastora/artykuly/1", stream, { Cookie: cookie }),
        params: { id: "1" },
        context: {},
      }),
    );
    // Larger than any form of the area: too large, whatever its token.
    expect(res.status).toBe(413);
    expect(counter.read).toBeLessThan(URLENCODED_FORM_MAX_BYTES + 2 * MB);
  });
});
