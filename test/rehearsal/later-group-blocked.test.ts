// `plan --rehearse` when a later group is the blocked one (issue 48, item 5/1): the mixed cluster
// with a Deployment on the ingress nodes whose PodDisruptionBudget never allows a disruption, so
// apply rolls `system` and stops at group 2 `ingress-a`. The rehearsal rehearses that: `system`
// rolled, `ingress-a` refused, the groups after it not reached — no success for a group apply
// never rolls, and no caution about a workload only an unreached group would take down.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "noderoll-later-blocked-"));
const scenario = join(dir, "edge.yaml");
const mixed = readFileSync("policies/sandbox/mixed.yaml", "utf8");
// Two replicas on the ingress nodes (their groups' label), with a budget that never opens.
writeFileSync(
  scenario,
  `${mixed.trimEnd()}
  - kind: Deployment
    name: edge
    replicas: 2
    nodeSelector: { role: ingress }
    pdb: { maxUnavailable: 0 }
`,
);

const plan = (...flags: string[]) =>
  runCli([
    "plan",
    "--policy",
    "policies/mixed.yaml",
    "--sandbox",
    scenario,
    "--rehearse",
    ...flags,
  ]);

interface Row {
  group: string;
  result: string;
  phases: unknown[];
}

describe("a rehearsed plan whose second group is blocked", () => {
  it("rehearses system only, and says ingress-a stops the roll and the rest are not reached", () => {
    const json = plan("--format", "json");
    expect(json.status, json.stderr).toBe(0);
    const p = JSON.parse(json.stdout);
    expect(p.summary.stopsAt).toMatchObject({ group: "ingress-a", index: 1, status: "blocked" });
    const rows = p.rehearsal.groups as Row[];
    expect(rows.map((g) => [g.group, g.result])).toEqual([
      ["system", "success"],
      ["ingress-a", "blocked"],
      ["ingress-b", "not reached"],
      ["batch", "not reached"],
    ]);
    expect(rows.slice(1).every((g) => g.phases.length === 0)).toBe(true);
    expect(p.rehearsal.result).not.toBe("success");
    // reports runs on the batch nodes only: apply never drains them.
    const reports = p.rehearsal.workloads.find((w: { name: string }) => w.name === "reports");
    expect(reports).toMatchObject({ minReady: 1, msAtZero: 0 });
  });

  it("says the same in the terminal and in Markdown, with the plan's caution alone on top", () => {
    const text = plan().stdout;
    expect(text).toContain("✗ apply stops at group 2 ingress-a (blocked)");
    expect(text).toMatch(
      /rehearsal on a twin .*: stopped at group 2 ingress-a \(where apply stops\) in /,
    );
    expect(text).toMatch(/^ {3}system: \d+m\d*s? \(success\)$/m);
    expect(text).toMatch(/^ {3}ingress-a: blocked$/m);
    expect(text).toMatch(/^ {3}ingress-b: not reached$/m);
    expect(text).toMatch(/^ {3}batch: not reached$/m);
    expect(text).not.toMatch(/^ {3}(ingress-a|ingress-b|batch): .*\(success\)$/m);
    expect(text).not.toContain("The rehearsal takes");
    expect(text).not.toContain("✗ down");

    const md = plan("--format", "markdown").stdout;
    const top = md.slice(0, md.indexOf("**Plan:"));
    expect(top.match(/\[!CAUTION\]/g)).toHaveLength(1);
    expect(top).not.toContain("The rehearsal");
    expect(md).toMatch(
      /\*\*stopped at group 2 `ingress-a`\*\* \(where apply stops\) in \d+m\d*s? — `system` \d+m\d*s?, `ingress-a` blocked, `ingress-b` not reached, `batch` not reached\./,
    );
    expect(md).not.toContain("`Deployment/default/reports`");
    // The rehearsed schedule charts what the twin rolled: no bars, nor empty sections, for the rest.
    const chart = md.slice(md.indexOf("```mermaid"), md.lastIndexOf("```"));
    expect(chart.match(/^ {2}section .*$/gm)).toEqual(["  section system"]);
  });

  it("stops at once when the first group is the blocked one, as apply does", () => {
    const first = join(dir, "system.yaml");
    writeFileSync(
      first,
      readFileSync(scenario, "utf8").replace(
        "nodeSelector: { role: ingress }",
        "nodeSelector: { role: system }",
      ),
    );
    const run = (...flags: string[]) =>
      runCli([
        "plan",
        "--policy",
        "policies/mixed.yaml",
        "--sandbox",
        first,
        "--rehearse",
        ...flags,
      ]);
    const p = JSON.parse(run("--format", "json").stdout);
    expect(p.rehearsal.groups.map((g: Row) => [g.group, g.result])).toEqual([
      ["system", "blocked"],
      ["ingress-a", "not reached"],
      ["ingress-b", "not reached"],
      ["batch", "not reached"],
    ]);
    const text = run().stdout;
    expect(text).toContain(
      "rehearsal on a twin of the cluster (nothing live touched): stopped at group 1 system (where apply stops); peak 0 extra nodes",
    );
    const md = run("--format", "markdown").stdout;
    expect(md).toContain(
      "**stopped at group 1 `system`** (where apply stops) — `system` blocked, `ingress-a` not reached, `ingress-b` not reached, `batch` not reached.",
    );
    expect(md).not.toContain("schedule</summary>");
  });

  it("under force, where nothing blocks, rehearses every group as before", () => {
    const p = JSON.parse(plan("--format", "json", "--delete-after-drain-timeout").stdout);
    expect(p.summary.stopsAt).toBeUndefined();
    expect(p.rehearsal.result).toBe("success");
    expect(p.rehearsal.groups.map((g: Row) => [g.group, g.result])).toEqual([
      ["system", "success"],
      ["ingress-a", "success"],
      ["ingress-b", "success"],
      ["batch", "success"],
    ]);
  });
});
