import { dictionary } from "@zxcvbn-ts/language-common";
import { z } from "zod";

/**
 * The one rule for a new password, wherever one is set: the CLI, the
 * start-up account (ADMIN_PASSWORD) and any password form. Long enough,
 * and not one that guessing scripts try first: neither a password from the
 * list of common ones shipped with the app (zxcvbn-ts's, ~49,000 entries,
 * offline), nor one with only digits or symbols around such a password,
 * nor a short run repeated ("abcabcabcabc").
 */
export const PASSWORD_MIN_LENGTH = 12;
// argon2 cost grows with the input; nobody types more than this.
export const PASSWORD_MAX_LENGTH = 1024;

export type PasswordProblem = "short" | "long" | "common";

export const PASSWORD_MESSAGES: Record<PasswordProblem, string> = {
  short: `Hasło musi mieć co najmniej ${PASSWORD_MIN_LENGTH} znaków.`,
  long: `Hasło może mieć najwyżej ${PASSWORD_MAX_LENGTH} znaków.`,
  common: "To hasło jest zbyt popularne lub zbyt proste i łatwo je odgadnąć. Wybierz inne.",
};

let common: Set<string> | undefined;
// Built on first use and kept: a set of some 49,000 short strings.
const commonPasswords = () => (common ??= new Set(dictionary["passwords-common"].map((p) => p.toLowerCase())));

// Digits, punctuation, symbols and spaces put around a common password.
const FILLER = /^[\p{N}\p{P}\p{S}\s]$/u;

/** `text` without filler at either end, by code point (a `+$` pattern would backtrack quadratically). */
function withoutFillerAround(text: string): string {
  const chars = [...text];
  let start = 0;
  let end = chars.length;
  while (start < end && FILLER.test(chars[start])) start++;
  while (end > start && FILLER.test(chars[end - 1])) end--;
  return chars.slice(start, end).join("");
}

/** What is wrong with `password` as a new password, or null. */
export function passwordProblem(password: string): PasswordProblem | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return "short";
  if (password.length > PASSWORD_MAX_LENGTH) return "long";
  const lower = password.toLowerCase();
  const core = withoutFillerAround(lower);
  if (commonPasswords().has(lower) || commonPasswords().has(core)) return "common";
  if (/^(.{1,4})\1+$/su.test(lower)) return "common";
  return null;
}

/** The rule as a zod schema with the Polish message. */
export const newPasswordSchema = z.string().superRefine((password, ctx) => {
  const problem = passwordProblem(password);
  if (problem) ctx.addIssue({ code: "custom", message: PASSWORD_MESSAGES[problem] });
});
