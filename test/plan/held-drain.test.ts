// A forced roll's estimate counts the drain timeout it will wait (issue 48, item 4): with
// deleteAfterDrainTimeout, a drain whose pods cannot leave — a PodDisruptionBudget that never
// allows one — waits its whole timeout before deleting them, and the plan's estimate says so for
// the wave that drains such a node, the waves themselves as they were. What holds a drain is the
// kind's: EKS waits its 15 minutes for whatever keeps a pod on the node (several budgets on one
// pod, a pod that comes back to the cordoned node), where a self-managed group's drain deletes
// the first at once and never waits for the second.
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/engine/index.js";
import type { GroupPlan, LiveGroup, PdbInfo, PodInfo } from "../../src/plan/index.js";
import {
  instances,
  managed,
  nodesFor,
  pdb,
  pod,
  policy,
  selfManaged,
  snapshot,
} from "./fixtures.js";

const zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];
const FIFTEEN_MIN = 900_000;
const TEN_MIN = 600_000;

const workers = selfManaged("workers", instances("w", 6, zones, 1), { latest: 2 });
const system = managed("system", instances("s", 4, zones, 1));
const SYSTEM = "groups: [{ name: system, target: { kubernetesVersion: '1.33' } }]\n";

/** Three web pods, one on each of the group's first three nodes. */
const web = (g: LiveGroup, extra: Partial<PodInfo> = {}) =>
  [0, 1, 2].map((i) => pod(`web-${i}`, nodesFor(g)[i]!.name, extra));
/** web's budget: minAvailable 3 of its 3 pods never allows; 2 of 3 does, one at a time. */
const budget = (minAvailable: number): PdbInfo =>
  pdb("web", "web", {
    minAvailable,
    expectedPods: 3,
    currentHealthy: 3,
    desiredHealthy: minAvailable,
    disruptionsAllowed: 3 - minAvailable,
  });

function plan(
  g: LiveGroup,
  pods: PodInfo[],
  pdbs: PdbInfo[],
  body = `groups: [{ name: ${g.name}, rollingUpdate: { drainTimeout: 10m } }]\n`,
): GroupPlan {
  const forced = { deleteAfterDrainTimeout: true };
  return buildPlan(policy(body), "p.yaml", snapshot([g], { pods, pdbs }), forced).groups[0]!;
}

const held = (p: GroupPlan) => p.findings.filter((f) => f.severity === "warning");
const nodesOf = (p: GroupPlan) => p.schedule.waves.map((w) => w.nodes);
/** Each wave's duration less the same wave's in `than`. */
const longer = (p: GroupPlan, than: GroupPlan) =>
  p.schedule.waves.map((w, i) => w.durationMs - than.schedule.waves[i]!.durationMs);

describe("a forced roll's estimate and the drains it holds to their timeout", () => {
  it("counts the self-managed group's drainTimeout in each wave draining a node a budget that never allows pins", () => {
    const never = plan(workers, web(workers), [budget(3)]);
    const allows = plan(workers, web(workers), [budget(2)]);
    expect(never.status).toBe("roll");
    expect(held(never).map((f) => f.code)).toContain("pdb-blocks");
    // The same waves, in the same order.
    expect(nodesOf(never)).toEqual(nodesOf(allows));
    const pinned = new Set(web(workers).map((p) => p.nodeName));
    const waits = longer(never, allows);
    never.schedule.waves.forEach((w, i) => {
      if (w.nodes.some((n) => pinned.has(n))) {
        // The drain waits its timeout in place of the pods' 30 s grace.
        expect(w.durationMs, `wave ${i}`).toBeGreaterThanOrEqual(TEN_MIN);
        expect(waits[i], `wave ${i}`).toBeGreaterThanOrEqual(TEN_MIN - 60_000);
      } else expect(waits[i], `wave ${i}`).toBe(0);
    });
    expect(never.schedule.estimatedMs - allows.schedule.estimatedMs).toBeGreaterThanOrEqual(
      TEN_MIN,
    );
  });

  it("counts EKS's fixed 15 minutes for a managed group", () => {
    const body = SYSTEM;
    const never = plan(system, web(system), [budget(3)], body);
    const allows = plan(system, web(system), [budget(2)], body);
    expect(nodesOf(never)).toEqual(nodesOf(allows));
    expect(never.schedule.estimatedMs - allows.schedule.estimatedMs).toBeGreaterThanOrEqual(
      3 * (FIFTEEN_MIN - 60_000),
    );
  });

  it("holds EKS's drain for pods several budgets select and pods that return to the cordoned node, not a self-managed group's", () => {
    const body = (g: LiveGroup) => (g === system ? SYSTEM : "groups: [{ name: workers }]\n");
    const several = [budget(2), { ...budget(2), name: "web-too" }];
    const everywhere = { tolerations: [{ operator: "Exists" as const }] };
    for (const [what, pods, pdbs] of [
      ["several budgets", (g: LiveGroup) => web(g), several],
      ["tolerates every taint", (g: LiveGroup) => web(g, everywhere), []],
    ] as const) {
      const eks = plan(system, pods(system), [...pdbs], body(system));
      const eksFree = plan(system, web(system), [], body(system));
      expect(held(eks).length, what).toBeGreaterThan(0);
      expect(eks.schedule.estimatedMs - eksFree.schedule.estimatedMs, what).toBeGreaterThanOrEqual(
        FIFTEEN_MIN,
      );
      const own = plan(workers, pods(workers), [...pdbs], body(workers));
      const ownFree = plan(workers, web(workers), [], body(workers));
      expect(held(own).length, what).toBeGreaterThan(0);
      expect(own.schedule.estimatedMs, what).toBe(ownFree.schedule.estimatedMs);
    }
  });

  it("changes nothing without deleteAfterDrainTimeout: the group is blocked", () => {
    const body = "groups: [{ name: workers, rollingUpdate: { drainTimeout: 10m } }]\n";
    const s = (pdbs: PdbInfo[]) => snapshot([workers], { pods: web(workers), pdbs });
    const never = buildPlan(policy(body), "p.yaml", s([budget(3)])).groups[0]!;
    const allows = buildPlan(policy(body), "p.yaml", s([budget(2)])).groups[0]!;
    expect(never.status).toBe("blocked");
    expect(never.schedule.estimatedMs).toBe(allows.schedule.estimatedMs);
  });
});
