// An outside check: kubectl's drain tests (kubernetes/kubectl pkg/cmd/drain/drain_test.go,
// TestDrain's table, and pkg/drain/drain_test.go), each translated into a sandbox case named
// after the kubectl test (and table row) it translates. kubectl's tests drive a fake API server;
// here noderoll's drain (src/roll/drain.ts) runs against a sandbox world and its observable
// behaviour is asserted: what it evicts, what it leaves, when it fails and how long it waits.
//
// noderoll drains as kOps does, and kOps drains with kubectl's helper set to Force: true,
// IgnoreAllDaemonSets: true, DeleteEmptyDirData: true (kOps pkg/instancegroups/instancegroups.go,
// drainNode). So the rows that need --force, --ignore-daemonsets or --delete-emptydir-data
// translate to noderoll's defaults; --force's absence is the policy's `unmanagedPods: refuse`
// (docs/policy.md, roll-settings table: "`refuse` is kubectl drain without it").
import { describe, expect, it } from "vitest";
import type { Pod, RollEvent } from "../../src/ports/index.js";
import { isAbort, RollError, type RollContext } from "../../src/roll/context.js";
import { podUid } from "../../src/sandbox/model/records.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { plainScenario } from "../sandbox/helpers.js";
import {
  cordonAndDrain,
  drainWorld,
  nodeOf,
  withMethod,
  type Workloads,
} from "../roll/drain-harness.js";

/** A world as kubectl's tests start from: workloads on `nodes` nodes. */
const setup = (workloads: Workloads, nodes = 3, extra: Partial<ScenarioInput> = {}) =>
  drainWorld(workloads, extra, nodes);

/** Cordon, then drain; `force` is kubectl's --force (the policy's unmanagedPods: evict). */
const drain = (
  world: World,
  ctx: RollContext,
  node: string,
  o: { timeoutMs?: number; force?: boolean; deleteAfterDrainTimeout?: boolean } = {},
) =>
  cordonAndDrain(world, ctx, node, {
    ...(o.timeoutMs !== undefined && { timeoutMs: o.timeoutMs }),
    ...(o.deleteAfterDrainTimeout !== undefined && {
      deleteAfterDrainTimeout: o.deleteAfterDrainTimeout,
    }),
    ...(o.force !== undefined && { evictUnmanaged: o.force }),
  });

/** The cluster, its pod lists showing `change` made to the pods `which` picks (what the sandbox
 * does not model: mirror pods, emptyDir volumes). */
function podsSeenAs(
  cluster: RollContext["cluster"],
  which: (p: Pod) => boolean,
  change: (p: Pod) => Pod,
): RollContext["cluster"] {
  return withMethod(cluster, "listPods", async (ns, opts) => {
    const r = await cluster.listPods(ns, opts);
    return { ...r, items: r.items.map((p) => (which(p) ? change(p) : p)) };
  });
}

const calls = (world: World, call: string) => world.calls.get(call) ?? 0;
const ofType = <T extends RollEvent["type"]>(events: RollEvent[], type: T) =>
  events.filter((e): e is Extract<RollEvent, { type: T }> => e.type === type);
const live = (world: World, workload: string) =>
  [...world.workload(workload).pods].filter((p) => !p.gone);

