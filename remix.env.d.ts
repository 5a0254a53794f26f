/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// A module (export {}), so that this augments the package instead of replacing it.
export {};

// Loader and action types as single fetch sends them (turbo-stream, not JSON).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
