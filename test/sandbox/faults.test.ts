// Faults a scenario can ask for, and other actors: pods stuck terminating, the cluster
// autoscaler, EKS's MINIMAL update strategy, node creation failures reported as health issues.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario, plainScenario } from "./helpers.js";

describe("faults and other actors", () => {
  it("a pod stuck terminating keeps the drain from finishing: PodEvictionFailure, and force deletes it", async () => {
    const scenario = (force: boolean) => {
      const world = World.from(
        managedScenario({
          zones: 3,
          nodes: 3,
          workloads: [{ kind: "Deployment", name: "sticky", replicas: 1, stuckTerminating: true }],
        }),
      );
      return {
        world,
        update: world.cloud.eks.updateNodegroupVersion({
          clusterName: "test",
          nodegroupName: "ng",
          version: "1.33",
          force,
        }),
      };
    };
    const a = scenario(false);
    const failed = await a.world.waitForUpdate((await a.update).id);
    expect(failed.status).toBe("Failed");
    expect(failed.errors[0]?.errorCode).toBe("PodEvictionFailure");
    const stuck = [...a.world.workload("sticky").pods].find((p) => p.deletionAt !== undefined);
    expect(stuck).toBeDefined();
    expect(stuck?.gone).toBe(false);
    const b = scenario(true);
    expect((await b.world.waitForUpdate((await b.update).id)).status).toBe("Successful");
  });

  it("the cluster autoscaler adds a node when pods stay pending, up to the group's max", async () => {
    const world = World.from(
      plainScenario(
        [{ kind: "Deployment", name: "big", replicas: 2, requests: { cpu: "3", memory: "1Gi" } }],
        1,
        {
          autoscaler: { enabled: true },
        },
      ),
    );
    expect(world.kube.pending.size).toBe(1);
    await world.until(() => world.settled(), 30 * 60_000);
    expect(world.settled()).toBe(true);
    const resize = world.timeline.of("asg.resize").find((e) => e.by === "cluster-autoscaler");
    expect(resize?.to).toMatchObject({ desired: 2 });
  });

  it("with scaleDown, the cluster autoscaler drains and removes unneeded nodes, down to min, sparing scale-down-disabled ones", async () => {
    const world = World.from(
      plainScenario(
        [{ kind: "Deployment", name: "web", replicas: 2, pdb: { minAvailable: 1 } }],
        5,
        {
          autoscaler: { enabled: true, scaleDown: { unneededFor: "2m" } },
        },
      ),
    );
    world.asg("nodes").min = 2;
    const spared = world.nodes("nodes")[0]!;
    spared.annotations["cluster-autoscaler.kubernetes.io/scale-down-disabled"] = "true";
    await world.advance(30 * 60_000);
    const taken = world.timeline
      .of("instance.terminated", "nodes")
      .filter((e) => e.by === "cluster-autoscaler");
    expect(taken).toHaveLength(3);
    expect(taken.map((e) => e.node)).not.toContain(spared.name);
    expect(world.sizes("nodes").desired).toBe(2);
    expect(world.instances("nodes")).toHaveLength(2);
    // Each went tainted and drained first: its pods were evicted, the budget honoured.
    expect(world.timeline.of("autoscaler.scale-down")).toHaveLength(3);
    expect([...world.workload("web").pods].filter((p) => p.ready)).toHaveLength(2);
  });

  it("scaleIns: a lower desired capacity at a moment, and the draining node's instance terminated with a decrement", async () => {
    const world = World.from(
      plainScenario([], 5, {
        scaleIns: [
          { group: "nodes", at: "1m", desired: 4 },
          { group: "nodes", after: "node.cordon", terminate: 1, pick: "draining", by: "oncall" },
        ],
      }),
    );
    await world.advance(2 * 60_000);
    expect(world.sizes("nodes").desired).toBe(4);
    const cordoned = world
      .nodes("nodes")
      .find((n) => !n.deleted && world.instances("nodes").some((i) => i.nodeName === n.name))!;
    await world.run(world.cluster.patchNode(cordoned.name, { unschedulable: true }));
    await world.advance(60_000);
    expect(world.sizes("nodes").desired).toBe(3);
    expect(world.timeline.first("instance.terminated", { by: "oncall" })?.node).toBe(cordoned.name);
  });

  it("MINIMAL update strategy replaces nodes without scaling up first", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        group: { updateConfig: { maxUnavailable: 1, updateStrategy: "MINIMAL" } },
      }),
    );
    const before = world.sizes("ng");
    const u = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      version: "1.33",
    });
    expect((await world.waitForUpdate(u.id)).status).toBe("Successful");
    expect(world.timeline.of("asg.resize").filter((e) => e.by === "eks")).toHaveLength(0);
    expect(world.sizes("ng")).toEqual(before);
    await world.advance(10 * 60_000);
    expect(world.nodes("ng").every((n) => n.kubeletVersion.startsWith("v1.33"))).toBe(true);
  });

  it("new nodes that never join fail the update with NodeCreationFailure: the group is ACTIVE again, with a health issue while they stay", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        extra: { faults: { nodesNeverReady: [{ group: "ng" }] } },
      }),
    );
    const u = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      version: "1.33",
    });
    expect((await world.waitForUpdate(u.id)).errors[0]?.errorCode).toBe("NodeCreationFailure");
    const ng = await world.cloud.eks.describeNodegroup("test", "ng");
    // No lock-out: EKS takes another update of an ACTIVE node group.
    expect(ng.status).toBe("ACTIVE");
    const issue = ng.health.issues[0];
    expect(issue?.code).toBe("NodeCreationFailure");
    // The issue names the instances that did not join, and goes with them.
    for (const id of issue?.resourceIds ?? [])
      world.autoScaling.terminate(world.ec2.instances.get(id)!, "test");
    await world.advance(10 * 60_000);
    expect((await world.cloud.eks.describeNodegroup("test", "ng")).health.issues).toEqual([]);
  });
});

