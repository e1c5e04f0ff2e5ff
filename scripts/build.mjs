// Bundles the entry points into dist/: index.js (the GitHub Action), post.js (its post step) and
// cli.js (the command line, with what it loads lazily in cli-chunks/). `--outdir DIR` writes
// elsewhere; the freshness test uses it to compare with dist/.
import { build } from "esbuild";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { outdir: { type: "string", default: "dist" } } });

// Some dependencies are CommonJS and call require(); an ESM bundle needs a real one. (An older
// Node is told what it needs by the command line's entry, src/cli/launch.ts; the action runs on
// the node24 its action.yml names.)
const banner = [
  "import { createRequire as __noderollCreateRequire } from 'node:module';",
  "const require = __noderollCreateRequire(import.meta.url);",
].join("\n");

const common = {
  outdir: values.outdir,
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  banner: { js: banner },
  legalComments: "eof",
  charset: "utf8",
  logLevel: "warning",
};

// The action's two steps: one file each (a step uses nearly all of its code).
await build({
  ...common,
  entryPoints: { index: "src/action/main.ts", post: "src/action/post.ts" },
});

// The command line, split where it imports lazily (src/cli/live.ts): the live adapters (the AWS
// SDK's clients, the Kubernetes client: 6 of its 8 MB) go to dist/cli-chunks/ and are read
// only when a command reaches a live cluster. One file, Node read and compiled all of it before
// `--help` or a sandbox run could start (0.65 s; 0.35 s split).
// esbuild leaves files it no longer writes: a chunk renamed by its new hash would stay behind.
rmSync(join(values.outdir, "cli-chunks"), { recursive: true, force: true });
// `npx noderoll` and the `noderoll` of an installed package run cli.js itself (package.json's
// `bin`): the hashbang names the interpreter (a module may start with one; the chunks get it too,
// harmlessly). Every dependency is in the bundle, so the package needs none installed: they are
// all devDependencies, what the build reads.
await build({
  ...common,
  banner: { js: `#!/usr/bin/env node\n${banner}` },
  // The entry checks the Node version, then imports the command line (a chunk of its own).
  entryPoints: { cli: "src/cli/launch.ts" },
  splitting: true,
  chunkNames: "cli-chunks/[name]-[hash]",
});
