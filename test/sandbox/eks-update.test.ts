// EKS managed node group update behaviour (Amazon EKS user guide, "Understand each phase of node
// updates", https://docs.aws.amazon.com/eks/latest/userguide/managed-node-update-behavior.html) as
// executable scenarios.
import { describe, expect, it } from "vitest";
import {
  EXCLUDE_LB_LABEL,
  NODEGROUP_IMAGE_LABEL,
  UPDATE_TAINT,
} from "../../src/sandbox/sim/aws/eks-labels.js";
import type { TimelineEvent } from "../../src/sandbox/model/observers.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "./helpers.js";

const MIN = 60_000;

async function startUpdate(world: World, force = false) {
  return world.cloud.eks.updateNodegroupVersion({
    clusterName: "test",
    nodegroupName: "ng",
    version: "1.33",
    force,
  });
}

function eksResizes(world: World): TimelineEvent[] {
  return world.timeline.of("asg.resize").filter((e) => e.by === "eks");
}

describe("EKS managed node group update (EKS user guide)", () => {
  it("scales up by 2 × zones when that is more than maxUnavailable: 5 zones, maxUnavailable 1 → +10", async () => {
    const world = World.from(managedScenario({ zones: 5, nodes: 5, max: 10, maxUnavailable: 1 }));
    const before = world.sizes("ng");
    const update = await startUpdate(world);
    const done = await world.waitForUpdate(update.id);
    expect(done.status).toBe("Successful");
    const first = eksResizes(world)[0];
    expect(first?.from).toEqual(before);
    expect(first?.to).toEqual({
      min: before.min,
      max: before.max + 10,
      desired: before.desired + 10,
    });
    // The peak: never more than 10 extra instances at once.
    const peak = Math.max(
      ...world.timeline.of("asg.resize").map((e) => (e.to as { desired: number }).desired),
    );
    expect(peak).toBe(before.desired + 10);
  });

  it("scales up by maxUnavailable when that is larger: maxUnavailable 20 → +20", async () => {
    const world = World.from(managedScenario({ zones: 5, nodes: 25, max: 30, maxUnavailable: 20 }));
    const before = world.sizes("ng");
    const update = await startUpdate(world);
    expect((await world.waitForUpdate(update.id)).status).toBe("Successful");
    expect(eksResizes(world)[0]?.to).toEqual({
      min: before.min,
      max: before.max + 20,
      desired: before.desired + 20,
    });
  });

  it("goes through setup, scale-up, upgrade and scale-down in order, and back to the original sizes", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 6,
        maxUnavailable: 2,
        workloads: [
          { kind: "Deployment", name: "web", replicas: 6, pdb: { minAvailable: 4 } },
          { kind: "DaemonSet", name: "agent", tolerations: [{ operator: "Exists" }] },
        ],
      }),
    );
    const before = world.sizes("ng");
    const oldNodes = new Set(world.nodes("ng").map((n) => n.name));
    const update = await startUpdate(world);
    const done = await world.waitForUpdate(update.id);
    expect(done).toMatchObject({ status: "Successful", type: "VersionUpdate", errors: [] });
    const phases = world.timeline.events
      .filter((e) => e.type.startsWith("eks.phase"))
      .map((e) => `${e.type === "eks.phase.start" ? "start" : "end"}:${e.phase}`);
    expect(phases).toEqual([
      "start:setup",
      "end:setup",
      "start:scale-up",
      "end:scale-up",
      "start:upgrade",
      "end:upgrade",
      "start:scale-down",
      "end:scale-down",
    ]);
    expect(world.sizes("ng")).toEqual(before);
    await world.advance(5 * MIN); // the last terminations finish
    const nodes = world.nodes("ng");
    expect(nodes.length).toBe(before.desired);
    expect(nodes.some((n) => oldNodes.has(n.name))).toBe(false);
    const ng = await world.cloud.eks.describeNodegroup("test", "ng");
    expect(ng).toMatchObject({
      version: "1.33",
      releaseVersion: "1.33.1-20250715",
      status: "ACTIVE",
    });
    for (const n of nodes) {
      expect(n.ready).toBe(true);
      expect(n.labels[NODEGROUP_IMAGE_LABEL]).toBe(world.eks.amiFor("1.33.1-20250715"));
      expect(n.kubeletVersion).toMatch(/^v1\.33\./);
    }
    expect(world.settled()).toBe(true);
    // One DaemonSet pod per node, each Ready, none left on a node that is gone.
    const agents = [...world.workload("agent").pods];
    expect(agents.map((p) => p.nodeName).sort()).toEqual(nodes.map((n) => n.name).sort());
    expect(agents.every((p) => p.ready)).toBe(true);
  });

  it("taints every old node NoSchedule once the new nodes are Ready, and never a new one", async () => {
    const world = World.from(managedScenario({ zones: 3, nodes: 3 }));
    const old = new Set(world.nodes("ng").map((n) => n.name));
    const update = await startUpdate(world);
    await world.waitForUpdate(update.id);
    const taints = world.timeline.of("node.taint").filter((e) => e.by === "eks");
    expect(new Set(taints.map((e) => e.node))).toEqual(old);
    for (const t of taints)
      expect(t.taint).toBe(`${UPDATE_TAINT.key}=${UPDATE_TAINT.value}:NoSchedule`);
    const scaleUpEnd = world.timeline.first("eks.phase.end", {
      phase: "scale-up",
    }) as TimelineEvent;
    for (const t of taints) expect(t.at).toBeLessThanOrEqual(scaleUpEnd.at);
    // New nodes were Ready before the taint went on (at least one per zone).
    const readyZones = new Set(
      world.timeline
        .of("node.ready")
        .filter((e) => e.at <= (taints[0] as TimelineEvent).at && !old.has(e.node as string))
        .map((e) => world.kube.nodes.get(e.node as string)?.zone ?? "gone"),
    );
    expect(readyZones.size).toBeGreaterThanOrEqual(3);
  });

  it("waits 60 s after each drain, labels the node out of load balancers, then terminates it", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        workloads: [{ kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 2 } }],
      }),
    );
    const old = world.nodes("ng").map((n) => n.name);
    const update = await startUpdate(world);
    await world.waitForUpdate(update.id);
    for (const node of old) {
      const drained = world.timeline.first("node.drain.end", { node }) as TimelineEvent;
      const cordoned = world.timeline.first("node.cordon", { node }) as TimelineEvent;
      const wait = world.timeline.first("eks.wait", { node }) as TimelineEvent;
      const label = world.timeline.first("node.label", {
        node,
        label: `${EXCLUDE_LB_LABEL}=true`,
      }) as TimelineEvent;
      const terminated = world.timeline.first("instance.terminated", { node }) as TimelineEvent;
      expect(drained.result).toBe("success");
      expect(cordoned.at).toBeGreaterThanOrEqual(drained.at);
      expect(wait.seconds).toBe(60);
      expect(label.at - drained.at).toBe(60_000);
      expect(terminated.at - drained.at).toBe(60_000);
      expect(terminated.by).toBe("eks");
    }
  });

  it("selects old nodes at random, deterministically for a seed", async () => {
    const order = async (seed: number) => {
      const world = World.from(managedScenario({ zones: 3, nodes: 9, seed }));
      const update = await startUpdate(world);
      await world.waitForUpdate(update.id);
      const old = new Set(
        world.timeline
          .of("node.register")
          .slice(0, 9)
          .map((e) => e.node),
      );
      return world.timeline
        .of("node.drain.start")
        .map((e) => e.node as string)
        .filter((n) => old.has(n));
    };
    const a = await order(1);
    expect(await order(1)).toEqual(a);
    const others = await Promise.all([2, 3, 4].map(order));
    expect(others.some((o) => o.join() !== a.join())).toBe(true);
    // Not simply the name order.
    expect([a, ...others].some((o) => o.join() !== [...o].sort().join())).toBe(true);
  });

  it("never drains more than maxUnavailable old nodes at once", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 9,
        maxUnavailable: 2,
        workloads: [{ kind: "Deployment", name: "w", replicas: 18 }],
      }),
    );
    let draining = 0;
    let peak = 0;
    world.timeline.subscribe((e) => {
      if (e.type === "node.drain.start") peak = Math.max(peak, ++draining);
      if (e.type === "instance.terminated" && e.by === "eks") draining--;
    });
    const update = await startUpdate(world);
    await world.waitForUpdate(update.id);
    expect(peak).toBe(2);
  });

  describe("a PodDisruptionBudget that never allows a disruption", () => {
    const scenario = () =>
      managedScenario({
        zones: 3,
        nodes: 3,
        workloads: [
          { kind: "Deployment", name: "stubborn", replicas: 1, pdb: { maxUnavailable: 0 } },
        ],
      });

    it("ends the update with PodEvictionFailure after 15 virtual minutes of trying", async () => {
      const world = World.from(scenario());
      const update = await startUpdate(world);
      const done = await world.waitForUpdate(update.id);
      expect(done.status).toBe("Failed");
      expect(done.errors).toHaveLength(1);
      expect(done.errors[0]?.errorCode).toBe("PodEvictionFailure");
      const pod = [...world.workload("stubborn").pods][0];
      const stuckNode = pod?.nodeName as string;
      expect(done.errors[0]?.resourceIds).toEqual([stuckNode]);
      const start = world.timeline.first("node.drain.start", { node: stuckNode }) as TimelineEvent;
      const end = world.timeline.first("node.drain.end", { node: stuckNode }) as TimelineEvent;
      expect(end.result).toBe("failure");
      expect(end.at - start.at).toBeGreaterThanOrEqual(15 * MIN);
      expect(end.at - start.at).toBeLessThan(15 * MIN + 10_000);
      const failedAt = world.timeline
        .of("eks.update")
        .find((e) => e.status === "Failed") as TimelineEvent;
      expect(failedAt.at).toBe(end.at);
      expect(world.timeline.of("eviction.blocked").length).toBeGreaterThan(100);
      // The pod was never evicted.
      expect(pod?.deletionAt).toBeUndefined();
      expect(world.downtimeSeconds("stubborn")).toBe(0);
    });

    it("with force, terminates the node with the pod still running after the 15 minutes, and completes", async () => {
      const world = World.from(scenario());
      const before = world.sizes("ng");
      const deletes = world.calls.get("core.deletePod") ?? 0;
      const update = await startUpdate(world, true);
      const done = await world.waitForUpdate(update.id);
      expect(done.status).toBe("Successful");
      const forced = world.timeline.of("node.drain.end").find((e) => e.result === "forced");
      expect(forced?.remaining).toEqual([expect.stringMatching(/^default\/stubborn-/)]);
      // Nothing deleted the pod: it went with its node's instance.
      expect(world.calls.get("core.deletePod") ?? 0).toBe(deletes);
      expect(world.timeline.of("pod.delete").filter((e) => e.by === "eks-force")).toEqual([]);
      const gone = world.timeline.of("instance.terminated").find((e) => e.node === forced?.node);
      expect(gone?.by).toBe("eks");
      expect(world.sizes("ng")).toEqual(before);
    });
  });

  it("fails with NodeCreationFailure when new nodes never become Ready", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        extra: { faults: { nodesNeverReady: [{ group: "ng" }] } },
      }),
    );
    const update = await startUpdate(world);
    const done = await world.waitForUpdate(update.id);
    expect(done.status).toBe("Failed");
    expect(done.errors[0]?.errorCode).toBe("NodeCreationFailure");
    expect(done.errors[0]?.resourceIds.length).toBe(6);
    expect(world.timeline.of("node.drain.start")).toHaveLength(0);
  });

  it("keeps scaling up after a zone runs out of capacity for a while", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        extra: { faults: { launchFailures: [{ zone: "eu-west-1b", for: "10m" }] } },
      }),
    );
    const update = await startUpdate(world);
    expect((await world.waitForUpdate(update.id)).status).toBe("Successful");
    expect(world.timeline.of("asg.launch.failed").length).toBeGreaterThan(0);
    const acts = await world.cloud.autoScaling.describeScalingActivities({
      AutoScalingGroupName: world.asg("ng").name,
    });
    expect(
      acts.some(
        (a) => a.StatusCode === "Failed" && /sufficient capacity/.test(a.StatusMessage ?? ""),
      ),
    ).toBe(true);
  });

  it("stops scale-down at once, leaving the sizes, when the cluster autoscaler scales the group", async () => {
    const world = World.from(managedScenario({ zones: 3, nodes: 3, max: 20 }));
    const update = await startUpdate(world);
    await world.until(
      () => world.timeline.first("eks.phase.start", { phase: "scale-down" }) !== undefined,
      24 * 3600_000,
    );
    const desired = world.sizes("ng").desired;
    expect(desired).toBeGreaterThan(3);
    world.autoScaling.setCapacity(world.asg("ng"), { desired: desired + 1 }, "cluster-autoscaler");
    const done = await world.waitForUpdate(update.id);
    expect(done.status).toBe("Successful");
    expect(world.timeline.of("eks.scale-down.exit")).toHaveLength(1);
    expect(world.sizes("ng").desired).toBe(desired + 1);
  });

  it("reports the update through DescribeUpdate and ListUpdates, and refuses a second one meanwhile", async () => {
    const world = World.from(managedScenario({ zones: 3, nodes: 3 }));
    const update = await startUpdate(world);
    expect(
      (
        await world.cloud.eks.describeUpdate({
          name: "test",
          nodegroupName: "ng",
          updateId: update.id,
        })
      ).status,
    ).toBe("InProgress");
    await expect(startUpdate(world)).rejects.toMatchObject({ code: "ResourceInUseException" });
    expect(await world.cloud.eks.listUpdates({ name: "test", nodegroupName: "ng" })).toEqual([
      update.id,
    ]);
    expect((await world.cloud.eks.describeNodegroup("test", "ng")).status).toBe("UPDATING");
    await world.waitForUpdate(update.id);
    expect(
      (
        await world.cloud.eks.describeUpdate({
          name: "test",
          nodegroupName: "ng",
          updateId: update.id,
        })
      ).status,
    ).toBe("Successful");
  });
});

