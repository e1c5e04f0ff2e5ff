// The event log names the pods each drain evicted (issue 48, item 9): `node.drain.end` carries
// them as namespace/name, so a reader of the log can tell which workloads a node's drain moved —
// at most EVICTED_PODS_SHOWN of them, with the count of the rest, so a node of a thousand pods
// does not make a line of a hundred kilobytes.
import { describe, expect, it } from "vitest";
import type { RollEvent } from "../../src/ports/index.js";
import { EVICTED_PODS_SHOWN } from "../../src/roll/drain.js";
import { cordonAndDrain, drainWorld, nodeOf, type Workloads } from "./drain-harness.js";

function drainEnd(events: RollEvent[]) {
  const ended = events.find((e) => e.type === "node.drain.end");
  if (ended?.type !== "node.drain.end") throw new Error("no node.drain.end");
  return ended;
}

/** Nodes of capacity for `pods` pods each (one: every replica lands on it). */
const bigNodes = (pods: number, nodes = 1) => ({
  nodeGroups: [
    {
      name: "nodes",
      type: "self-managed" as const,
      size: { min: 0, max: 3, desired: nodes },
      capacity: { cpu: 64, memory: "256Gi", pods },
    },
  ],
});

describe("the pods a drain evicted, in its event", () => {
  it("are named as namespace/name, sorted, and the JSON line says so", async () => {
    const workloads: Workloads = [
      { kind: "Deployment", name: "web", replicas: 2 },
      { kind: "Deployment", name: "api", namespace: "shop", replicas: 1 },
    ];
    const { world, ctx, events } = drainWorld(workloads, bigNodes(10), 1);
    const node = nodeOf(world, "web");
    await cordonAndDrain(world, ctx, node);
    const ended = drainEnd(events);
    expect(ended.evicted).toBe(3);
    expect(ended.evictedPods).toEqual([
      expect.stringMatching(/^default\/web-/),
      expect.stringMatching(/^default\/web-/),
      expect.stringMatching(/^shop\/api-/),
    ]);
    expect(ended.evictedPods).toEqual([...ended.evictedPods!].sort());
    expect(ended).not.toHaveProperty("evictedPodsNotShown");
    expect(JSON.parse(JSON.stringify(ended))).toMatchObject({ evictedPods: ended.evictedPods });
  });

  it(`are at most ${EVICTED_PODS_SHOWN}, with the count of the rest`, async () => {
    const { world, ctx, events } = drainWorld(
      [{ kind: "Deployment", name: "many", replicas: 70, requests: { cpu: "10m" } }],
      bigNodes(110),
      1,
    );
    await cordonAndDrain(world, ctx, nodeOf(world, "many"));
    const ended = drainEnd(events);
    expect(ended.evicted).toBe(70);
    expect(ended.evictedPods).toHaveLength(EVICTED_PODS_SHOWN);
    expect(ended.evictedPodsNotShown).toBe(70 - EVICTED_PODS_SHOWN);
    expect(JSON.stringify(ended).length).toBeLessThan(4_000);
  });

  it("are absent when the node had none to evict", async () => {
    const { world, ctx, events } = drainWorld(
      [{ kind: "Deployment", name: "web", replicas: 1 }],
      bigNodes(10, 2),
      2,
    );
    const empty = world
      .nodes("nodes")
      .map((n) => n.name)
      .find((n) => n !== nodeOf(world, "web"));
    if (!empty) throw new Error("no empty node");
    await cordonAndDrain(world, ctx, empty);
    const ended = drainEnd(events);
    expect(ended.evicted).toBe(0);
    expect(ended).not.toHaveProperty("evictedPods");
  });
});
