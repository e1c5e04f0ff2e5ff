// When the self-managed roll reads its Auto Scaling group again (kinds/self-managed/capacity.ts):
// after its own writes at once, within a poll period never, then only when a node joins that
// the last read does not know, and at the latest after a minute for someone else's change.
// Each case counts DescribeAutoScalingGroups at the sandbox's front door and checks what the
// capacity answer says, so a read skipped where it was needed fails as surely as an extra one.
import { describe, expect, it } from "vitest";
import type { SelfManagedGroupInfo } from "../../src/plan/index.js";
import {
  EventLog,
  KubeApiError,
  type Cluster,
  type Node,
  type WatchEvent,
} from "../../src/ports/index.js";
import type { GroupJob } from "../../src/kinds/kind.js";
import { capacityRoom, groupWritten } from "../../src/kinds/self-managed/capacity.js";
import { selfManagedJob } from "../../src/kinds/self-managed/job.js";
import { RunState, type RollContext } from "../../src/roll/context.js";
import { NodeCache } from "../../src/roll/nodes.js";
import { VirtualClock } from "../../src/sandbox/model/clock.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { selfManagedWorld } from "./scenarios.js";

const READS = "autoscaling.describeAutoScalingGroups";

async function setUp(maxUnavailable = 0) {
  // Instances boot and register within half a minute: a node can join well inside a minute.
  const world = selfManagedWorld([{ name: "w", nodes: 4 }], {
    timings: { boot: "15s", bootJitter: "0s", register: "5s", nodeReady: "5s" },
  } as Partial<ScenarioInput>);
  const log = new EventLog(world.clock);
  const ctx: RollContext = {
    cloud: world.cloud,
    cluster: world.cluster,
    clock: world.clock,
    emit: (e) => log.emit(e),
    signal: new AbortController().signal,
    state: new RunState(),
  };
  const nodes = new NodeCache(ctx);
  await world.run(nodes.start());
  const job = selfManagedJob({
    plan: { name: "w", budgets: { maxSurge: 1, maxUnavailable }, replacements: [] },
    nodes,
    runId: "reads",
  } as unknown as GroupJob<SelfManagedGroupInfo>);
  const reads = () => world.calls.get(READS) ?? 0;
  const room = () => world.run(capacityRoom(ctx, job, new Set()));
  /** Let `ms` of virtual time pass, then ask. */
  const askAfter = async (ms: number) => {
    await world.advance(ms);
    return room();
  };
  return { world, nodes, job, reads, room, askAfter, t0: world.clock.nowMs() };
}

describe("reading the Auto Scaling group again", () => {
  it("not while nothing says it changed, for up to a minute", async () => {
    const { reads, room, askAfter } = await setUp();
    expect((await room()).desired).toBe(4);
    expect(reads()).toBe(1);
    // Node changes and time pass, no node joins: the read stands.
    for (let s = 5; s < 60; s += 5) await askAfter(5_000);
    expect(reads()).toBe(1);
    // A minute after it: read again, whatever the nodes did.
    await askAfter(5_000);
    expect(reads()).toBe(2);
  });

  it("sees someone else's change to the group within a minute", async () => {
    const { world, reads, room, askAfter } = await setUp();
    await room();
    await world.run(
      world.cloud.autoScaling.updateAutoScalingGroup({ AutoScalingGroupName: "w", MaxSize: 12 }),
    );
    // Someone scales the group in by hand (its nodes stay until terminated: nothing joins).
    await world.run(
      world.cloud.autoScaling.updateAutoScalingGroup({ AutoScalingGroupName: "w", MinSize: 0 }),
    );
    const before = reads();
    await world.run(
      world.cloud.autoScaling.updateAutoScalingGroup({
        AutoScalingGroupName: "w",
        DesiredCapacity: 3,
      }),
    );
    let seenAfter = 0;
    for (let s = 10; s <= 70 && seenAfter === 0; s += 10)
      if ((await askAfter(10_000)).desired === 3) seenAfter = s;
    expect(seenAfter).toBeGreaterThan(0);
    expect(seenAfter).toBeLessThanOrEqual(60);
    expect(reads() - before).toBe(1);
  });

  it("at once after the roll's own write, even within a poll period", async () => {
    const { reads, room, job } = await setUp();
    await room();
    groupWritten(job);
    await room();
    expect(reads()).toBe(2);
    await room();
    expect(reads()).toBe(2);
  });

  it("when a node joins that the last read does not know, once a poll period has passed", async () => {
    const { world, nodes, reads, room, askAfter, t0 } = await setUp();
    await room();
    // The group grows by hand after the read: its new instance launches, its node joins and
    // turns Ready within half a minute, inside the minute a read may stand.
    await world.run(
      world.cloud.autoScaling.updateAutoScalingGroup({ AutoScalingGroupName: "w", MaxSize: 12 }),
    );
    await world.run(
      world.cloud.autoScaling.updateAutoScalingGroup({
        AutoScalingGroupName: "w",
        DesiredCapacity: 5,
      }),
    );
    const joined = nodes.joins;
    // Within the poll period nothing is read, though the group changed.
    expect((await askAfter(5_000)).desired).toBe(4);
    expect(reads()).toBe(1);
    await world.until(() => nodes.joinedSince(joined).some(isReadyNode), 50_000);
    expect(world.clock.nowMs() - t0).toBeLessThan(50_000);
    // Past it, the node the read does not know makes it read again: the new node counts.
    const fresh = await room();
    expect(reads()).toBe(2);
    expect(fresh.desired).toBe(5);
    expect(fresh.ready).toHaveLength(5);
    expect(fresh.room).toBe(0);
  });
});