describe("EKS updates, more", () => {
  it("a group on a custom launch template rolls to the requested version, with the source labels", async () => {
    const world = World.from(
      managedScenario({
        zones: 2,
        nodes: 2,
        group: { launchTemplate: { name: "custom", versions: 3, default: 1, use: 1 } },
      }),
    );
    const before = world.nodes("ng")[0]!;
    expect(before.labels["eks.amazonaws.com/sourceLaunchTemplateVersion"]).toBe("1");
    const u = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      launchTemplate: { version: "3" },
    });
    expect((await world.waitForUpdate(u.id)).status).toBe("Successful");
    await world.advance(10 * MIN);
    const versions = world
      .nodes("ng")
      .map((n) => n.labels["eks.amazonaws.com/sourceLaunchTemplateVersion"]);
    expect(versions).toEqual(["3", "3"]);
    expect((await world.cloud.eks.describeNodegroup("test", "ng")).launchTemplate?.version).toBe(
      "3",
    );
  });

  it("replays exactly for a seed: the same timeline twice", async () => {
    const run = async () => {
      const world = World.from(
        managedScenario({
          zones: 3,
          nodes: 6,
          maxUnavailable: 2,
          workloads: [{ kind: "Deployment", name: "web", replicas: 5, pdb: { maxUnavailable: 1 } }],
        }),
      );
      const u = await world.cloud.eks.updateNodegroupVersion({
        clusterName: "test",
        nodegroupName: "ng",
        version: "1.33",
      });
      await world.waitForUpdate(u.id);
      return JSON.stringify(world.timeline.events);
    };
    const a = await run();
    expect(await run()).toBe(a);
  });

  it("refuses a version newer than the control plane's", async () => {
    const world = World.from(managedScenario({ zones: 2, nodes: 2 }));
    await expect(
      world.cloud.eks.updateNodegroupVersion({
        clusterName: "test",
        nodegroupName: "ng",
        version: "1.34",
      }),
    ).rejects.toMatchObject({
      code: "InvalidParameterException",
    });
  });
});

