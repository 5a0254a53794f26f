// How the upload scripts read an upload route's answer (the contract in
// app/components/upload-progress.tsx): only a well-formed answer is taken
// for a save or a refusal; anything else is the Polish failure message.
import { describe, expect, it } from "vitest";
import { UPLOAD_FAILED_MESSAGE, uploadOutcome } from "~/lib/post-with-progress";

describe("uploadOutcome", () => {
  it("a save names the page to open", () => {
    expect(uploadOutcome({ status: 200, json: { redirectTo: "/strefapastora/artykuly" } })).toEqual({
      saved: "/strefapastora/artykuly",
    });
  });

  it("a refusal hands over the page's data", () => {
    const refused = { error: "Wypełnij wszystkie pola", fields: ["header"] };
    expect(uploadOutcome({ status: 400, json: { refused } })).toEqual({ refused });
  });

  it("the database's outage shows its own message", () => {
    const error = "Nie zapisano zmian. Spróbuj ponownie za chwilę.";
    expect(uploadOutcome({ status: 503, json: { error } })).toEqual({ failure: error });
  });

  it.each([
    ["no answer (the network)", null],
    ["a proxy's error page", { status: 502, json: null }],
    ["a 200 without an address", { status: 200, json: { ok: true } }],
    ["an address that is not text", { status: 200, json: { redirectTo: 42 } }],
    ["a refusal that is not an object", { status: 400, json: { refused: "nie" } }],
    ["a message on another status", { status: 500, json: { error: "Błąd" } }],
    ["a refusal with a success status", { status: 200, json: { refused: {} } }],
  ])("anything else is the general failure: %s", (_, answer) => {
    expect(uploadOutcome(answer)).toEqual({ failure: UPLOAD_FAILED_MESSAGE });
  });
});
