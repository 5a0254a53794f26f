// app/content/church.ts keeps fixed texts beside a new site's samples: none
// of them may carry a fact of this congregation, or another congregation
// running the same image would show it.
import { describe, expect, it } from "vitest";
import { cookieNotice, privacyPolicy, sampleFacts } from "~/content/church";

/** Words of the sample congregation that no fixed text may hold. */
const SAMPLE_WORDS = ["Wieliczk", "Piłsudskiego", sampleFacts.postalCode, sampleFacts.email, "Zielonoświątkow"];

describe("the fixed texts", () => {
  it("name the congregation in the privacy policy by the name entered in 'Dane zboru'", () => {
    const policy = privacyPolicy({ name: "Zbór „Betel” w Niepołomicach" });
    const admin = policy.sections.find((s) => s.title === "Administrator danych")!;
    expect(admin.text).toBe(
      "Administratorem Twoich danych osobowych jest pastor zboru „Zbór „Betel” w Niepołomicach”.",
    );
    const all = JSON.stringify([policy, cookieNotice]);
    for (const word of SAMPLE_WORDS) expect(all).not.toContain(word);
  });
});
