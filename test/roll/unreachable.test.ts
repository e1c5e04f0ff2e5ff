// Rolling a group with a node whose kubelet stopped reporting (faults.nodesUnreachable): the
// plan puts it first and says so, validation does not stop on it, and its drain leaves the pods
// no kubelet will confirm gone once their deletion is 5 minutes past due — without
// deleteAfterDrainTimeout, every
// invariant checked after every event. A node that goes dark in the middle of its drain is let
// go the same way; a reachable node's held pods still stop the group.
import { describe, expect, it } from "vitest";
import { UNREACHABLE_WAIT_MS } from "../../src/plan/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

const policy = (budgets = "maxSurge: 1, maxUnavailable: 0") =>
  policyFor(`groups: [{ name: w, rollingUpdate: { ${budgets}, postDrainDelay: 0s } }]\n`);

/** Four nodes, a Deployment on each with a budget; `lost` nodes go dark `at` seconds in. */
function world(extra: Partial<ScenarioInput> = {}, lost?: { at: number; count?: number }): World {
  return selfManagedWorld([{ name: "w", nodes: 4 }], {
    workloads: [
      { kind: "Deployment", name: "web", replicas: 4, pdb: { minAvailable: 2 } },
      { kind: "DaemonSet", name: "agent" },
    ],
    ...(lost && { faults: { nodesUnreachable: [{ group: "w", ...lost }] } }),
    ...extra,
  } as Partial<ScenarioInput>);
}

/** The node the fault took, once it struck. */
const lostNode = (w: World) => w.timeline.of("node.unreachable")[0]?.node as string;

describe("a group with a node dark for twenty minutes", () => {
  it("is planned with the node first and a warning, not blocked by its Terminating pods", async () => {
    const w = world({}, { at: 0 });
    await w.advance(20 * 60_000);
    const r = await roll(w, policy());
    const g = r.plan.groups[0]!;
    expect(g.status).toBe("roll");
    expect(g.replacements.find((x) => x.node === lostNode(w))?.down).toBe("unreachable");
    expect(g.schedule.waves[0]?.nodes[0]).toBe(lostNode(w));
    const finding = g.findings.find((f) => f.code === "unreachable-nodes");
    expect(finding).toMatchObject({ severity: "warning", objects: [lostNode(w)] });
    expect(finding?.message).toMatch(/left behind at once: default\/web-/);
    expect(g.findings.filter((f) => f.severity === "blocker")).toEqual([]);
    // Its wave is estimated at a boot and a few seconds of drain, not at the drain timeout.
    expect(g.schedule.waves[0]!.durationMs).toBeLessThan(5 * 60_000);
  });

  it("rolls without deleteAfterDrainTimeout: the dark node's pods are left behind, every invariant holds", async () => {
    const w = world({}, { at: 0 });
    await w.advance(20 * 60_000);
    const dark = lostNode(w);
    const held = [...w.kube.nodes.get(dark)!.pods].filter((p) => p.deletionAt !== undefined);
    expect(held.length).toBeGreaterThan(0);
    const r = await roll(w, policy());
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    const drains = ofType(r.events, "node.drain.end");
    const first = drains.find((d) => d.node === dark);
    // Left behind at once, not evicted, not waited for: the drain ends as it starts.
    expect(first?.leftBehind?.sort()).toEqual(held.map((p) => `default/${p.name}`).sort());
    const start = ofType(r.events, "node.drain.start").find((d) => d.node === dark)!;
    expect(Date.parse(first!.t) - Date.parse(start.t)).toBeLessThan(10_000);
    // The other drains leave nothing behind; no validation failed on the dark node.
    for (const d of drains) if (d.node !== dark) expect(d.leftBehind).toBeUndefined();
    for (const v of ofType(r.events, "validation")) expect(v.failures.join()).not.toContain(dark);
    // Replaced: once the terminated nodes' objects go, every node of the group is new and Ready.
    await w.advance(10 * 60_000);
    const nodes = w.nodes("w").filter((n) => !n.deleted);
    expect(nodes).toHaveLength(4);
    expect(nodes.every((n) => n.ready && !n.unreachable)).toBe(true);
  });
});

describe("more nodes dark than the budgets leave room for", () => {
  it.each([
    { dark: 2, budgets: "maxSurge: 0, maxUnavailable: 1" },
    { dark: 2, budgets: "maxSurge: 1, maxUnavailable: 0" },
    { dark: 3, budgets: "maxSurge: 0, maxUnavailable: 2" },
  ])(
    "$dark dark with $budgets: the dark ones start first at no cost, the roll completes",
    async (c) => {
      const w = selfManagedWorld([{ name: "w", nodes: 5 }], {
        workloads: [{ kind: "Deployment", name: "web", replicas: 5 }],
        faults: { nodesUnreachable: [{ group: "w", count: c.dark, at: 0 }] },
      } as Partial<ScenarioInput>);
      await w.advance(20 * 60_000);
      const r = await roll(w, policy(c.budgets));
      expect(r.invariants.violations).toEqual([]);
      expect(r.result.result).toBe("success");
      expect(ofType(r.events, "instance.terminate")).toHaveLength(5);
    },
  );
});

