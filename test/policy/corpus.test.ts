// The bad-input corpus: every file under test/policy/invalid/ is an invalid policy, and the
// file beside it (same name, .expected) holds every line validation must print for it, without
// the file name. The messages are part of the product: a change to one is a reviewed change
// here. `UPDATE_CORPUS=1 npx vitest run test/policy/corpus.test.ts` rewrites the .expected
// files — read the diff before committing it.
//
// Files are read the way the command line reads them (readPolicyFile: size limit, binary
// check, byte-order mark), and the command line's own output is compared too.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPolicyFile } from "../../src/adapters/files/read-policy.js";
import { formatDiagnostic } from "../../src/policy/index.js";
import { ROOT, runCli } from "../helpers/cli.js";

const DIR = join(ROOT, "test/policy/invalid");
const cases = readdirSync(DIR)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

function messages(file: string): string[] {
  const path = join(DIR, file);
  const r = readPolicyFile(path);
  if (r.ok) return [];
  return r.errors.map((d) => formatDiagnostic(d).slice(path.length + 1));
}

function expected(file: string): string[] {
  return readFileSync(join(DIR, file.replace(/\.yaml$/, ".expected")), "utf8")
    .trimEnd()
    .split("\n");
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
    expect(got.length, "an invalid policy must produce at least one error").toBeGreaterThan(0);
    expect(got).toEqual(expected(file));
  });

  // One process for the whole corpus (`validate` takes many files), not one per file: starting
  // the CLI 70 times in a row took most of a minute on a busy machine.
  it("the command line exits 1 and prints exactly the expected lines for every file", () => {
    const shown = cases.map((file) => `test/policy/invalid/${file}`);
    const r = runCli(["validate", ...shown]);
    expect(r.status, r.stderr).toBe(1);
    const lines = r.stdout.trimEnd().split("\n");
    const summary = lines.pop();
    // Every file counted invalid on its own, and every error counted.
    const errors = cases.reduce((n, file) => {
      const read = readPolicyFile(join(DIR, file));
      return n + (read.ok ? 0 : read.errors.length);
    }, 0);
    expect(summary).toMatch(/^\d+ errors? in \d+ of \d+ files$/);
    expect(summary).toBe(`${errors} errors in ${cases.length} of ${cases.length} files`);
    for (const line of lines) expect(line).toMatch(/^test\/policy\/invalid\/.+:\d+:\d+: /);
    // Split per file: each line belongs to the file it starts with.
    const byFile = new Map<string, string[]>(shown.map((f) => [f, []]));
    for (const line of lines) {
      const file = shown.find((f) => line.startsWith(`${f}:`));
      expect(file, `a line of no file given: ${line}`).toBeDefined();
      byFile.get(file!)!.push(line.slice(file!.length + 1));
    }
    for (const [k, file] of cases.entries())
      expect(byFile.get(shown[k]!), file).toEqual(expected(file));
    // Each file's lines together, in the order the files were given.
    expect(lines).toEqual(
      cases.flatMap((file, k) => expected(file).map((l) => `${shown[k]}:${l}`)),
    );
  });

  it("refuses a file of 5 MB or more at file:1:1 without parsing it", () => {
    const dir = mkdtempSync(join(tmpdir(), "noderoll-corpus-"));
    try {
      const file = join(dir, "huge.yaml");
      const group = '  - name: workers\n    target:\n      kubernetesVersion: "1.33"\n';
      const head =
        "apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata:\n  name: huge\n" +
        "cluster:\n  name: huge\n  region: eu-west-1\ngroups:\n";
      const body = group.repeat(Math.ceil((5 * 1024 * 1024) / group.length));
      writeFileSync(file, head + body);
      const r = runCli(["validate", file]);
      expect(r.status).toBe(1);
      // Only the size error: parsed, the file's thousands of groups all named "workers" would
      // each be reported as listed twice. (No timing: that is what tells "not parsed" here.)
      expect(r.stdout).toMatch(
        new RegExp(
          `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1:1: the file is 5,\\d{3},\\d{3} bytes; a policy may be at most 1,048,576 bytes \\(1 MiB\\)\n1 error in 1 of 1 file\n$`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
