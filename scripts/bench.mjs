// Bundles scripts/bench/main.ts (with the sources it measures) and runs it: the figures come
// from the same code the product runs, not from a copy.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const out = join(mkdtempSync(join(tmpdir(), "noderoll-bench-")), "bench.mjs");
await build({
  entryPoints: ["scripts/bench/main.ts"],
  outfile: out,
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: "warning",
});
// Node's default heap: the bench must not lean on a raised limit (each part runs in a child
// process of its own, spawned the same way).
const r = spawnSync(process.execPath, [out], { stdio: "inherit" });
process.exit(r.status ?? 1);
