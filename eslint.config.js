// ESLint flat config: typescript-eslint's recommended rules, plus the rules that keep the core
// pure — its parts may not import an SDK, an adapter, an entry point or I/O — and its layers in
// order.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The core's parts, innermost first, and the parts each may not import: imports point inward
// (engine → kinds → roll → plan → policy, ports), and render reads plans and events only.
const layers = {
  ports: ["policy", "plan", "roll", "kinds", "engine", "render"],
  policy: ["plan", "roll", "kinds", "engine", "render"],
  plan: ["roll", "kinds", "engine", "render"],
  roll: ["kinds", "engine", "render"],
  kinds: ["engine", "render"],
  engine: ["render"],
  render: ["roll", "kinds", "engine"],
};

const outward = [
  {
    group: ["@aws-sdk/*", "@kubernetes/*", "@actions/*", "@octokit/*"],
    message: "The core talks to the world only through src/ports.",
  },
  {
    group: ["**/adapters/**", "**/sandbox/**", "**/cli/**", "**/action/**"],
    message: "Imports point inward: the core may not import an adapter or an entry point.",
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
];

const layerRules = Object.entries(layers).map(([folder, forbidden]) => ({
  files: [`src/${folder}/**`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          ...outward,
          {
            group: forbidden.map((f) => `**/${f}/**`),
            message: `src/${folder} may not import ${forbidden.join(", ")}: imports point inward.`,
          },
        ],
      },
    ],
  },
}));

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
  ...layerRules,
);