describe("kubectl pkg/cmd/drain TestDrain, row by row", () => {
  for (const kind of ["Deployment", "StatefulSet"] as const)
    it(`TestDrain "RS-managed pod" / "RC-managed pod" → a ${kind}'s pod is evicted once, and the drain ends`, async () => {
      const { world, ctx, events } = setup([{ kind, name: "app", replicas: 1 }]);
      const node = nodeOf(world, "app");
      const r = await drain(world, ctx, node);
      expect(r).toMatchObject({ evicted: 1, deleted: [] });
      expect(calls(world, "policy.evictPod")).toBe(1);
      expect(calls(world, "core.deletePod")).toBe(0);
      expect(world.kube.nodes.get(node)!.unschedulable).toBe(true);
      expect(ofType(events, "node.drain.end")).toMatchObject([{ node, evicted: 1 }]);
      expect(live(world, "app").filter((p) => p.nodeName === node)).toEqual([]);
    });

  it('TestDrain "DS-managed pod with --ignore-daemonsets" → a DaemonSet\'s pod stays and the drain succeeds (kOps: IgnoreAllDaemonSets)', async () => {
    // kubectl without --ignore-daemonsets refuses ("DS-managed pod": fatal); kOps sets it, and so
    // noderoll always leaves DaemonSet pods.
    const { world, ctx } = setup([
      { kind: "DaemonSet", name: "agent", tolerations: [{ operator: "Exists" }] },
      { kind: "Deployment", name: "app", replicas: 1 },
    ]);
    const node = nodeOf(world, "app");
    const ds = live(world, "agent").find((p) => p.nodeName === node)!;
    const r = await drain(world, ctx, node);
    expect(r).toMatchObject({ evicted: 1 });
    expect(calls(world, "policy.evictPod")).toBe(1);
    expect(ds.gone).toBe(false);
    expect(ds.deletionAt).toBeUndefined();
  });

  it('TestDrain "DS-managed terminated pod" → left on its node, on purpose: the node\'s termination takes it', async () => {
    // kubectl's daemonSetFilter lets a Succeeded or Failed DaemonSet pod go ("any finished pod
    // can be removed"). noderoll's drainLeaves (src/plan/snapshot.ts) keeps every pod a
    // DaemonSet controls, whatever its phase — a deliberate difference docs/rolling.md lists: the pod
    // runs nothing, holds no drain up, and goes with its node.
    const { world, ctx } = setup([
      { kind: "DaemonSet", name: "agent", tolerations: [{ operator: "Exists" }] },
    ]);
    const node = [...world.kube.nodes.keys()].sort()[0]!;
    const ds = live(world, "agent").find((p) => p.nodeName === node)!;
    ds.phase = "Succeeded";
    const r = await drain(world, ctx, node);
    expect(r).toMatchObject({ evicted: 0 });
    expect(calls(world, "policy.evictPod")).toBe(0);
    expect(ds.deletionAt).toBeUndefined();
  });

  it('TestDrain "naked pod" / "orphaned DS-managed pod" (no --force) → refused, nothing evicted: unmanagedPods: refuse', async () => {
    const { world, ctx } = setup([{ kind: "Pod", name: "bar" }]);
    const node = nodeOf(world, "bar");
    const r = await drain(world, ctx, node, { force: false });
    expect(r).toBeInstanceOf(RollError);
    expect((r as RollError).code).toBe("PodEvictionFailure");
    expect((r as RollError).message).toMatch(/default\/bar has no controller/);
    expect(calls(world, "policy.evictPod")).toBe(0);
    expect(calls(world, "core.deletePod")).toBe(0);
    expect(live(world, "bar")).toHaveLength(1);
  });

  it('TestDrain "naked pod with --force" / "orphaned DS-managed pod with --force" → evicted, the drain ends (unmanagedPods: evict, the default)', async () => {
    const { world, ctx } = setup([{ kind: "Pod", name: "bar" }]);
    const node = nodeOf(world, "bar");
    const r = await drain(world, ctx, node);
    expect(r).toMatchObject({ evicted: 1 });
    expect(calls(world, "policy.evictPod")).toBe(1);
    expect(live(world, "bar")).toEqual([]);
  });

  it('TestDrain "pod with EmptyDir" → evicted (kOps drains with DeleteEmptyDirData: true; kubectl without --delete-emptydir-data refuses)', async () => {
    // Difference from plain kubectl, by way of kOps: noderoll has no emptyDir refusal at all.
    const { world, ctx } = setup([{ kind: "Deployment", name: "scratchy", replicas: 1 }]);
    ctx.cluster = podsSeenAs(
      ctx.cluster,
      (p) => p.metadata.name.startsWith("scratchy-"),
      (p) => ({
        ...p,
        spec: {
          ...p.spec,
          volumes: [...(p.spec.volumes ?? []), { name: "scratch", emptyDir: {} } as never],
        },
      }),
    );
    const node = nodeOf(world, "scratchy");
    const r = await drain(world, ctx, node);
    expect(r).toMatchObject({ evicted: 1 });
    expect(calls(world, "policy.evictPod")).toBe(1);
  });

  it('TestDrain "terminated pod with emptyDir" / "Job-managed terminated pod" → a finished pod goes even without --force', async () => {
    const { world, ctx } = setup([{ kind: "Pod", name: "done" }]);
    const [rec] = [...world.workload("done").pods];
    rec!.phase = "Failed";
    const r = await drain(world, ctx, rec!.nodeName as string, { force: false });
    expect(r).toMatchObject({ evicted: 1 });
  });

  it('TestDrain "empty node" → drained with no eviction asked', async () => {
    const { world, ctx, events } = setup([{ kind: "Deployment", name: "app", replicas: 1 }], 3);
    const busy = nodeOf(world, "app");
    const empty = [...world.kube.nodes.keys()].find(
      (n) => n !== busy && ![...world.kube.pods.values()].some((p) => p.nodeName === n && !p.gone),
    )!;
    const r = await drain(world, ctx, empty);
    expect(r).toMatchObject({ evicted: 0, deleted: [] });
    expect(calls(world, "policy.evictPod")).toBe(0);
    expect(ofType(events, "node.drain.end")).toMatchObject([{ node: empty, evicted: 0 }]);
  });

  it('TestDrain "fail to list pods" (failUponEvictionOrDeletion) → an eviction request that fails fails the drain, and the pod stays', async () => {
    const { world, ctx } = setup([{ kind: "Deployment", name: "app", replicas: 1 }]);
    ctx.cluster = withMethod(ctx.cluster, "evictPod", async () => {
      throw new Error("request failed");
    });
    const node = nodeOf(world, "app");
    const r = await drain(world, ctx, node);
    expect(r).toBeInstanceOf(Error);
    expect((r as Error).message).toMatch(/request failed/);
    expect(live(world, "app").filter((p) => p.nodeName === node)).toHaveLength(1);
  });
});

