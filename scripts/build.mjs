// Bundles the two entry points into dist/: index.js (the GitHub Action) and cli.js (the command
// line). `--outdir DIR` writes elsewhere; the freshness test uses it to compare with dist/.
import { build } from "esbuild";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { outdir: { type: "string", default: "dist" } } });

// Some dependencies are CommonJS and call require(); an ESM bundle needs a real one.
const banner = [
  "import { createRequire as __noderollCreateRequire } from 'node:module';",
  "const require = __noderollCreateRequire(import.meta.url);",
].join("\n");

await build({
  entryPoints: { index: "src/action/main.ts", cli: "src/cli/main.ts" },
  outdir: values.outdir,
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  banner: { js: banner },
  legalComments: "eof",
  charset: "utf8",
  logLevel: "warning",
});
