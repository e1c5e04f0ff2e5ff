// Stopping and noticing, when the world does not answer: a run cancelled while its calls hang
// returns at once and gives the lock back; a node watch that goes silent is noticed and
// re-listed within a bounded time; a watch refused with 429 waits out its Retry-After; a read
// that keeps failing names itself.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import {
  EventLog,
  KubeApiError,
  type Cluster,
  type List,
  type Node,
  type WatchEvent,
} from "../../src/ports/index.js";
import type { RollContext } from "../../src/roll/context.js";
import { NodeCache } from "../../src/roll/nodes.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { VirtualClock } from "../../src/sandbox/model/clock.js";
import { policyFor, roll, selfManagedWorld } from "./scenarios.js";

const policy = policyFor(
  "groups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }]\n",
);
const faulty = (faults: object) =>
  selfManagedWorld([{ name: "w", nodes: 3 }], {
    workloads: [{ kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 2 } }],
    faults,
  } as Partial<ScenarioInput>);

describe("cancellation while calls hang", () => {
  it("returns at once, abandons the hanging calls, gives the lock back; the next run finishes", async () => {
    // Every eviction hangs for an hour: the drain cannot move.
    const world = faulty({
      network: [{ api: "kubernetes", stall: 1, timeout: "1h", calls: ["policy.evictPod"] }],
    });
    const stop = new AbortController();
    let stoppedAt = 0;
    const log = new EventLog(world.clock);
    log.on((e) => {
      if (e.type !== "node.drain.start" || stoppedAt) return;
      world.clock.after(30_000, () => {
        stoppedAt = world.clock.nowMs();
        stop.abort();
        world.clock.notify();
      });
    });
    const r = await world.run(
      planAndApply(policy, "p.yaml", world, log, { runId: "cancelled", signal: stop.signal }),
      3 * 3600_000,
    );
    expect(r.result).toBe("cancelled");
    expect(r.message).toMatch(/in flight was abandoned.*Run apply again to continue/);
    // Within seconds of virtual time, not the hour the evictions hang for.
    expect(world.clock.nowMs() - stoppedAt).toBeLessThan(10_000);
    const lease = [...world.kube.leases.values()][0]!;
    expect(lease.spec.holderIdentity).toBeUndefined();
    // The evictions stop hanging; the next run takes the lock at once and finishes the job.
    world.gate.faults.network.length = 0;
    const next = await roll(world, policy, { runId: "next" });
    expect(next.result.result).toBe("success");
    expect(next.invariants.violations).toEqual([]);
  });
});

describe("watches that go silent", () => {
  it("a node watch that stalls is noticed and re-listed: the roll completes, not NodeCreationFailure", async () => {
    const world = faulty({ watch: [{ stall: 1, within: 0 }] });
    const { result, invariants } = await roll(world, policy);
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(
      world.timeline.of("api.fault").filter((f) => f.fault === "watch-stall").length,
    ).toBeGreaterThan(2);
    // Each stalled node watch is followed by a fresh list of the nodes.
    expect(world.calls.get("core.listNodes") ?? 0).toBeGreaterThan(3);
  });

  it("a watch refused with 429 waits out its Retry-After before watching again", async () => {
    const clock = new VirtualClock(0);
    const opened: number[] = [];
    const list: List<Node> = { items: [], metadata: { resourceVersion: "1" } };
    const cluster = {
      listNodes: async () => list,
      watchNodes: (): AsyncIterable<WatchEvent<Node>> => {
        opened.push(clock.nowMs());
        if (opened.length === 1)
          throw new KubeApiError(429, "TooManyRequests", "Too many requests", 7);
        return { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) };
      },
    } as unknown as Cluster;
    const ctx = { cluster, clock, emit: () => {}, signal: new AbortController().signal };
    const cache = new NodeCache(ctx as unknown as RollContext);
    await clock.run(cache.start());
    await clock.advance(10_000);
    expect(opened).toEqual([0, 7000]);
    await clock.run(cache.close());
  });
});

describe("a read that keeps failing", () => {
  it("ends the run named: the API, the call, the attempts, and that running again continues", async () => {
    const world = faulty({
      network: [{ api: "kubernetes", reset: 1, calls: ["core.listPods"] }],
    });
    const log = new EventLog(world.clock);
    const r = await world.run(planAndApply(policy, "p.yaml", world, log, { runId: "fails" }));
    expect(r.result).toBe("failure");
    expect(r.message).toMatch(
      /^Kubernetes API GET pods \(list, .*\) failed after 6 attempts: ECONNRESET .* Running it again continues from where this run stopped\.$/,
    );
  });
});
