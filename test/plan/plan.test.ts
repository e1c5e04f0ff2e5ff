// Planning against hand-built live state: selection and its reasons, budgets, schedules (golden
// wave sequences per maxSurge / maxUnavailable), config changes, missing groups, summary line.
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/engine/index.js";
import { describeReason, hasChanges, summaryLine } from "../../src/plan/index.js";
import { instances, managed, nodesFor, policy, selfManaged, snapshot } from "./fixtures.js";

const zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];

describe("self-managed groups (kOps semantics)", () => {
  it("replaces instances on an older launch template version, and says why", () => {
    const insts = [...instances("old", 4, zones, 6), ...instances("new", 2, zones, 7)];
    const g = selfManaged("workers", insts, { latest: 7 });
    const plan = buildPlan(
      policy("groups: [{ name: workers, target: { launchTemplateVersion: $Latest } }]\n"),
      "p.yaml",
      snapshot([g]),
    );
    const gp = plan.groups[0]!;
    expect(gp.status).toBe("roll");
    expect(gp.replacements.map((r) => r.instance)).toEqual([
      "i-old000",
      "i-old001",
      "i-old002",
      "i-old003",
    ]);
    expect(gp.replacements.map((r) => r.reasons.map(describeReason))).toEqual(
      Array(4).fill(["launch template 6 → 7"]),
    );
    expect(summaryLine(plan.summary)).toBe(
      "Plan: 1 group to roll (4 nodes), 0 config changes, 0 blocked.",
    );
  });

  it.each([
    // [maxSurge, maxUnavailable, nodes needing update of 6, up to date, expected wave sizes]
    // A canary first in every group (kOps: only when none is up to date), then the window.
    [1, 0, 6, 0, [1, 1, 1, 1, 1, 1]],
    [2, 0, 6, 0, [1, 2, 2, 1]],
    [0, 2, 6, 0, [1, 2, 2, 1]],
    [2, 1, 6, 0, [1, 3, 2]],
    [2, 1, 4, 2, [1, 3]],
    [0, 1, 3, 3, [1, 1, 1]],
    [10, 0, 4, 2, [1, 3]],
    [2, 0, 1, 5, [1]],
  ])(
    "maxSurge %i, maxUnavailable %i, %i to replace, %i up to date → waves %j",
    (surge, unavailable, need, fresh, waves) => {
      const insts = [...instances("old", need, zones, 6), ...instances("new", fresh, zones, 7)];
      const g = selfManaged("workers", insts, { latest: 7 });
      const p = policy(
        `groups: [{ name: workers, rollingUpdate: { maxSurge: ${surge}, maxUnavailable: ${unavailable} } }]\n`,
      );
      const gp = buildPlan(p, "p.yaml", snapshot([g])).groups[0]!;
      expect(gp.schedule.waves.map((w) => w.nodes.length)).toEqual(waves);
      expect(gp.schedule.waves[0]!.canary).toBe(need > 1);
      expect(gp.budgets.maxSurge).toBe(Math.min(surge, need));
    },
  );

  it("takes zones in turn and replaces instances detached by an earlier run last", () => {
    const insts = instances("old", 6, zones, 6);
    insts[1]!.detachedForSurge = true;
    const g = selfManaged("workers", insts, { latest: 7 });
    const gp = buildPlan(policy("groups: [{ name: workers }]\n"), "p.yaml", snapshot([g]))
      .groups[0]!;
    const order = gp.schedule.waves.flatMap((w) => w.nodes).map((n) => n.slice(3, 9));
    expect(order).toEqual(["old000", "old004", "old002", "old003", "old005", "old001"]);
    expect(gp.schedule.zoneOrder).toEqual(["eu-west-1a", "eu-west-1b", "eu-west-1c"]);
    expect(
      gp.replacements.find((r) => r.instance === "i-old001")?.reasons.map(describeReason),
    ).toEqual(["launch template 6 → 7", "detached for surge by an earlier run"]);
  });

  it("selects annotated and over-age nodes even on the current launch template, and everything with replace-all", () => {
    const insts = instances("n", 4, zones, 7, 40);
    insts[0]!.launchTime = new Date("2026-11-20T10:00:00Z");
    insts[1]!.launchTime = new Date("2026-11-20T10:00:00Z");
    const g = selfManaged("workers", insts, { latest: 7 });
    const nodes = nodesFor(g, { "i-n001": { "noderoll.io/needs-update": "" } });
    const p = policy("defaults: { maxNodeAge: 30d }\ngroups: [{ name: workers }]\n");
    const gp = buildPlan(p, "p.yaml", snapshot([g], { nodes })).groups[0]!;
    // Selection, whatever the order (the plan puts them in the order apply takes them).
    const byInstance = [...gp.replacements].sort((a, b) => a.instance.localeCompare(b.instance));
    expect(byInstance.map((r) => [r.instance, r.reasons.map(describeReason)])).toEqual([
      ["i-n001", ["annotated noderoll.io/needs-update"]],
      ["i-n002", ["older than maxNodeAge (40d > 30d)"]],
      ["i-n003", ["older than maxNodeAge (40d > 30d)"]],
    ]);
    const forced = buildPlan(p, "p.yaml", snapshot([g], { nodes }), { replaceAll: true })
      .groups[0]!;
    expect(forced.replacements.find((r) => r.instance === "i-n000")?.reasons).toEqual([
      { kind: "replace-all" },
    ]);
    expect(forced.replacements).toHaveLength(4);
    // Going past PodDisruptionBudgets selects nothing more.
    const pastBudgets = buildPlan(p, "p.yaml", snapshot([g], { nodes }), {
      deleteAfterDrainTimeout: true,
    }).groups[0]!;
    expect(pastBudgets.replacements.map((r) => r.instance).sort()).toEqual([
      "i-n001",
      "i-n002",
      "i-n003",
    ]);
  });

  it("reports a launch template version change as a config change", () => {
    const g = selfManaged("workers", instances("n", 2, zones, 5), { latest: 7, configured: "5" });
    const gp = buildPlan(
      policy("groups: [{ name: workers, target: { launchTemplateVersion: $Latest } }]\n"),
      "p.yaml",
      snapshot([g]),
    ).groups[0]!;
    expect(gp.configChanges).toEqual([
      { field: "launchTemplate.version", from: "5 (5)", to: "$Latest (7)" },
    ]);
    expect(gp.replacements).toHaveLength(2);
  });

  it("has nothing to do when every instance is up to date", () => {
    const g = selfManaged("workers", instances("n", 3, zones, 7), { latest: 7 });
    const plan = buildPlan(policy("groups: [{ name: workers }]\n"), "p.yaml", snapshot([g]));
    expect(plan.groups[0]!.status).toBe("no-change");
    expect(hasChanges(plan)).toBe(false);
    expect(summaryLine(plan.summary)).toBe("No changes. The node groups match the policy.");
  });
});

