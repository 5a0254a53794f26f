/**
 * Plain scripts of pages that are not hydrated, bundled by
 * scripts/build-browser-scripts.mjs into public/build/ (name → entry module
 * there). A route names its own in `handle.script` (app/root.tsx).
 */
export type BrowserScript = "album-editor" | "article-form";

/** Where the build lists the bundles' file names (they carry a content hash). */
export const BROWSER_SCRIPTS_MANIFEST = "build/browser-scripts.json";
