// Limits of an article's fields: the server enforces them, and the forms
// render the header's as maxLength.
export const HEADER_MAX = 300;
export const TEXT_MAX = 100_000;