describe("EKS updates after a failure", () => {
  it("a second update with force finishes what a PodEvictionFailure left, without touching nodes already new", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        workloads: [
          { kind: "Deployment", name: "stubborn", replicas: 1, pdb: { maxUnavailable: 0 } },
        ],
      }),
    );
    const first = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      version: "1.33",
    });
    expect((await world.waitForUpdate(first.id)).status).toBe("Failed");
    const newNodes = world
      .nodes("ng")
      .filter((n) => n.labels[NODEGROUP_IMAGE_LABEL] === world.eks.amiFor("1.33.1-20250715"));
    expect(newNodes.length).toBeGreaterThan(0);
    const second = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      version: "1.33",
      force: true,
    });
    expect((await world.waitForUpdate(second.id)).status).toBe("Successful");
    const drainedTwice = world.timeline
      .of("node.drain.start")
      .filter(
        (e) =>
          e.at > (world.timeline.first("eks.update", { updateId: second.id }) as TimelineEvent).at,
      );
    for (const n of newNodes)
      expect(world.timeline.of("node.taint").some((e) => e.node === n.name)).toBe(false);
    expect(drainedTwice.length).toBeGreaterThan(0);
    expect(await world.cloud.eks.listUpdates({ name: "test", nodegroupName: "ng" })).toEqual([
      second.id,
      first.id,
    ]);
  });
});

