// The checks of what the pastor types into 'Dane zboru', with real-looking
// numbers whose check digits were computed by hand.
import { describe, expect, it } from "vitest";
import {
  checkHttpsUrl,
  checkGoogleCalendarUrl,
  checkMapEmbedUrl,
  checkNip,
  checkNrb,
  checkPhone,
  checkPostalCode,
  checkRegon,
  groupNrb,
  phoneView,
} from "~/features/church/checks";

describe("NRB (bank account)", () => {
  it.each(["61 1090 1014 0000 0712 1981 2874", "61109010140000071219812874", "PL61 1090 1014 0000 0712 1981 2874"])(
    "accepts %s",
    (nrb) => expect(checkNrb(nrb)).toBeNull(),
  );
  it("refuses a mistyped digit by the mod-97 check", () => {
    expect(checkNrb("61 1090 1014 0000 0712 1981 2875")).toMatch(/błędne cyfry kontrolne/);
    // Two neighbouring digits swapped.
    expect(checkNrb("61 1090 1014 0000 0712 1918 2874")).toMatch(/błędne cyfry kontrolne/);
  });
  it.each(["61 1090 1014 0000 0712 1981 287", "61 1090 1014 0000 07l2 1981 2874", ""])(
    "refuses %j as not 26 digits",
    (nrb) => expect(checkNrb(nrb)).toMatch(/26 cyfr/),
  );
  it("groups the digits as banks print them", () => {
    expect(groupNrb("PL61109010140000071219812874")).toBe("61 1090 1014 0000 0712 1981 2874");
  });
});

describe("NIP", () => {
  it.each(["526-000-12-46", "5260001246", "123-456-32-18"])("accepts %s", (nip) => expect(checkNip(nip)).toBeNull());
  it.each(["526-000-12-47", "123-456-32-19"])("refuses %s for its check digit", (nip) =>
    expect(checkNip(nip)).toMatch(/cyfrę kontrolną/),
  );
  it.each(["526-000-12-4", "52600012466", "abc"])("refuses %s as not 10 digits", (nip) =>
    expect(checkNip(nip)).toMatch(/10 cyfr/),
  );
});

describe("REGON", () => {
  it.each(["123456785", "12345678512347"])("accepts %s", (regon) => expect(checkRegon(regon)).toBeNull());
  it.each(["123456784", "12345678512348"])("refuses %s for its check digit", (regon) =>
    expect(checkRegon(regon)).toMatch(/cyfrę kontrolną/),
  );
  it.each(["12345678", "1234567851", "12345678x"])("refuses %s as not 9 or 14 digits", (regon) =>
    expect(checkRegon(regon)).toMatch(/9 albo 14 cyfr/),
  );
});

describe("postal code", () => {
  it("accepts NN-NNN", () => expect(checkPostalCode("32-020")).toBeNull());
  it.each(["32020", "3-2020", "32-0200", "ab-cde", "32 020"])("refuses %s", (code) =>
    expect(checkPostalCode(code)).toMatch(/NN-NNN/),
  );
});

describe("phone", () => {
  it.each(["12 345 67 89", "+48 601 234 567", "601234567", "0048 601 234 567"])("accepts %s", (phone) =>
    expect(checkPhone(phone)).toBeNull(),
  );
  it.each(["+48 000 000 000", "123", "+49 30 1234567", "telefon"])("refuses %s", (phone) =>
    expect(checkPhone(phone)).toMatch(/nie jest polskim numerem/),
  );
  it("shows a number grouped and dials it in E.164", () => {
    expect(phoneView("601234567")).toEqual({ display: "+48 601 234 567", tel: "tel:+48601234567" });
    expect(phoneView("12 345 67 89")).toEqual({ display: "+48 12 345 67 89", tel: "tel:+48123456789" });
  });
});

describe("addresses", () => {
  it("takes only https for the video channel", () => {
    expect(checkHttpsUrl("https://www.youtube.com/@zbor")).toBeNull();
    expect(checkHttpsUrl("http://www.youtube.com/@zbor")).toMatch(/https/);
    expect(checkHttpsUrl("javascript:alert(1)")).toMatch(/https/);
  });
  it("takes only Google Maps for the map", () => {
    expect(checkMapEmbedUrl("https://www.google.com/maps/embed?pb=!1m18")).toBeNull();
    expect(checkMapEmbedUrl("https://evil.example/maps/embed")).toMatch(/Google Maps/);
    expect(checkMapEmbedUrl("https://www.google.com.evil.example/maps")).toMatch(/Google Maps/);
    expect(checkMapEmbedUrl("http://www.google.com/maps/embed")).toMatch(/Google Maps/);
  });

  it("takes only a Google Calendar embed address", () => {
    expect(
      checkGoogleCalendarUrl("https://calendar.google.com/calendar/embed?src=zbor%40gmail.com&ctz=Europe%2FWarsaw"),
    ).toBeNull();
    expect(checkGoogleCalendarUrl("https://calendar.google.com.evil.example/calendar/embed")).toMatch(
      /kalendarza z Google/,
    );
    expect(checkGoogleCalendarUrl("https://calendar.google.com/calendar/u/0/r")).toMatch(/kalendarza z Google/);
    expect(checkGoogleCalendarUrl("http://calendar.google.com/calendar/embed?src=x")).toMatch(/kalendarza z Google/);
    expect(checkGoogleCalendarUrl("zbor@gmail.com")).toMatch(/kalendarza z Google/);
  });
});
