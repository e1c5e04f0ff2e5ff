// ESLint flat config: typescript-eslint's recommended rules, plus one rule that keeps the
// core pure — policy, plan, roll and render may not import an SDK, an adapter or @actions/*.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const coreFolders = [
  "src/policy/**",
  "src/plan/**",
  "src/roll/**",
  "src/render/**",
  "src/ports/**",
];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "out/**", "test/fixtures/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: coreFolders,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@aws-sdk/*", "@kubernetes/*", "@actions/*", "@octokit/*"],
              message: "The core talks to the world only through src/ports.",
            },
            {
              group: ["**/adapters/**", "**/sandbox/**", "**/cli/**", "**/action/**"],
              message:
                "Imports point inward: the core may not import an adapter or an entry point.",
            },
            {
              group: [
                "node:fs",
                "node:fs/*",
                "node:http",
                "node:https",
                "node:net",
                "node:child_process",
                "fs",
                "http",
                "https",
                "child_process",
              ],
              message: "The core has no I/O of its own.",
            },
          ],
        },
      ],
    },
  },
);