describe("kubectl pkg/drain drain_test.go", () => {
  it('TestDeletePods "Wait for deleting to complete" → the drain ends only once the evicted pods are gone', async () => {
    const { world, ctx, events } = setup([
      { kind: "Deployment", name: "slow", replicas: 2, preStop: 20, terminationGracePeriod: 60 },
    ]);
    const node = nodeOf(world, "slow");
    const start = world.clock.nowMs();
    const r = await drain(world, ctx, node);
    expect(r).toMatchObject({ evicted: expect.any(Number) });
    const end = ofType(events, "node.drain.end")[0]!;
    expect(Date.parse(end.t) - start).toBeGreaterThanOrEqual(20_000);
    expect(
      [...world.kube.pods.values()].filter(
        (p) => p.nodeName === node && !p.gone && p.workload?.kind !== "DaemonSet",
      ),
    ).toEqual([]);
  });

  it('TestDeletePods "Pod found with same name but different UID" → a pod recreated under the same name counts as gone', async () => {
    // A StatefulSet pod pinned to the node and tolerating the cordon comes back there under its
    // own name; the drain waits for the UID it evicted, not for the name.
    const probe = World.from(plainScenario([], 3));
    const node = [...probe.kube.nodes.keys()].sort()[0]!;
    const { world, ctx } = setup([
      {
        kind: "StatefulSet",
        name: "db",
        replicas: 1,
        tolerations: [{ operator: "Exists" }],
        nodeSelector: { "kubernetes.io/hostname": node },
      },
    ]);
    const before = [...world.workload("db").pods][0]!;
    const r = await drain(world, ctx, node, { timeoutMs: 300_000 });
    expect(r).toMatchObject({ evicted: 1 });
    await world.advance(1000);
    const after = live(world, "db")[0]!;
    expect(after.name).toBe(before.name);
    expect(podUid(after)).not.toBe(podUid(before));
    expect(world.clock.nowMs() - Date.parse(world.scenario.start)).toBeLessThan(200_000);
  });

  it('TestDeletePods "Deleting could timeout" → pods that never go fail the drain at its timeout, naming them', async () => {
    const { world, ctx } = setup([{ kind: "Deployment", name: "stuck", replicas: 1 }], 3, {
      faults: { stuckTerminating: ["stuck"] },
    } as Partial<ScenarioInput>);
    const node = nodeOf(world, "stuck");
    const start = world.clock.nowMs();
    const r = await drain(world, ctx, node, { timeoutMs: 60_000 });
    expect(r).toBeInstanceOf(RollError);
    expect((r as RollError).code).toBe("PodEvictionFailure");
    expect((r as RollError).message).toMatch(/did not terminate in time: default\/stuck-/);
    const took = world.clock.nowMs() - start;
    expect(took).toBeGreaterThanOrEqual(60_000);
    expect(took).toBeLessThanOrEqual(61_000);
  });

  it('TestDeletePods "Context Canceled" → a cancelled drain stops at once, not at its timeout', async () => {
    const { world, ctx, abort } = setup([
      { kind: "Deployment", name: "held", replicas: 1, pdb: { minAvailable: 1 } },
    ]);
    const node = nodeOf(world, "held");
    const start = world.clock.nowMs();
    world.clock.after(5_000, () => abort.abort());
    const r = await drain(world, ctx, node, { timeoutMs: 600_000 });
    expect(isAbort(r)).toBe(true);
    expect(world.clock.nowMs() - start).toBeLessThan(10_000);
  });

  it('TestDeleteOrEvict "eviction supported/enabled" → the pods to move are evicted through the eviction API, not deleted; other nodes\' pods stay', async () => {
    const { world, ctx } = setup([{ kind: "Deployment", name: "app", replicas: 4 }], 2);
    const node = nodeOf(world, "app");
    const elsewhere = live(world, "app").filter((p) => p.nodeName !== node);
    const here = live(world, "app").filter((p) => p.nodeName === node).length;
    const r = await drain(world, ctx, node);
    expect(r).toMatchObject({ evicted: here });
    expect(calls(world, "policy.evictPod")).toBe(here);
    expect(calls(world, "core.deletePod")).toBe(0);
    expect(elsewhere.every((p) => !p.gone && p.deletionAt === undefined)).toBe(true);
  });

  it('TestEvictDuringNamespaceTerminating "Pod refreshed after NamespaceTerminating error" → a 403 for a namespace being deleted is waited out until the pod is gone', async () => {
    const { world, ctx } = setup([{ kind: "Pod", name: "test-pod" }]);
    const rec = [...world.workload("test-pod").pods][0]!;
    let refusals = 0;
    ctx.cluster = withMethod(ctx.cluster, "evictPod", async () => {
      // Once the pod is gone the API server answers 404, as it would.
      if (rec.gone) return { status: 404, message: 'pods "test-pod" not found' };
      refusals++;
      // The namespace's deletion takes the pod with it, after the first refusal.
      if (refusals === 1) world.kube.deletePod(rec);
      return {
        status: 403,
        message: "namespace default is terminating",
        namespaceTerminating: true,
      };
    });
    const r = await drain(world, ctx, rec.nodeName as string, { timeoutMs: 120_000 });
    expect(r, String(r)).not.toBeInstanceOf(Error);
    expect(refusals).toBeGreaterThanOrEqual(1);
    expect(rec.gone).toBe(true);
  });

  it('TestEvictDuringNamespaceTerminating "Pod not refreshed" → still there at the timeout: the drain fails then', async () => {
    const { world, ctx } = setup([{ kind: "Pod", name: "test-pod" }]);
    const rec = [...world.workload("test-pod").pods][0]!;
    ctx.cluster = withMethod(ctx.cluster, "evictPod", async () => ({
      status: 403 as const,
      message: "namespace default is terminating",
      namespaceTerminating: true as const,
    }));
    const start = world.clock.nowMs();
    const r = await drain(world, ctx, rec.nodeName as string, { timeoutMs: 60_000 });
    expect(r).toBeInstanceOf(RollError);
    expect((r as RollError).message).toMatch(/default\/test-pod/);
    expect(world.clock.nowMs() - start).toBeGreaterThanOrEqual(55_000);
    expect(rec.gone).toBe(false);
  });

  it("kubectl evictPods: a Forbidden eviction for any other reason fails the drain at once", async () => {
    const { world, ctx } = setup([{ kind: "Pod", name: "test-pod" }]);
    const rec = [...world.workload("test-pod").pods][0]!;
    let asked = 0;
    ctx.cluster = withMethod(ctx.cluster, "evictPod", async () => {
      asked++;
      return { status: 403 as const, message: "pods/eviction is forbidden" };
    });
    const start = world.clock.nowMs();
    const r = await drain(world, ctx, rec.nodeName as string, { timeoutMs: 600_000 });
    expect(r).toBeInstanceOf(RollError);
    expect((r as RollError).message).toMatch(/403 Forbidden: pods\/eviction is forbidden/);
    expect(asked).toBe(1);
    expect(world.clock.nowMs() - start).toBeLessThan(10_000);
  });
});
