/** Names shared by the CSRF check on the server and the forms that carry the token. */
export const CSRF_FIELD = "csrf";
// Same-origin scripts may send the token as a header instead (e.g. a JSON fetch).
export const CSRF_HEADER = "X-CSRF-Token";