describe("managed node groups (EKS semantics)", () => {
  it("replaces every node on a version change, surging max(2 × zones, maxUnavailable)", () => {
    const g = managed("system", instances("m", 6, zones, 3));
    const p = policy(
      'groups: [{ name: system, target: { kubernetesVersion: "1.33", releaseVersion: latest }, rollingUpdate: { maxUnavailable: 2 } }]\n',
    );
    const gp = buildPlan(p, "p.yaml", snapshot([g])).groups[0]!;
    expect(gp.status).toBe("roll");
    expect(gp.replacements).toHaveLength(6);
    expect(gp.replacements[0]!.reasons.map(describeReason)).toEqual([
      "Kubernetes 1.32 → 1.33",
      "release 1.32.9-20251001 → 1.33.5-20251101",
    ]);
    expect(gp.budgets.maxSurge).toBe(6);
    expect(gp.schedule.waves.map((w) => w.nodes.length)).toEqual([2, 2, 2]);
    expect(gp.configChanges).toEqual([
      { field: "updateConfig.maxUnavailable", from: "1", to: "2" },
    ]);
  });

  it("surges by maxUnavailable when it is larger than twice the zones (EKS user guide)", () => {
    const five = ["a", "b", "c", "d", "e"].map((z) => `eu-west-1${z}`);
    const g = managed("system", instances("m", 40, five, 3), {
      updateConfig: { maxUnavailable: 20 },
    });
    const p = policy(
      'groups: [{ name: system, target: { kubernetesVersion: "1.33" }, rollingUpdate: { maxUnavailable: 20 } }]\n',
    );
    expect(buildPlan(p, "p.yaml", snapshot([g])).groups[0]!.budgets.maxSurge).toBe(20);
    const one = policy(
      'groups: [{ name: system, target: { kubernetesVersion: "1.33" }, rollingUpdate: { maxUnavailable: 1 } }]\n',
    );
    expect(buildPlan(one, "p.yaml", snapshot([g])).groups[0]!.budgets.maxSurge).toBe(10);
  });

  it("keeps the live updateConfig when the policy sets no maxUnavailable (no silent slowdown)", () => {
    const g = managed("big", instances("b", 100, zones, 3), {
      updateConfig: { maxUnavailablePercentage: 10 },
    });
    const target = '{ kubernetesVersion: "1.33" }';
    const kept = buildPlan(
      policy(`groups: [{ name: big, target: ${target} }]\n`),
      "p.yaml",
      snapshot([g]),
    ).groups[0]!;
    expect(kept.configChanges).toEqual([]);
    expect(kept.updateConfig).toBeUndefined();
    expect(kept.budgets.maxUnavailable).toBe(10);
    expect(kept.budgets.derivation.maxUnavailable).toBe(
      "the node group's live updateConfig, kept (the policy sets none): 10% of 100 nodes, rounded down = 10",
    );
    // Written as the same 10 %, the plan is the same roll; written as 1, it is ten times slower
    // and says so: a config change, and the estimate.
    const same = buildPlan(
      policy(
        `groups: [{ name: big, target: ${target}, rollingUpdate: { maxUnavailable: "10%" } }]\n`,
      ),
      "p.yaml",
      snapshot([g]),
    ).groups[0]!;
    expect(same.schedule.estimatedMs).toBe(kept.schedule.estimatedMs);
    const one = buildPlan(
      policy(`groups: [{ name: big, target: ${target}, rollingUpdate: { maxUnavailable: 1 } }]\n`),
      "p.yaml",
      snapshot([g]),
    ).groups[0]!;
    expect(one.configChanges).toEqual([
      { field: "updateConfig.maxUnavailable", from: "10%", to: "1" },
    ]);
    expect(one.schedule.estimatedMs).toBeGreaterThan(5 * kept.schedule.estimatedMs);
  });

  it("errors on settings EKS cannot honour, written on the group", () => {
    const g = managed("system", instances("m", 3, zones, 3));
    const gp = buildPlan(
      policy("groups: [{ name: system, rollingUpdate: { maxSurge: 2 } }]\n"),
      "p.yaml",
      snapshot([g]),
    ).groups[0]!;
    expect(gp.status).toBe("error");
    expect(gp.errors[0]).toMatch(/^rollingUpdate\.maxSurge: EKS does not take maxSurge/);
  });

  it("changes only updateConfig when the versions already match", () => {
    const g = managed("system", instances("m", 3, zones, 3), {
      version: "1.33",
      releaseVersion: "1.33.5-20251101",
    });
    const p = policy(
      'groups: [{ name: system, target: { kubernetesVersion: "1.33", releaseVersion: latest }, rollingUpdate: { maxUnavailable: "50%" } }]\n',
    );
    const plan = buildPlan(p, "p.yaml", snapshot([g]));
    expect(plan.groups[0]!.status).toBe("config-only");
    expect(summaryLine(plan.summary)).toBe(
      "Plan: 0 groups to roll (0 nodes), 1 config change, 0 blocked.",
    );
  });
});

