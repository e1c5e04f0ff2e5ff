// Zone-bound pods in the sandbox: a StatefulSet's zonal volumes (each claim bound, at its pod's
// first placement, to a volume pinned to that node's zone), required node affinity on the zone
// label, and the PodScheduled condition kube-scheduler writes when a pod fits nowhere.
import { describe, expect, it } from "vitest";
import { World } from "../../src/sandbox/world/world.js";
import { parseScenario } from "../../src/sandbox/scenarios/schema.js";
import { plainScenario } from "./helpers.js";

const zoneOf = (world: World, node: string | undefined) =>
  node ? world.kube.nodes.get(node)?.zone : undefined;

describe("zonal volumes", () => {
  it("binds each ordinal's claim to a volume in its first node's zone, served as PVC and PV", async () => {
    const world = World.from(
      plainScenario([{ kind: "StatefulSet", name: "db", replicas: 2, volumes: "zonal" }]),
    );
    const pod = await world.run(world.cluster.getPod("default", "db-0"));
    expect(pod.spec.volumes).toEqual([
      { name: "data", persistentVolumeClaim: { claimName: "data-db-0" } },
    ]);
    const claim = await world.run(world.cluster.getPersistentVolumeClaim("default", "data-db-0"));
    expect(claim.status.phase).toBe("Bound");
    const pv = await world.run(world.cluster.getPersistentVolume(claim.spec.volumeName!));
    const zone = zoneOf(world, pod.spec.nodeName);
    expect(pv.spec.nodeAffinity?.required?.nodeSelectorTerms).toEqual([
      {
        matchExpressions: [{ key: "topology.kubernetes.io/zone", operator: "In", values: [zone] }],
      },
    ]);
    expect(pv.spec.claimRef).toEqual({ namespace: "default", name: "data-db-0" });
    await expect(
      world.run(world.cluster.getPersistentVolumeClaim("default", "data-db-9")),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("keeps a recreated pod in its volume's zone; with no node there it stays Pending, Unschedulable", async () => {
    const world = World.from(
      plainScenario([{ kind: "StatefulSet", name: "db", replicas: 1, volumes: "zonal" }]),
    );
    const first = world.kube.pods.get("default/db-0")!;
    const home = zoneOf(world, first.nodeName)!;
    // Cordon every node of that zone, then delete the pod: its successor may go nowhere else.
    for (const n of world.kube.nodeList().filter((n) => n.zone === home))
      world.kube.patchNode(n.name, { unschedulable: true });
    world.kube.deletePod(first);
    await world.advance(120_000);
    const pod = await world.run(world.cluster.getPod("default", "db-0"));
    expect(pod.spec.nodeName).toBeUndefined();
    expect(pod.status.conditions?.[0]).toEqual({
      type: "PodScheduled",
      status: "False",
      reason: "Unschedulable",
      message:
        "0/3 nodes are available: 2 node(s) had volume node affinity conflict, 1 node(s) were unschedulable.",
    });
    // The zone has a schedulable node again: the pod goes there, and only there.
    for (const n of world.kube.nodeList().filter((n) => n.zone === home))
      world.kube.patchNode(n.name, { unschedulable: false });
    await world.advance(10_000);
    const placed = world.kube.pods.get("default/db-0")!;
    expect(zoneOf(world, placed.nodeName)).toBe(home);
    const after = await world.run(world.cluster.getPod("default", "db-0"));
    expect(after.status.conditions?.[0]).toMatchObject({ type: "PodScheduled", status: "True" });
  });

  it("is a StatefulSet's only", () => {
    const r = parseScenario(
      [
        "apiVersion: noderoll.io/v1",
        "kind: SandboxScenario",
        "metadata: { name: x }",
        "cluster: { name: x, version: '1.33' }",
        "zones: [a]",
        "nodeGroups: [{ name: g, type: self-managed, size: { min: 0, max: 1, desired: 1 } }]",
        "workloads: [{ kind: Deployment, name: web, volumes: zonal }]",
      ].join("\n"),
      "s.yaml",
    );
    expect(r.ok ? [] : r.errors.map((e) => `${e.line}: ${e.path}: ${e.message}`)).toEqual([
      "7: workloads[0].volumes: volumes (a volume claim template) are for a StatefulSet",
    ]);
  });
});

describe("required node affinity", () => {
  it("places pods only on nodes whose labels meet a term, and shows it in the pod's spec", async () => {
    const terms = [
      {
        matchExpressions: [
          {
            key: "topology.kubernetes.io/zone",
            operator: "In" as const,
            values: ["eu-west-1b", "eu-west-1c"],
          },
        ],
      },
    ];
    const world = World.from(
      plainScenario([{ kind: "Deployment", name: "web", replicas: 6, nodeAffinity: terms }], 6),
    );
    const zones = [...world.workload("web").pods].map((p) => zoneOf(world, p.nodeName));
    expect(new Set(zones)).toEqual(new Set(["eu-west-1b", "eu-west-1c"]));
    const pods = await world.run(world.cluster.listPods("default"));
    expect(pods.items[0]?.spec.affinity).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms },
      },
    });
  });
});
