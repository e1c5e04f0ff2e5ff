// ESLint flat config: typescript-eslint's recommended rules, plus the rules that keep the core
// pure — its parts may not import an SDK, an adapter, an entry point or I/O — and its layers in
// order.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The core's parts, innermost first, and the parts each may not import: imports point inward
// (engine → kinds → roll → plan → policy, ports), and render reads plans and events only. The
// fleet (a release promoted across clusters) builds on the policy language and the ports; what
// rolls one cluster is the application's business, not the fleet's.
const layers = {
  ports: ["policy", "plan", "roll", "kinds", "engine", "render", "fleet"],
  policy: ["plan", "roll", "kinds", "engine", "render", "fleet"],
  fleet: ["plan", "roll", "kinds", "engine", "render"],
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
    group: ["**/adapters/**", "**/sandbox/**", "**/app/**", "**/cli/**", "**/action/**"],
    message:
      "Imports point inward: the core may not import an adapter, the application layer or an entry point.",
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

// The application layer (src/app: plan, apply, rehearse, as both entry points call them) and the
// rehearsal it runs on a sandbox twin sit between the core and the entry points: they may use the
// core and the sandbox, never an adapter, an entry point, an SDK or I/O of their own — the
// command line and the action connect, print and write files. The rehearsal's parts are the
// application's tools, so they may not import it back.
const between = (folder, also = []) => ({
  files: [`src/${folder}/**`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          outward[0],
          outward[2],
          {
            group: ["**/adapters/**", "**/cli/**", "**/action/**", ...also],
            message: `src/${folder} may not import an adapter or an entry point${also.length ? " or the application layer" : ""}: imports point inward.`,
          },
        ],
      },
    ],
  },
});
const appRules = [between("app"), between("rehearsal", ["**/app/**"])];

// No module-level mutable state in src/ (issue 45): state that lives as long as the process is
// shared by every run in it (the action's, the CLI's, a test's), so a run's and a group's state
// belong to an owner object made for the run. A `let` (or `var`) at module scope, or a Map, Set,
// WeakMap, WeakSet or Array made there, is state. A table typed ReadonlyMap or ReadonlySet is not:
// TypeScript refuses every write to it. The adapters' connection pools are theirs to keep.
const CONTAINERS = "/^(Map|Set|WeakMap|WeakSet|Array)$/";
const READONLY = "/^Readonly(Map|Set)$/";
const moduleState = [
  ...[
    "Program > VariableDeclaration",
    "Program > ExportNamedDeclaration > VariableDeclaration",
  ].flatMap((decl) => [
    {
      selector: `${decl}[kind=/^(let|var)$/]`,
      message:
        "No module-level mutable state (issue 45): a `let` at module scope is shared by every run in the process; give the state an owner (the run's, the group's).",
    },
    {
      selector: `${decl} > VariableDeclarator:not([id.typeAnnotation.typeAnnotation.typeName.name=${READONLY}]) > NewExpression[callee.name=${CONTAINERS}]`,
      message:
        "No module-level mutable state (issue 45): a Map, Set, WeakMap, WeakSet or Array made at module scope is shared by every run in the process; give it an owner (the run's, the group's), or type a constant table ReadonlyMap / ReadonlySet.",
    },
  ]),
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
  ...layerRules,
  ...appRules,
  {
    files: ["src/**/*.ts"],
    ignores: ["src/adapters/**"],
    rules: { "no-restricted-syntax": ["error", ...moduleState] },
  },
);