describe("invariants over random scenarios", () => {
  it("an EKS update never takes a PDB-protected workload below its minAvailable, and ends at the original size", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 1, max: 3 }),
        async (seed, zones, replicas, maxUnavailable) => {
          const minAvailable = Math.max(1, replicas - 1);
          const world = World.from(
            managedScenario({
              seed,
              zones,
              nodes: zones * 2,
              maxUnavailable,
              workloads: [
                { kind: "Deployment", name: "web", replicas, pdb: { minAvailable } },
                { kind: "StatefulSet", name: "db", replicas: 3, pdb: { maxUnavailable: 1 } },
                { kind: "Deployment", name: "legacy", replicas: 1 },
              ],
            }),
          );
          const before = world.sizes("ng");
          // Capacity: Ready, uncordoned nodes never fall below desired − maxUnavailable.
          let lowest = Infinity;
          world.timeline.subscribe(() => {
            const ok = world.nodes("ng").filter((n) => n.ready && !n.unschedulable).length;
            lowest = Math.min(lowest, ok);
          });
          const u = await world.cloud.eks.updateNodegroupVersion({
            clusterName: "test",
            nodegroupName: "ng",
            version: "1.33",
          });
          const done = await world.waitForUpdate(u.id);
          expect(done.status).toBe("Successful");
          expect(world.availability.minAvailable("Deployment/default/web")).toBeGreaterThanOrEqual(
            minAvailable,
          );
          expect(world.availability.minAvailable("StatefulSet/default/db")).toBeGreaterThanOrEqual(
            2,
          );
          expect(world.sizes("ng")).toEqual(before);
          expect(lowest).toBeGreaterThanOrEqual(before.desired - maxUnavailable);
        },
      ),
      { numRuns: 25, seed: 12345 },
    );
  });
});

describe("faults.stuckTerminating", () => {
  it("keeps the named workload's pods terminating until deleted with grace 0", async () => {
    const world = World.from(
      plainScenario([{ kind: "Deployment", name: "sticky", replicas: 1 }], 2, {
        faults: { stuckTerminating: ["default/sticky"] },
      }),
    );
    const pod = [...world.workload("sticky").pods][0]!;
    expect((await world.cluster.evictPod("default", pod.name)).status).toBe(201);
    await world.advance(3600_000);
    expect(
      (await world.cluster.getPod("default", pod.name)).metadata.deletionTimestamp,
    ).toBeDefined();
    await world.cluster.deletePod("default", pod.name, { gracePeriodSeconds: 0 });
    await expect(world.cluster.getPod("default", pod.name)).rejects.toMatchObject({ status: 404 });
  });

  it("names only workloads that exist", () => {
    expect(() =>
      World.from(plainScenario([], 1, { faults: { stuckTerminating: ["ghost"] } })),
    ).toThrow('faults.stuckTerminating[0]: no workload "ghost" in this scenario');
  });
});
