// The demo's plan with web's budget raised so it never allows a disruption (minAvailable 3 of
// its 3 replicas, as test/rehearsal/one-caution.test.ts edits it), forced with
// --delete-after-drain-timeout (issue 48, item 4): the drains of the workers nodes carrying web
// wait their 15-minute timeout before the pods are deleted, and the estimates say so — the
// group's, the plan's, in the terminal and in Markdown — where they read as for the plain demo.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "noderoll-held-drain-"));
const pinned = join(dir, "pinned.yaml");
const demo = readFileSync("src/sandbox/scenarios/demo.yaml", "utf8");
if (!demo.includes("pdb: { minAvailable: 2 }")) throw new Error("the demo's web budget moved");
writeFileSync(pinned, demo.replace("pdb: { minAvailable: 2 }", "pdb: { minAvailable: 3 }"));

const FIFTEEN_MIN = 15 * 60_000;

function plan(scenario: string, ...flags: string[]): string {
  const r = runCli(["plan", "--policy", "policies/demo.yaml", "--sandbox", scenario, ...flags]);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** "~37m35s", "~1h2m" as milliseconds. */
function ms(estimate: string): number {
  const part = (unit: string) => Number(new RegExp(`(\\d+)${unit}`).exec(estimate)?.[1] ?? 0);
  return ((part("h") * 60 + part("m")) * 60 + part("s")) * 1000;
}

/** The workers group's schedule estimate and the plan's, as the terminal shows them. */
function textEstimates(text: string): { workers: number; total: number } {
  const workers = text.slice(text.indexOf("3. workers"));
  return {
    workers: ms(/Schedule: .*; (~[\dhms]+)$/m.exec(workers)![1]!),
    total: ms(/^Time: estimate (~[\dhms]+)/m.exec(text)![1]!),
  };
}

/** The workers row's estimate in the Markdown table. */
const tableEstimate = (md: string) => ms(/^\| 3 \| `workers` .*\| (~[\dhms]+) \|$/m.exec(md)![1]!);

describe("the demo forced past a budget that never allows", () => {
  it("estimates the workers group with its drains held 15 minutes, in the terminal and in Markdown", () => {
    const force = "--delete-after-drain-timeout";
    const plain = textEstimates(plan("demo", force));
    const text = plan(pinned, force);
    expect(text).toContain("PodDisruptionBudget default/web never allows a disruption");
    const held = textEstimates(text);
    expect(held.workers - plain.workers).toBeGreaterThanOrEqual(FIFTEEN_MIN);
    expect(held.total - plain.total).toBe(held.workers - plain.workers);
    const md = plan(pinned, force, "--format", "markdown");
    expect(tableEstimate(md)).toBe(held.workers);
    expect(md).toContain(`- **Time**: estimate ~`);
    expect(ms(/- \*\*Time\*\*: estimate (~[\dhms]+)/.exec(md)![1]!)).toBe(held.total);
  });
});