function isReadyNode(n: { status: { conditions?: { type: string; status: string }[] } }) {
  return n.status.conditions?.some((c) => c.type === "Ready" && c.status === "True") ?? false;
}

describe("the node cache's joins", () => {
  const node = (name: string, rv: string): Node => ({
    metadata: { name, resourceVersion: rv },
    spec: { providerID: `aws:///eu-west-1a/i-${name}` },
    status: { conditions: [] },
  });

  it("names the nodes that joined after a mark, through a watch and a relist, not the first list's", async () => {
    const clock = new VirtualClock(0);
    let live = [node("a", "1"), node("b", "1")];
    let watches = 0;
    const cluster = {
      listNodes: async () => ({ items: live, metadata: { resourceVersion: "5" } }),
      watchNodes: (): AsyncIterable<WatchEvent<Node>> => {
        watches++;
        if (watches > 1)
          return { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) };
        // One node joins by the watch, then the watch is too old: the relist shows another.
        async function* events(): AsyncGenerator<WatchEvent<Node>> {
          yield { type: "ADDED", object: node("c", "6") };
          live = [node("a", "1"), node("c", "6"), node("d", "7")];
          throw new KubeApiError(410, "Expired", "too old resource version");
        }
        return events();
      },
    } as unknown as Cluster;
    const ctx = { cluster, clock, emit: () => {}, signal: new AbortController().signal };
    const cache = new NodeCache(ctx as unknown as RollContext);
    await clock.run(cache.start());
    await clock.advance(5_000);
    expect(watches).toBe(2);
    // b left with the relist; c joined once (by the watch, not again by the relist), d joined.
    expect(cache.joinedSince(0).map((n) => n.metadata.name)).toEqual(["c", "d"]);
    expect(cache.joinedSince(1).map((n) => n.metadata.name)).toEqual(["d"]);
    expect(cache.joinedSince(cache.joins)).toEqual([]);
    await clock.run(cache.close());
  });
});

describe("answers that act on the group", () => {
  it("come from a read at most a poll period old; answers that wait may rest on an older one", async () => {
    const { world, job, reads, room, askAfter } = await setUp(1);
    const ctx = {
      cloud: world.cloud,
      cluster: world.cluster,
      clock: world.clock,
      emit: () => {},
      signal: new AbortController().signal,
      state: new RunState(),
    } as RollContext;
    expect((await room()).room).toBe(1);
    // Someone detaches a member by hand; its node stays Ready (and nothing joins for a while).
    await world.advance(15_000);
    const [member] = world.nodes("w");
    await world.run(
      world.cloud.autoScaling.detachInstances({
        AutoScalingGroupName: "w",
        InstanceIds: [member!.instanceId],
        ShouldDecrementDesiredCapacity: false,
      }),
    );
    // An answer that only waits: the read of 15 s ago stands, the member still counted.
    expect((await askAfter(0)).room).toBe(1);
    expect(reads()).toBe(1);
    // An answer that would start a node: read again; the member is gone, nothing may start.
    const acting = await world.run(capacityRoom(ctx, job, new Set(), (r) => r.room > 0));
    expect(reads()).toBe(2);
    expect(acting.ready).not.toContain(member!.instanceId);
    expect(acting.room).toBe(0);
  });
});
