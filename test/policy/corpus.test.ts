// The bad-input corpus: every file under test/policy/invalid/ is an invalid policy, and the
// file beside it (same name, .expected) holds every line validation must print for it, without
// the file name. The messages are part of the product: a change to one is a reviewed change
// here. `UPDATE_CORPUS=1 npx vitest run test/policy/corpus.test.ts` rewrites the .expected
// files — read the diff before committing it.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, loadPolicy } from "../../src/policy/index.js";
import { ROOT, runCli } from "../helpers/cli.js";

const DIR = join(ROOT, "test/policy/invalid");
const cases = readdirSync(DIR)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

function messages(file: string): string[] {
  const text = readFileSync(join(DIR, file), "utf8");
  const r = loadPolicy(text, file);
  if (r.ok) return [];
  return r.errors.map((d) => formatDiagnostic(d).slice(file.length + 1));
}

describe("bad-input corpus", () => {
  it("has at least 40 invalid policies", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)("%s: every expected message, nothing else", (file) => {
    const expectedFile = join(DIR, file.replace(/\.yaml$/, ".expected"));
    const got = messages(file);
    if (process.env.UPDATE_CORPUS) writeFileSync(expectedFile, `${got.join("\n")}\n`);
    expect(existsSync(expectedFile), `${expectedFile} is missing`).toBe(true);
    const want = readFileSync(expectedFile, "utf8").trimEnd().split("\n");
    expect(got.length, "an invalid policy must produce at least one error").toBeGreaterThan(0);
    expect(got).toEqual(want);
  });

  it("the command line exits 1 with file:line:col for every file of the corpus", () => {
    for (const file of cases) {
      const r = runCli(["validate", `test/policy/invalid/${file}`]);
      expect(r.status, file).toBe(1);
      expect(r.stdout, file).toMatch(
        new RegExp(`^test/policy/invalid/${file.replace(/\./g, "\\.")}:\\d+:\\d+: `, "m"),
      );
    }
  });
});