describe("a dark node whose pods have a grace period longer than the drain timeout", () => {
  // The node goes dark ten seconds in, after the plan: it goes to the head of the queue.
  it("waits for them until 5 minutes past their due time, past the timeout, and goes on", async () => {
    const w = world(
      {
        workloads: [{ kind: "StatefulSet", name: "db", replicas: 4, terminationGracePeriod: 900 }],
      },
      { at: 10 },
    );
    let started = 0;
    const r = await roll(w, policy("maxSurge: 0, maxUnavailable: 1"), {}, undefined, (e) => {
      if (e.type === "node.drain.start" && e.node === lostNode(w)) started = Date.parse(e.t);
    });
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    const end = ofType(r.events, "node.drain.end").find((d) => d.node === lostNode(w))!;
    expect(end.leftBehind).toContain("default/db-0");
    expect(Date.parse(end.t) - started).toBeGreaterThan(900_000 + UNREACHABLE_WAIT_MS - 60_000);
  });
});

describe("a zone where most nodes are dark at once", () => {
  it("is an outage, not dead nodes: the group is blocked unless deleteAfterDrainTimeout, which says what it does", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 4, zones: 1 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 4 }],
      faults: { nodesUnreachable: [{ group: "w", count: 3, at: 0 }] },
    } as Partial<ScenarioInput>);
    await w.advance(20 * 60_000);
    const r = await roll(w, policy());
    const g = r.plan.groups[0]!;
    expect(g.status).toBe("blocked");
    const f = g.findings.find((x) => x.code === "zone-disrupted");
    expect(f?.severity).toBe("blocker");
    expect(f?.message).toMatch(/eu-west-1a \(3 of 4 nodes not Ready\)/);
    expect(f?.objects).toHaveLength(3);
    expect(r.result.result).toBe("failure");
    expect(ofType(r.events, "instance.terminate")).toEqual([]);
    const forced = await w.run(
      observeAndPlan(policy(), "policy.yaml", w, { deleteAfterDrainTimeout: true }),
    );
    const ff = forced.plan.groups[0]!.findings.find((x) => x.code === "zone-disrupted");
    expect(ff?.severity).toBe("warning");
    expect(ff?.message).toMatch(
      /^with deleteAfterDrainTimeout: those nodes are replaced all the same/,
    );
  });

  it("two dark nodes of five in a zone are not an outage", async () => {
    const w = selfManagedWorld([{ name: "w", nodes: 5, zones: 1 }], {
      faults: { nodesUnreachable: [{ group: "w", count: 2, at: 0 }] },
    } as Partial<ScenarioInput>);
    await w.advance(20 * 60_000);
    const { plan } = await w.run(observeAndPlan(policy(), "policy.yaml", w));
    expect(plan.groups[0]!.findings.map((x) => x.code)).not.toContain("zone-disrupted");
  });
});

describe("a node that goes dark while it drains", () => {
  it("has its evicted pods waited for until 5 minutes past their due time, then left", async () => {
    const w = world();
    let dark = "";
    const r = await roll(w, policy("maxSurge: 0, maxUnavailable: 1"), {}, undefined, (e) => {
      if (e.type !== "node.drain.start" || dark) return;
      dark = e.node;
      w.kube.loseKubelet(w.kube.nodes.get(dark)!);
    });
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("success");
    const start = ofType(r.events, "node.drain.start").find((d) => d.node === dark)!;
    const end = ofType(r.events, "node.drain.end").find((d) => d.node === dark)!;
    expect(end.leftBehind?.length).toBeGreaterThan(0);
    expect(end.leftBehind!.every((p) => p.startsWith("default/web-"))).toBe(true);
    // Grace (30 s) + 5 minutes, give or take the eviction's few seconds.
    const took = Date.parse(end.t) - Date.parse(start.t);
    expect(took).toBeGreaterThan(30_000 + UNREACHABLE_WAIT_MS);
    expect(took).toBeLessThan(30_000 + UNREACHABLE_WAIT_MS + 20_000);
  });
});

describe("an EKS managed node group with a node gone dark", () => {
  it("is still blocked by the pods held there: EKS's own update drains, not noderoll's", async () => {
    const w = World.from(
      managedScenario({
        nodes: 3,
        workloads: [{ kind: "Deployment", name: "web", replicas: 3 }],
        extra: { faults: { nodesUnreachable: [{ group: "ng", at: 0 }] } },
      }),
    );
    await w.advance(20 * 60_000);
    const managed = policyFor(
      'groups: [{ name: ng, target: { kubernetesVersion: "1.33" } }]\n',
      "test",
    );
    const { plan } = await w.run(observeAndPlan(managed, "policy.yaml", w));
    const g = plan.groups[0]!;
    expect(g.replacements.find((r) => r.down === "unreachable")).toBeDefined();
    expect(g.status).toBe("blocked");
    expect(g.findings.map((f) => f.code)).toContain("stuck-terminating");
    expect(g.findings.map((f) => f.code)).not.toContain("unreachable-nodes");
  });
});

describe("a reachable node with a pod held past its deletion", () => {
  it("still stops the group: only an unreachable node's pods are left behind", async () => {
    const w = world({
      workloads: [{ kind: "Deployment", name: "sticky", replicas: 1, stuckTerminating: true }],
    });
    const [pod] = [...w.workload("sticky").pods];
    w.kube.deletePod(pod!);
    await w.advance(20 * 60_000);
    const r = await roll(w, policy());
    const g = r.plan.groups[0]!;
    expect(g.status).toBe("blocked");
    expect(g.findings.map((f) => f.code)).toContain("stuck-terminating");
    expect(g.findings.map((f) => f.code)).not.toContain("unreachable-nodes");
    expect(r.result.result).toBe("failure");
  });
});
