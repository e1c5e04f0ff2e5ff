// Bundles the entry points into dist/: index.js (the GitHub Action), post.js (its post step) and
// cli.js (the command line). `--outdir DIR` writes elsewhere; the freshness test uses it to compare with dist/.
import { build } from "esbuild";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { outdir: { type: "string", default: "dist" } } });

// Some dependencies are CommonJS and call require(); an ESM bundle needs a real one.
// And an older Node gets a sentence instead of a stack trace from deep inside a dependency.
const banner = [
  "import { createRequire as __noderollCreateRequire } from 'node:module';",
  "const require = __noderollCreateRequire(import.meta.url);",
  "if (Number(process.versions.node.split('.')[0]) < 24) { console.error(`noderoll needs Node.js 24 or later; this is ${process.version}. Use the project's own (npm ci installs it): npx node ${process.argv.slice(1).join(' ')}`); process.exit(2); }",
].join("\n");

await build({
  entryPoints: { index: "src/action/main.ts", post: "src/action/post.ts", cli: "src/cli/main.ts" },
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
