// kubectl drain's semantics under a hostile API, drain by drain (src/roll/drain.ts): pods with
// no controller, pods recreated under the same name, pods several budgets select, budgets that
// ask to come back in 10 s, and API throttling told apart from a budget's refusal.
import { describe, expect, it } from "vitest";
import { KubeApiError, type RollEvent } from "../../src/ports/index.js";
import { eventLine } from "../../src/render/index.js";
import { RollError, type RollContext } from "../../src/roll/context.js";
import { drainNode } from "../../src/roll/drain.js";
import { cordon } from "../../src/roll/marks.js";
import { podUid } from "../../src/sandbox/model/records.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { plainScenario } from "../sandbox/helpers.js";
import { cordonAndDrain, drainWorld, nodeOf, withMethod, type Workloads } from "./drain-harness.js";

const setup = drainWorld;

/** Two pods under a budget that allows no disruption, and no watch on budgets (RBAC). */
function closedWithoutWatch() {
  const set = setup([{ kind: "Deployment", name: "web", replicas: 2, pdb: { minAvailable: 2 } }]);
  set.ctx.cluster = withMethod(set.world.cluster, "watchPodDisruptionBudgets", () => {
    throw new KubeApiError(403, "Forbidden", "cannot watch resource poddisruptionbudgets");
  });
  return set;
}

const drain = cordonAndDrain;

const ofType = <T extends RollEvent["type"]>(events: RollEvent[], type: T) =>
  events.filter((e): e is Extract<RollEvent, { type: T }> => e.type === type);

