/**
 * The small Polish pages answered where the app's own layout can't be
 * rendered: before Remix (an undecodable address, a bad Host, a cross-site
 * post) or without the database. Self-contained HTML, no data needed.
 */

/**
 * A whole page around `body` (HTML, escaped by the caller). The title names
 * the problem only: these pages are answered without the congregation's
 * facts, and a sample name in a tab would be another congregation's.
 */
export function fallbackDocument(title: string, body: string, style = ""): string {
  const css = style ? `<style>${style}</style>` : "";
  return `<!DOCTYPE html><html lang="pl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${css}</head><body><main>${body}</main></body></html>`;
}

function page(title: string, text: string): string {
  return fallbackDocument(title, `<h1>${title}</h1><p>${text}</p><p><a href="/">Wróć na stronę główną</a></p>`);
}

export const FALLBACK_PAGES = {
  badAddress: page("Nie znaleziono strony", "Adres jest nieprawidłowy."),
  badHost: page("Nieprawidłowe żądanie", "Nazwa serwera w żądaniu jest nieprawidłowa."),
  crossSite: page(
    "Nieprawidłowe żądanie",
    "Formularz wysłano z innej strony. Otwórz go na tej stronie i spróbuj ponownie.",
  ),
  unavailable: page(
    "Serwis chwilowo niedostępny",
    "Baza danych jest chwilowo niedostępna. Spróbuj ponownie za kilka sekund.",
  ),
} as const;
