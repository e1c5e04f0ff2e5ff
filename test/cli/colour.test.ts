// `plan` and `validate` in colour on a terminal (issue 48, item 6), as apply's lines are: run in a
// pseudo-terminal (util-linux `script`), blockers and errors red, warnings yellow, the headline
// bold; none in a pipe, none with NO_COLOR set to anything but "" (no-color.org), and never in
// Markdown or JSON, whatever the terminal.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";

const ESC = "\x1b[";
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The command line in a pseudo-terminal: what the terminal was sent. */
function onTty(args: string[], env: NodeJS.ProcessEnv = {}): string {
  const command = [process.execPath, `${ROOT}dist/cli.js`, ...args].map(quote).join(" ");
  const { NO_COLOR: _unset, ...inherited } = process.env;
  const r = spawnSync("script", ["-qec", command, "/dev/null"], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    encoding: "utf8",
  });
  return r.stdout.replace(/\r\n/g, "\n");
}

const dir = mkdtempSync(join(tmpdir(), "noderoll-colour-"));
const blocked = join(dir, "blocked.yaml");
writeFileSync(
  blocked,
  readFileSync("src/sandbox/scenarios/demo.yaml", "utf8").replace(
    "pdb: { minAvailable: 2 }",
    "pdb: { minAvailable: 3 }",
  ),
);
const plan = ["plan", "--policy", "policies/demo.yaml", "--sandbox", blocked];
const broken = join(dir, "broken.yaml");
writeFileSync(
  broken,
  readFileSync("policies/demo.yaml", "utf8").replace(/^metadata:/m, "metdata: {}\nmetadata:"),
);

describe("plan on a terminal", () => {
  it("paints where apply stops and its blocker red, warnings yellow, the headline bold", () => {
    const out = onTty(plan);
    expect(out).toContain(`${ESC}31m✗${ESC}0m ${ESC}1;31mapply stops at group 3 workers${ESC}0m`);
    expect(out).toMatch(new RegExp(`\\x1b\\[31m✗ blocker: PodDisruptionBudget default/web`));
    expect(out).toMatch(new RegExp(`\\x1b\\[33m! warning: `));
    expect(out).toContain(`${ESC}1mPlan: 2 groups to roll (9 nodes), 0 config changes, 1 blocked.`);
  });

  it("writes no colour with NO_COLOR, in a pipe, or as Markdown or JSON", () => {
    expect(onTty(plan, { NO_COLOR: "1" })).not.toContain(ESC);
    // An empty NO_COLOR is as if unset (no-color.org).
    expect(onTty(plan, { NO_COLOR: "" })).toContain(ESC);
    expect(runCli(plan).stdout).not.toContain(ESC);
    expect(onTty([...plan, "--format", "markdown"])).not.toContain(ESC);
    expect(onTty([...plan, "--format", "json"])).not.toContain(ESC);
  });
});

describe("validate on a terminal", () => {
  it("paints errors red and a valid file green; plain with NO_COLOR or in a pipe", () => {
    const out = onTty(["validate", broken, "policies/demo.yaml"]);
    expect(out).toMatch(new RegExp(`\\x1b\\[31m${broken.replace(/[.]/g, "\\.")}:\\d+:\\d+: `));
    expect(out).toContain(`${ESC}32mpolicies/demo.yaml: valid (policy "demo"`);
    expect(out).toContain(`${ESC}1;31m1 error in 1 of 2 files${ESC}0m`);
    expect(onTty(["validate", broken], { NO_COLOR: "1" })).not.toContain(ESC);
    const piped = runCli(["validate", broken]);
    expect(piped.status).toBe(1);
    expect(piped.stdout).not.toContain(ESC);
    expect(onTty(["validate", "--format", "json", broken])).not.toContain(ESC);
  });
});
