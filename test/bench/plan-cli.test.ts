// The bench's command-line plan (scripts/bench/plan-cli.ts): what it measures is the command a
// user runs, and the figures are that process's own — a relaunched child's added in, a failed
// plan an error rather than a time. Nothing here is timed.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliInputs, measureCliPlan, runCliPlan } from "../../scripts/bench/plan-cli.js";
import { ROOT } from "../helpers/cli.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function inputsFor(nodes: number): string {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-bench-cli-test-"));
  dirs.push(dir);
  cliInputs(nodes, dir);
  return dir;
}

describe("the bench's plan from the command line", () => {
  it("runs dist/cli.js on a generated scenario file and keeps each run's figures", () => {
    const f = measureCliPlan(100, 2, `${ROOT}dist/cli.js`);
    expect(f.summary).toMatch(
      /^Plan: 4 groups to roll \(100 nodes\), 0 config changes, 0 blocked\./,
    );
    expect(f.wallMsRuns).toHaveLength(2);
    expect(f.wallMsRuns).toContain(f.wallMs);
    expect(f.relaunched).toBe(false);
    // The child's own usage, read back: a Node process touches tens of MiB to start.
    expect(f.peakRssMiB).toBeGreaterThan(20);
    expect(f.minorPageFaults).toBeGreaterThan(1000);
    expect(f.userMs).toBeGreaterThan(0);
  });

  it("adds a relaunched child's usage to the first process's", () => {
    const dir = inputsFor(100);
    // A stand-in for the command that runs itself again as src/cli/heap.ts does (its Node
    // flags passed on); only the child touches 96 MiB and prints the plan's line.
    const cli = join(dir, "relaunching.mjs");
    writeFileSync(
      cli,
      `import { spawnSync } from "node:child_process";
if (!process.env.CHILD) {
  const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]], {
    env: { ...process.env, CHILD: "1" },
    stdio: "inherit",
  });
  process.exit(r.status ?? 1);
}
const kept = Buffer.alloc(96 * 1024 * 1024, 1);
console.log("Plan: from the child, " + kept.length + " bytes");
`,
    );
    const f = runCliPlan(100, dir, cli);
    expect(f.relaunched).toBe(true);
    expect(f.summary).toBe(`Plan: from the child, ${96 * 1024 * 1024} bytes`);
    expect(f.peakRssMiB).toBeGreaterThanOrEqual(96);
    expect(f.minorPageFaults).toBeGreaterThan((96 * 1024 * 1024) / 4096 / 2);
  });

  it("reports a plan that fails as an error with what it printed, not as a time", () => {
    const dir = inputsFor(100);
    writeFileSync(join(dir, "policy.yaml"), "apiVersion: noderoll.io/v1\nkind: Nope\n");
    expect(() => runCliPlan(100, dir, `${ROOT}dist/cli.js`)).toThrow(
      /plan --sandbox failed \(exit [1-9]\d*\):\n[\s\S]*policy\.yaml/,
    );
  });
});