describe("drain, as kubectl drain does it", () => {
  it("refuses pods with no controller with unmanagedPods: refuse (nothing would bring them back), and evicts them by default", async () => {
    const bare: Workloads = [{ kind: "Pod", name: "lonely" }];
    const a = setup(bare);
    const node = nodeOf(a.world, "lonely");
    const refused = await drain(a.world, a.ctx, node, { evictUnmanaged: false });
    expect(refused).toBeInstanceOf(RollError);
    expect((refused as RollError).message).toMatch(
      /cannot drain .* \(the policy says unmanagedPods: refuse, as kubectl drain without --force\): default\/lonely has no controller, so nothing would recreate it elsewhere: delete it .*; or set unmanagedPods: evict$/,
    );
    expect(a.world.calls.get("policy.evictPod") ?? 0).toBe(0);
    // deleteAfterDrainTimeout is not what lets them go.
    const c = setup(bare);
    const still = await drain(c.world, c.ctx, nodeOf(c.world, "lonely"), {
      evictUnmanaged: false,
      deleteAfterDrainTimeout: true,
    });
    expect(still).toBeInstanceOf(RollError);
    expect(c.world.calls.get("policy.evictPod") ?? 0).toBe(0);
    const b = setup(bare);
    const evicted = await drain(b.world, b.ctx, nodeOf(b.world, "lonely"));
    expect(evicted).toMatchObject({ evicted: 1 });
  });

  it("with unmanagedPods: refuse, refuses a pod with no controller already being deleted too, and says to wait for it", async () => {
    const { world, ctx } = setup([{ kind: "Pod", name: "lonely" }]);
    const [rec] = [...world.workload("lonely").pods];
    // Held by a finalizer, so still there when the drain lists the node's pods.
    world.workload("lonely").stuckTerminating = true;
    world.kube.deletePod(rec!);
    const refused = await drain(world, ctx, rec!.nodeName as string, { evictUnmanaged: false });
    expect((refused as RollError).message).toMatch(
      /: default\/lonely has no controller and is already being deleted: wait until it is gone; or set unmanagedPods: evict$/,
    );
  });

  it("names pods with no controller apart by whether they are being deleted, in the grammar of one or of many", async () => {
    const bare: Workloads = ["a", "b", "c"].map((name) => ({ kind: "Pod", name }));
    const { world, ctx } = setup(bare, {}, 1);
    for (const name of ["a", "b"]) {
      world.workload(name).stuckTerminating = true;
      world.kube.deletePod([...world.workload(name).pods][0]!);
    }
    const refused = await drain(world, ctx, nodeOf(world, "c"), { evictUnmanaged: false });
    expect((refused as RollError).message).toMatch(
      /\): default\/c has no controller, so nothing would recreate it elsewhere: delete it or run it under a controller; default\/a, default\/b have no controller and are already being deleted: wait until they are gone; or set unmanagedPods: evict$/,
    );
  });

  it("lets a finished pod with no controller go, as kubectl drain does (it runs nowhere), even with unmanagedPods: refuse", async () => {
    for (const phase of ["Succeeded", "Failed"] as const) {
      const { world, ctx } = setup([{ kind: "Pod", name: "done" }]);
      const [rec] = [...world.workload("done").pods];
      rec!.phase = phase;
      const r = await drain(world, ctx, rec!.nodeName as string, { evictUnmanaged: false });
      expect(r, phase).toMatchObject({ evicted: 1 });
    }
  });

  it("waits for a pod by its UID: one recreated under the same name on the node does not stall it", async () => {
    // A StatefulSet pod that tolerates the cordon and is pinned to its node comes back there
    // under the same name; every watch stalls, so the drain sees it only by re-listing.
    const pinned = (node: string): Workloads => [
      {
        kind: "StatefulSet",
        name: "db",
        replicas: 1,
        tolerations: [{ operator: "Exists" }],
        nodeSelector: { "kubernetes.io/hostname": node },
      },
    ];
    const probe = World.from(plainScenario([], 3));
    const node = [...probe.kube.nodes.keys()].sort()[0]!;
    const { world, ctx } = setup(pinned(node), {
      faults: { watch: [{ stall: 1, within: 0 }] },
    } as Partial<ScenarioInput>);
    const before = [...world.workload("db").pods][0]!;
    const r = await drain(world, ctx, node, { timeoutMs: 300_000 });
    expect(r).toMatchObject({ evicted: 1 });
    await world.advance(1000);
    const after = [...world.workload("db").pods].find((p) => !p.gone)!;
    expect(after.name).toBe(before.name);
    expect(podUid(after)).not.toBe(podUid(before));
    expect(after.nodeName).toBe(node);
    // Well before the drain timeout: it did not wait for the new pod.
    expect(world.clock.nowMs() - Date.parse(world.scenario.start)).toBeLessThan(200_000);
  });

  it("fails at once, naming the budgets, when several PodDisruptionBudgets select a pod", async () => {
    const { world, ctx, events } = setup(
      [{ kind: "Deployment", name: "web", replicas: 2, pdb: { maxUnavailable: 1 } }],
      {
        pdbs: [{ name: "web-extra", selector: { matchLabels: { app: "web" } }, maxUnavailable: 1 }],
      },
    );
    const start = world.clock.nowMs();
    const e = await drain(world, ctx, nodeOf(world, "web"), { timeoutMs: 900_000 });
    expect(e).toBeInstanceOf(RollError);
    expect((e as RollError).code).toBe("PodEvictionFailure");
    expect((e as RollError).message).toMatch(
      /PodDisruptionBudgets default\/web, default\/web-extra all select it/,
    );
    expect((e as RollError).message).not.toMatch(/within \d+ min/);
    expect(world.clock.nowMs() - start).toBeLessThan(60_000);
    expect(ofType(events, "eviction.blocked")[0]?.pdb).toBe("default/web, default/web-extra");
    // The answer is final: the log does not say the eviction is retried.
    expect(ofType(events, "eviction.blocked").map((b) => b.final)).toEqual([true]);
    expect(eventLine(ofType(events, "eviction.blocked")[0]!)).toMatch(/; not retried$/);
  });

  for (const why of ["being deleted", "unready"] as const)
    it(`counts no disruption for a pod ${why}, so it holds no other pod of its budget back`, async () => {
      // One node, two pods of web; maxUnavailable 2: the budget allows one disruption while one
      // pod is being deleted (its replacement cannot be placed on the cordoned node) or unready
      // (let go without a disruption: AlwaysAllow).
      const pdb = { maxUnavailable: 2, unhealthyPodEvictionPolicy: "AlwaysAllow" as const };
      const web = { kind: "Deployment" as const, name: "web", replicas: 2, pdb };
      const slow = { preStop: 200, terminationGracePeriod: 300 };
      const { world, ctx, events } = setup([{ ...web, ...slow }], {}, 1);
      const node = nodeOf(world, "web");
      await world.run(cordon(ctx, node, "test"));
      const [first, staying] = [...world.workload("web").pods];
      if (why === "being deleted") await world.cluster.deletePod("default", first!.name);
      else {
        first!.ready = false;
        for (const b of first!.pdbs) b.dirty = true;
      }
      await world.advance(5_000);
      const start = world.clock.nowMs();
      const evicted: number[] = [];
      const cluster = withMethod(world.cluster, "evictPod", async (ns, name, opts) => {
        const r = await world.cluster.evictPod(ns, name, opts);
        if (name === staying!.name && r.status === 201) evicted.push(world.clock.nowMs() - start);
        return r;
      });
      await world.run(
        drainNode(
          { ...ctx, cluster },
          {
            group: "nodes",
            node,
            timeoutMs: 600_000,
            deleteAfterDrainTimeout: false,
            evictUnmanaged: true,
          },
        ),
      );
      // The first pod's eviction took no disruption: the other was evicted at once, not held
      // back until the cache's recheck a minute later.
      expect(ofType(events, "eviction.blocked")).toEqual([]);
      expect(evicted).toHaveLength(1);
      expect(evicted[0]).toBeLessThan(10_000);
    });

  it("waits on the budgets' watch instead of asking for evictions a budget is sure to refuse", async () => {
    const { world, ctx, events } = setup([
      { kind: "Deployment", name: "web", replicas: 2, pdb: { minAvailable: 2 } },
    ]);
    const e = await drain(world, ctx, nodeOf(world, "web"), { timeoutMs: 100_000 });
    expect((e as RollError).message).toMatch(/PodDisruptionBudget web allows no disruption/);
    // The budget shows disruptionsAllowed 0 all along: one ask after a minute (the pod may have
    // stopped being Ready meanwhile), not one every 10 s (about ten).
    expect(world.calls.get("policy.evictPod") ?? 0).toBeLessThanOrEqual(2);
    expect(world.calls.get("policy.watchPodDisruptionBudgets")).toBe(1);
    expect(ofType(events, "eviction.blocked").map((b) => b.pdb)).toEqual(["web"]);
    // Asked again once the budget allows: the log says so.
    const [blocked] = ofType(events, "eviction.blocked");
    expect(blocked?.final).toBeUndefined();
    expect(eventLine(blocked!)).toBe(
      `nodes: eviction of ${blocked!.pod} refused by PodDisruptionBudget web; retrying`,
    );
  });

  it("says an eviction refused past the drain's deadline is not retried", async () => {
    const { world, ctx, events } = closedWithoutWatch();
    // The budget's 429 asks for 10 s; the drain has 5.
    const e = await drain(world, ctx, nodeOf(world, "web"), { timeoutMs: 5_000 });
    expect((e as RollError).code).toBe("PodEvictionFailure");
    const blocked = ofType(events, "eviction.blocked");
    expect(blocked.map((b) => b.final)).toEqual([true]);
    expect(eventLine(blocked[0]!)).toMatch(/refused by PodDisruptionBudget web; not retried$/);
  });

  it("without a watch on budgets (RBAC), comes back after the 10 s a budget's 429 asks for", async () => {
    const { world, ctx, events } = closedWithoutWatch();
    const e = await drain(world, ctx, nodeOf(world, "web"), { timeoutMs: 100_000 });
    expect((e as RollError).message).toMatch(/PodDisruptionBudget web allows no disruption/);
    // 100 s at one eviction every 10 s: about ten tries, not twenty at the 5 s default.
    const tries = world.calls.get("policy.evictPod") ?? 0;
    expect(tries).toBeGreaterThanOrEqual(9);
    expect(tries).toBeLessThanOrEqual(12);
    expect(ofType(events, "eviction.blocked").map((b) => b.pdb)).toEqual(["web"]);
  });

  it.each([
    ["410 Gone", { gone: 1, within: "20s" }],
    ["a stall", { stall: 1, within: "20s" }],
    ["an early end", { endEarly: 1, within: "20s" }],
  ])(
    "the budgets' watch meets %s: listed again or watched again, the drain goes on",
    async (_, fault) => {
      const { world, ctx } = setup(
        [{ kind: "Deployment", name: "web", replicas: 24, pdb: { maxUnavailable: 1 } }],
        { faults: { watch: [fault] } } as Partial<ScenarioInput>,
      );
      const node = nodeOf(world, "web");
      const pods = [...world.workload("web").pods].filter((p) => p.nodeName === node).length;
      const e = await drain(world, ctx, node);
      expect(e).toMatchObject({ evicted: pods });
      const faults = world.timeline.of("api.fault").map((f) => f.call);
      expect(faults).toContain("policy.watchPodDisruptionBudgets");
      // Not one ask every 10 s per pod while the watch was down: at most a recheck each.
      expect((world.calls.get("policy.evictPod") ?? 0) - pods).toBeLessThanOrEqual(pods);
    },
  );

  it("under a budget allowing one disruption at a time, a refused ask at once makes the next in line wait", async () => {
    const { world, ctx } = setup([
      { kind: "Deployment", name: "web", replicas: 24, pdb: { maxUnavailable: 1 } },
    ]);
    const node = nodeOf(world, "web");
    const pods = [...world.workload("web").pods].filter((p) => p.nodeName === node).length;
    const e = await drain(world, ctx, node);
    expect(e).toMatchObject({ evicted: pods });
    // Each pod is accepted once; 8 pods here met 20 refusals when every handover asked at
    // once, 15 now.
    const refusals = (world.calls.get("policy.evictPod") ?? 0) - pods;
    expect(pods).toBe(8);
    expect(refusals).toBeLessThanOrEqual(16);
  });

  it("does not take API throttling for a budget's refusal", async () => {
    const { world, ctx, events } = setup([{ kind: "Deployment", name: "web", replicas: 9 }], {
      faults: { throttle: [{ api: "kubernetes", rate: 0.5, retryAfter: 2 }] },
    } as Partial<ScenarioInput>);
    const { resilient } = await import("../../src/ports/index.js");
    const notes: string[] = [];
    const throttled: RollContext = {
      ...ctx,
      cluster: resilient(world.cluster, world.clock, {
        onRetry: (i) => notes.push(`${i.why} ${i.call}`),
      }),
    };
    const r = await drain(world, throttled, nodeOf(world, "web"));
    expect(r).toMatchObject({ evicted: expect.any(Number) });
    expect(world.timeline.of("api.throttled").length).toBeGreaterThan(0);
    expect(notes.some((n) => /^throttled POST pods\/eviction/.test(n))).toBe(true);
    expect(ofType(events, "eviction.blocked")).toEqual([]);
  });

  it("asks the pod watch to end in time, and waits out a 429's Retry-After before watching again", async () => {
    // A pod that takes 20 s to go: the drain is still waiting when the watch is refused.
    const { world, ctx } = setup([
      { kind: "Deployment", name: "web", replicas: 3, preStop: 20, terminationGracePeriod: 60 },
    ]);
    const watches: { at: number; timeoutSeconds?: number }[] = [];
    const cluster = world.cluster;
    ctx.cluster = withMethod(cluster, "watchPods", (ns, opts) => {
      watches.push({ at: world.clock.nowMs(), timeoutSeconds: opts?.timeoutSeconds });
      if (watches.length === 1)
        throw new KubeApiError(429, "TooManyRequests", "too many requests", 7);
      return cluster.watchPods(ns, opts);
    });
    const e = await drain(world, ctx, nodeOf(world, "web"));
    expect(e).toMatchObject({ evicted: 1 });
    expect(watches.length).toBeGreaterThanOrEqual(2);
    expect(watches.every((w) => w.timeoutSeconds !== undefined && w.timeoutSeconds > 0)).toBe(true);
    expect(watches[1]!.at - watches[0]!.at).toBeGreaterThanOrEqual(7000);
  });

  it("waits a minute at most when a budget's refusal asks for a day, then evicts", async () => {
    const { world, ctx } = setup([{ kind: "Deployment", name: "web", replicas: 3 }]);
    const tries: number[] = [];
    const cluster = world.cluster;
    ctx.cluster = withMethod(cluster, "evictPod", async (ns, name, opts) => {
      tries.push(world.clock.nowMs());
      if (tries.length === 1)
        return {
          status: 429,
          message: "Cannot evict pod as it would violate the pod's disruption budget.",
          causes: ["DisruptionBudget: The disruption budget web needs 3 healthy pods"],
          retryAfterSeconds: 86_400,
        };
      return cluster.evictPod(ns, name, opts);
    });
    const r = await drain(world, ctx, nodeOf(world, "web"));
    expect(r).toMatchObject({ evicted: 1 });
    expect(tries.length).toBeGreaterThanOrEqual(2);
    expect(tries[1]! - tries[0]!).toBeLessThanOrEqual(60_000);
  });

  it("gives up at once on a Forbidden eviction, as kubectl drain does, naming the pod and the refusal", async () => {
    const { world, ctx } = setup([{ kind: "Deployment", name: "web", replicas: 3 }]);
    const tries: number[] = [];
    ctx.cluster = withMethod(world.cluster, "evictPod", async () => {
      tries.push(world.clock.nowMs());
      return {
        status: 403 as const,
        message:
          'pods "web-0" is forbidden: User "noderoll" cannot create resource "pods/eviction"',
      };
    });
    const started = world.clock.nowMs();
    const r = await drain(world, ctx, nodeOf(world, "web"), { timeoutMs: 15 * 60_000 });
    expect(r).toBeInstanceOf(RollError);
    expect((r as RollError).code).toBe("PodEvictionFailure");
    expect((r as RollError).message).toMatch(/403 Forbidden: pods "web-0" is forbidden/);
    // Asked once, not for the drain's fifteen minutes.
    expect(tries).toHaveLength(1);
    expect(world.clock.nowMs() - started).toBeLessThan(60_000);
  });

  it("waits out a Forbidden eviction in a namespace being deleted, then evicts", async () => {
    const { world, ctx } = setup([{ kind: "Deployment", name: "web", replicas: 3 }]);
    let tries = 0;
    const cluster = world.cluster;
    ctx.cluster = withMethod(cluster, "evictPod", async (ns, name, opts) => {
      if (++tries === 1)
        return {
          status: 403 as const,
          message:
            "pods is forbidden: unable to create new content in namespace default because it is being terminated",
          namespaceTerminating: true as const,
        };
      return cluster.evictPod(ns, name, opts);
    });
    const r = await drain(world, ctx, nodeOf(world, "web"));
    expect(r).toMatchObject({ evicted: 1 });
    expect(tries).toBeGreaterThanOrEqual(2);
  });
});
