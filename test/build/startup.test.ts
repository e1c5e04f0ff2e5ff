// The command line reads its live adapters (the AWS SDK's clients, the Kubernetes client: most of
// its code) only when a command reaches a live cluster: dist/cli.js (the entry, which checks the
// Node version and then imports the command line's own chunk, src/cli/launch.ts), that chunk and
// what it imports statically hold none of them, so `--help`, `validate` and sandbox runs start without reading them
// (scripts/build.mjs). A static import of the adapters anywhere on that path would undo the split
// silently; this fails instead.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";

/** The files a module imports statically (relative ones: the bundle's own chunks). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|\} from|export \*? ?from)[^;\n]*?"(\.\/[^"]+)"/gm))
    out.push(join(dirname(file), m[1] as string));
  return out;
}

/** `entry` and every file it reaches by static imports. */
function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...staticImports(file));
  }
  return seen;
}

/**
 * esbuild marks where each bundled package's code starts. (Some of @smithy/core, shared with the
 * sandbox's own AWS faces, is on the start-up path: 0.3 MB of the 8.)
 */
const SDK = /^\/\/ node_modules\/(@aws-sdk\/|@kubernetes\/client-node\/)/m;

/** The chunks `file` imports when asked (`import("./…")`), as paths. */
function dynamicImports(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/import\("(\.\/[^"]+)"\)/g)].map((m) =>
    join(dirname(file), m[1] as string),
  );
}

describe("the command line's start-up", () => {
  const entry = join(ROOT, "dist/cli.js");
  // The entry imports only the command line's own chunk, once the Node version is checked.
  const [main] = dynamicImports(entry);
  const startup = new Set([...closure(entry), ...closure(main as string)]);

  it("starts from an entry that imports the command line alone, when asked", () => {
    expect(dynamicImports(entry)).toHaveLength(1);
    expect(staticImports(entry)).toEqual([]);
  });

  it("reads no AWS SDK or Kubernetes client code", () => {
    expect(startup.size).toBeGreaterThan(1);
    for (const file of startup)
      expect(SDK.test(readFileSync(file, "utf8")), `${file} holds SDK code`).toBe(false);
  });

  it("loads them from a chunk it imports only when asked (a live cluster)", () => {
    const live = dynamicImports(main as string).filter((file) =>
      SDK.test(readFileSync(file, "utf8")),
    );
    expect(live).toHaveLength(1);
    expect(startup.has(live[0] as string)).toBe(false);
  });

  // Node's HTTP modules, imported as ES modules, load undici (~50 ms here): only `sandbox serve`
  // needs a server and only a live cluster a client, so a command that uses neither loads none.
  it.each([
    [["--help"]],
    [["validate", "policies/demo.yaml"]],
    [["plan", "--policy", "policies/demo.yaml", "--sandbox", "demo"]],
  ])("%j loads no HTTP module of Node's", (args) => {
    const preload = `data:text/javascript,process.on("exit",()=>process.stderr.write("\\nLOADED "+JSON.stringify(process.moduleLoadList)))`;
    const r = runCli(args, { node: ["--import", preload] });
    expect(r.status).toBe(0);
    const line = r.stderr.split("\n").find((l) => l.startsWith("LOADED "));
    const loaded = JSON.parse((line as string).slice("LOADED ".length)) as string[];
    expect(loaded.length).toBeGreaterThan(10);
    expect(loaded.filter((m) => /\b(https?|http2|undici)\b|_http_/.test(m))).toEqual([]);
  });
});
