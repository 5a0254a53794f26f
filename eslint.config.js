// Lint rules run by `npm test`: TypeScript's recommended set, the rules of
// hooks, and jsx-a11y's accessibility checks for everything rendered.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import redos from "eslint-plugin-redos";
import regexp from "eslint-plugin-regexp";
import globals from "globals";
import tseslint from "typescript-eslint";

const NO_ROUTE_OR_BOOT = {
  group: ["~/routes/*", "~/boot/*", "**/routes/*", "**/boot/*"],
  message: "Features and components never import a route or boot.",
};
const REQUEST_RULE =
  "Features take plain values and return plain results: the route reads the request and builds the reply (app/http/ helps).";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      "data/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "bench/out/",
      ".cache/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // A pattern that backtracks super-linearly on a hostile input stops the
    // one thread every visitor shares (a Host header, an article's text).
    // The product's code only: tests and benchmarks read no stranger's input.
    files: ["app/**", "server/**", "scripts/**"],
    // regexp's rules skip bounded quantifiers such as `{0,62}`, which is how
    // an exponential Host check once slipped through; recheck's automaton
    // and fuzzing see those too.
    plugins: { regexp, redos },
    rules: {
      "redos/no-vulnerable": "error",
      "regexp/no-super-linear-backtracking": ["error", { report: "potential" }],
      "regexp/no-super-linear-move": ["error", { report: "potential", ignorePartial: false, ignoreSticky: false }],
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      // Text cleaning matches control characters on purpose.
      "no-control-regex": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    // Layers: routes own request → reply and call features; features hold the
    // rules; services (database, storage, images, config, sessions), http
    // (the front door, caching, headers) and lib (client-safe helpers) sit
    // below them and never reach up. app/boot, the composition root, may
    // import anything. See the README's Architecture.
    files: ["app/services/**", "app/http/**", "app/lib/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/features/*", "~/routes/*", "~/boot/*", "**/features/*", "**/routes/*", "**/boot/*"],
              message: "services/, http/ and lib/ never import a feature, a route or boot: move what both need down.",
            },
          ],
        },
      ],
      // no-restricted-imports does not see import(): the same rule for it.
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportExpression[source.value=/\\/(features|routes|boot)\\//]",
          message: "services/, http/ and lib/ never import a feature, a route or boot: move what both need down.",
        },
      ],
    },
  },
  {
    files: ["app/features/**", "app/components/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [NO_ROUTE_OR_BOOT] }],
    },
  },
  {
    // Routes own request → reply: features take plain values (fields, files
    // as read, ids from the address) and return plain results. Only the
    // session guards (requireUser, requireUserOrKeep) and the sign-in they
    // stand on read the request's cookies and throw the redirect themselves.
    files: ["app/features/**/*.server.ts"],
    ignores: ["app/features/auth/**", "app/features/kept-forms/kept-forms.server.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [NO_ROUTE_OR_BOOT],
          paths: [
            {
              name: "@remix-run/node",
              importNames: ["data", "json", "redirect", "redirectDocument", "replace"],
              message: REQUEST_RULE,
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "TSTypeReference[typeName.name=/^(Request|Response|Headers)$/]", message: REQUEST_RULE },
        { selector: "NewExpression[callee.name=/^(Request|Response|Headers)$/]", message: REQUEST_RULE },
        { selector: "MemberExpression[object.name='Response']", message: REQUEST_RULE },
      ],
    },
  },
  {
    // Functions that Playwright runs inside the page.
    files: ["bench/**", "tests/e2e/**"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
);