describe("whole plans", () => {
  it("rolls groups in policy order and reports a missing group with a suggestion", () => {
    const a = selfManaged("ingress-a", instances("a", 2, zones, 1), { latest: 2 });
    const b = selfManaged("batch", instances("b", 2, zones, 1), { latest: 2 });
    const p = policy(
      "order: [ingress-*, batch]\ngroups: [{ name: batch }, { name: ingress-a }, { name: ingres-b }]\n",
    );
    const plan = buildPlan(p, "p.yaml", snapshot([a, b]));
    expect(plan.groups.map((g) => g.name)).toEqual(["ingress-a", "batch", "ingres-b"]);
    expect(plan.groups[2]!.errors).toEqual([
      'cluster prod has no EKS managed node group or Auto Scaling group named "ingres-b"; did you mean "ingress-a"? It has: batch, ingress-a',
    ]);
    expect(summaryLine(plan.summary)).toBe(
      "Plan: 2 groups to roll (4 nodes), 0 config changes, 0 blocked, 1 error.",
    );
  });

  it("plans only the groups asked for", () => {
    const a = selfManaged("a", instances("a", 2, zones, 1), { latest: 2 });
    const b = selfManaged("b", instances("b", 2, zones, 1), { latest: 2 });
    const plan = buildPlan(
      policy("groups: [{ name: a }, { name: b }]\n"),
      "p.yaml",
      snapshot([a, b]),
      { groups: ["b"] },
    );
    expect(plan.groups.map((g) => g.name)).toEqual(["b"]);
  });
});

describe("a managed group's launch template moved without a release", () => {
  const g = managed("apps", instances("m", 3, zones, 3), {
    launchTemplate: { id: "lt-apps", configured: "3", resolved: 3, latest: 4, default: 1 },
  });
  const notes = (target: string) =>
    buildPlan(policy(`groups: [{ name: apps, target: ${target} }]\n`), "p.yaml", snapshot([g]))
      .groups[0]!.notes;

  it("says EKS also moves the AMI to its latest release", () => {
    expect(notes("{ launchTemplateVersion: 4 }")).toContainEqual(
      expect.stringMatching(
        /^no release is named with the launch template version: EKS also moves the nodes to its latest AMI release for 1\.32/,
      ),
    );
  });

  it("says nothing of it when the release is named", () => {
    expect(
      notes('{ launchTemplateVersion: 4, releaseVersion: "1.32.9-20251001" }').join("\n"),
    ).not.toMatch(/latest AMI release/);
  });
});
