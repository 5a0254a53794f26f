/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  serverModuleFormat: "esm",
  // Native and WASM packages stay external; the server imports them from node_modules.
  // rrule is CommonJS whose named exports Node's ESM loader cannot see: bundled.
  serverDependenciesToBundle: ["rrule"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
