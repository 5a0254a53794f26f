// The one rule for new passwords: long enough and not on the list of common ones.
import { describe, expect, it } from "vitest";
import { PASSWORD_MIN_LENGTH, newPasswordSchema, passwordProblem } from "~/features/auth/password-rule.server";

const message = (password: string) => {
  const checked = newPasswordSchema.safeParse(password);
  return checked.success ? null : checked.error.issues[0].message;
};

describe("new passwords", () => {
  it(`have at least ${PASSWORD_MIN_LENGTH} characters, letters with diacritics counted once`, () => {
    expect(message("abc-def-ghi")).toBe("Hasło musi mieć co najmniej 12 znaków.");
    expect(passwordProblem("zażółć-gęśl")).toBe("short");
    expect(passwordProblem("zażółć-gęślą")).toBeNull();
    expect(message("x".repeat(1025))).toBe("Hasło może mieć najwyżej 1024 znaków.");
  });

  it.each([
    "qwerty123456", // on the list as it is
    "1QAZ2WSX3EDC", // in any letter case
    "Password2024!", // a listed password with digits and symbols around it
    "!!iloveyou!!12",
    "123456789012",
    "abcabcabcabc", // a short run repeated
    "aaaaaaaaaaaaaaa",
  ])("refuse %s as common or simple, in Polish", (password) => {
    expect(message(password)).toBe("To hasło jest zbyt popularne lub zbyt proste i łatwo je odgadnąć. Wybierz inne.");
  });

  it.each(["haslo-testowe-123", "Kościół-w-Wieliczce-1920", "gzNq3v0R-f7sKpXc", "correct horse battery staple"])(
    "accept %s",
    (password) => {
      expect(passwordProblem(password)).toBeNull();
    },
  );
});
