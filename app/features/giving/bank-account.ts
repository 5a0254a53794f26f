/** The 26 digits of a Polish account number written with spaces, hyphens or a leading "PL". */
export function accountDigits(account: string): string {
  return account.replace(/[\s-]/g, "").replace(/^PL/i, "");
}

/** "04 0000 0000 …": the 2 check digits, then groups of 4, as banks print it. */
export function groupAccount(account: string): string {
  const digits = accountDigits(account);
  return [digits.slice(0, 2), ...(digits.slice(2).match(/.{1,4}/g) ?? [])].join(" ");
}
