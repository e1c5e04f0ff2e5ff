// On an older Node the command line says what it needs, rather than a SyntaxError from deep in
// the bundle (review of issue 48, item 2): a module's imports are linked before its first line
// runs, so the entry, dist/cli.js, imports nothing that an older Node lacks — the version check
// runs first and the command line proper is imported after it (src/cli/launch.ts).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const entry = readFileSync(join(ROOT, "dist/cli.js"), "utf8");

/** A Node older than 24 on this machine, if there is one (Debian's, say). */
const older = ["/usr/bin/node", "/usr/local/bin/node"].find((p) => {
  if (!existsSync(p)) return false;
  const v = spawnSync(p, ["--version"], { encoding: "utf8" }).stdout.trim();
  return /^v\d+/.test(v) && Number(v.slice(1).split(".")[0]) < 24;
});

describe("dist/cli.js on an older Node", () => {
  it("links nothing but node:module before its version check", () => {
    const imports = [...entry.matchAll(/^import\s[^;]*?from\s+["']([^"']+)["']/gm)].map(
      (m) => m[1],
    );
    expect(imports).toEqual(["node:module"]);
    expect(entry.indexOf("noderoll needs Node.js 24 or later")).toBeLessThan(
      entry.indexOf("import("),
    );
  });

  it.skipIf(!older)("says it needs Node 24 and exits 2", () => {
    const r = spawnSync(older as string, [join(ROOT, "dist/cli.js"), "--version"], {
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^noderoll needs Node\.js 24 or later; this is v\d+\./);
  });
});