describe("the known causes of PodEvictionFailure (EKS user guide)", () => {
  it("several PDBs on one pod: every eviction answers 500, the drain never ends", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        workloads: [{ kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 1 } }],
        extra: {
          pdbs: [
            { name: "web-again", selector: { matchLabels: { app: "web" } }, maxUnavailable: 1 },
          ],
        },
      }),
    );
    const u = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      version: "1.33",
    });
    const done = await world.waitForUpdate(u.id);
    expect(done.status).toBe("Failed");
    expect(done.errors[0]?.errorCode).toBe("PodEvictionFailure");
    expect([...world.workload("web").pods].every((p) => p.deletionAt === undefined)).toBe(true);
  });

  it("a Deployment that tolerates every taint comes back to the node being drained", async () => {
    const oldImage = World.from(managedScenario({ zones: 3, nodes: 3 })).eks.amiFor(
      "1.32.3-20250519",
    );
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        workloads: [
          {
            kind: "Deployment",
            name: "everywhere",
            replicas: 1,
            tolerations: [{ operator: "Exists" }],
            // It can only run where the old image runs: each replacement lands on an old node.
            nodeSelector: { "eks.amazonaws.com/nodegroup-image": oldImage },
          },
        ],
      }),
    );
    const u = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      version: "1.33",
    });
    const done = await world.waitForUpdate(u.id);
    expect(done.status).toBe("Failed");
    expect(done.errors[0]?.errorCode).toBe("PodEvictionFailure");
  });
});
