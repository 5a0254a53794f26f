import { test as base, expect } from "@playwright/test";

/** Every test stays on this machine: requests to other hosts (map, calendar) are answered empty. */
export const test = base.extend({
  page: async ({ page, baseURL }, use) => {
    const own = new URL(baseURL!).host;
    await page.route(
      (url) => url.host !== own,
      (route) => route.fulfill({ status: 204, body: "" }),
    );
    await use(page);
  },
});

export { expect };
