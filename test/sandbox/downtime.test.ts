// What operators report of EKS node group updates, reproduced (see the Kubernetes docs on
// disruptions, https://kubernetes.io/docs/concepts/workloads/pods/disruptions/): during a node
// group update a single-replica workload is down while its pod moves; one with replicas ≥ 2 and
// a PDB minAvailable ≥ 1 is not.
import { describe, expect, it } from "vitest";
import type { PodRec } from "../../src/sandbox/model/records.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario, plainScenario } from "./helpers.js";

describe("downtime during drains (PodDisruptionBudgets and replicas)", () => {
  it("an EKS update takes a replicas-1 workload down, and not one with replicas 3 and minAvailable 2", async () => {
    const world = World.from(
      managedScenario({
        zones: 3,
        nodes: 3,
        workloads: [
          { kind: "Deployment", name: "legacy", replicas: 1, start: "10s", ready: "10s" },
          {
            kind: "Deployment",
            name: "web",
            replicas: 3,
            start: "10s",
            ready: "10s",
            pdb: { minAvailable: 2 },
          },
          {
            kind: "Deployment",
            name: "pair",
            replicas: 2,
            start: "10s",
            ready: "10s",
            pdb: { minAvailable: 1 },
          },
        ],
      }),
    );
    const update = await world.cloud.eks.updateNodegroupVersion({
      clusterName: "test",
      nodegroupName: "ng",
      version: "1.33",
    });
    expect((await world.waitForUpdate(update.id)).status).toBe("Successful");
    await world.advance(600_000);
    // The legacy pod was evicted once and was down until its replacement was Ready (≥ start + ready).
    expect(world.downtimeSeconds("legacy")).toBeGreaterThanOrEqual(20);
    expect(world.availability.minAvailable("Deployment/default/legacy")).toBe(0);
    expect(world.downtimeSeconds("web")).toBe(0);
    expect(world.availability.minAvailable("Deployment/default/web")).toBeGreaterThanOrEqual(2);
    expect(world.downtimeSeconds("pair")).toBe(0);
    expect(world.availability.minAvailable("Deployment/default/pair")).toBeGreaterThanOrEqual(1);
    // Every pod was moved: none is on an old node.
    expect(world.settled()).toBe(true);
  });

  it("a kubectl-style drain through the Cluster port: legacy goes down, web does not", async () => {
    const world = World.from(
      plainScenario(
        [
          { kind: "Deployment", name: "legacy", replicas: 1 },
          { kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 2 } },
        ],
        4,
      ),
    );
    const legacy = [...world.workload("legacy").pods][0] as PodRec;
    const node = legacy.nodeName as string;
    await world.run(async () => {
      await world.cluster.patchNode(node, { unschedulable: true });
      for (;;) {
        const pods = (
          await world.cluster.listPods(undefined, {
            fieldSelector: `spec.nodeName=${node}`,
            limit: 100,
          })
        ).items;
        const live = pods.filter((p) => !p.metadata.deletionTimestamp);
        if (pods.length === 0) break;
        for (const p of live)
          await world.cluster.evictPod(p.metadata.namespace as string, p.metadata.name);
        await world.clock.sleep(5_000);
      }
    });
    expect(world.downtimeSeconds("legacy")).toBeGreaterThan(0);
    expect(world.downtimeSeconds("web")).toBe(0);
    expect(world.kube.nodes.get(node)?.pods.length).toBe(0);
  });

  it("measures the outage exactly: it ends when the replacement turns Ready", async () => {
    const world = World.from(
      plainScenario(
        [{ kind: "Deployment", name: "legacy", replicas: 1, start: "7s", ready: "13s" }],
        2,
        { timings: { scheduler: 1 } },
      ),
    );
    const pod = [...world.workload("legacy").pods][0] as PodRec;
    await world.cluster.evictPod("default", pod.name);
    await world.advance(120_000);
    // Not available from the eviction; the replacement is scheduled 1 s later, starts 7 s
    // after that and is Ready 13 s later.
    expect(world.downtimeSeconds("legacy")).toBe(21);
  });
});
