// `plan --rehearse` with one blocker (issue 48, item 5): the demo cluster with a budget that never
// allows a disruption (web's minAvailable raised to its 3 replicas). The plan says where apply
// stops, naming the live pods; the twin, whose pods have names of their own, stops there too —
// one caution, not a second naming other pods. Forced past the budget, what the rehearsal says of
// each pod is true under force: held, then deleted, in one statement.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "noderoll-one-caution-"));
const scenario = join(dir, "blocked.yaml");
const demo = readFileSync("src/sandbox/scenarios/demo.yaml", "utf8");
if (!demo.includes("pdb: { minAvailable: 2 }")) throw new Error("the demo's web budget moved");
writeFileSync(scenario, demo.replace("pdb: { minAvailable: 2 }", "pdb: { minAvailable: 3 }"));

const plan = (...flags: string[]) =>
  runCli(["plan", "--policy", "policies/demo.yaml", "--sandbox", scenario, "--rehearse", ...flags]);

/** The live pods the plan names, and every pod name a text mentions. */
const pods = (text: string) => new Set(text.match(/default\/web-[\w-]+/g) ?? []);

describe("a rehearsed plan with one PodDisruptionBudget blocker", () => {
  it("puts one caution on top, naming the live pods, in Markdown and in the terminal", () => {
    const md = plan("--format", "markdown");
    expect(md.status, md.stderr).toBe(0);
    const top = md.stdout.slice(0, md.stdout.indexOf("**Plan:"));
    expect(top.match(/\[!CAUTION\]/g)).toHaveLength(1);
    expect(top).toContain("**apply stops at group 3 `workers`** (blocked)");
    expect(top).not.toContain("The rehearsal did not complete");
    // The section says where the twin stopped, not the twin's own pod names for the same blocker.
    expect(md.stdout).toMatch(/\*\*stopped at group 3 `workers`\*\* \(where apply stops\) in \d+m/);
    const live = pods(top);
    expect(live.size).toBe(3);
    expect([...pods(md.stdout)].filter((p) => !live.has(p))).toEqual([]);

    const text = plan();
    const cautions = text.stdout.split("\n").filter((l) => l.startsWith("✗ "));
    expect(cautions).toEqual([
      "✗ apply stops at group 3 workers (blocked): the groups before it roll first.",
    ]);
    expect(text.stdout).toMatch(
      /rehearsal on a twin .*: stopped at group 3 workers \(where apply stops\) in/,
    );
    expect([...pods(text.stdout)].filter((p) => !live.has(p))).toEqual([]);
  });

  it("under force: no caution, and each pod held then deleted in one statement", () => {
    const md = plan("--format", "markdown", "--delete-after-drain-timeout").stdout;
    const top = md.slice(0, md.indexOf("**Plan:"));
    expect(top).not.toContain("[!CAUTION]");
    expect(top).toContain("**3 pods will be deleted** (deleteAfterDrainTimeout)");
    const stalls = md.split("\n").filter((l) => /^- `default\/web-/.test(l));
    expect(stalls.length).toBeGreaterThan(0);
    // A pod held and then deleted is said once, as what happened to it under force.
    const named = stalls.map((l) => /`(default\/web-[\w-]+)`/.exec(l)![1]);
    expect(new Set(named).size).toBe(named.length);
    expect(
      stalls.some((l) => / for \d+m\d*s?, then deleted past it at the drain timeout/.test(l)),
    ).toBe(true);
  });
});
