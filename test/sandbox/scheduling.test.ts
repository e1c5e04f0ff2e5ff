// The scheduler honours unschedulable nodes, NoSchedule and PreferNoSchedule taints,
// tolerations (including tolerate-everything), node selectors and capacity.
import { describe, expect, it } from "vitest";
import { tolerates } from "../../src/sandbox/sim/kube/scheduler-rules.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { ZONES } from "./helpers.js";

type Workloads = NonNullable<ScenarioInput["workloads"]>;

/** Three groups of one node each: plain, tainted NoSchedule, tainted PreferNoSchedule. */
function tainted(workloads: Workloads, plainNodes = 1): World {
  return World.from({
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name: "taints" },
    cluster: { name: "taints", version: "1.33" },
    zones: ZONES.slice(0, 1),
    nodeGroups: [
      {
        name: "plain",
        type: "self-managed",
        size: { min: 0, max: 5, desired: plainNodes },
        labels: { g: "plain" },
        capacity: { cpu: 2, memory: "4Gi", pods: 10 },
      },
      {
        name: "hard",
        type: "self-managed",
        size: { min: 0, max: 5, desired: 1 },
        labels: { g: "hard" },
        taints: [{ key: "dedicated", value: "gpu", effect: "NoSchedule" }],
      },
      {
        name: "soft",
        type: "self-managed",
        size: { min: 0, max: 5, desired: 1 },
        labels: { g: "soft" },
        taints: [{ key: "old", effect: "PreferNoSchedule" }],
      },
    ],
    workloads,
  });
}

const groupsOf = (world: World, name: string) =>
  [...world.workload(name).pods]
    .map((p) => (p.nodeName ? world.kube.nodes.get(p.nodeName)?.labels.g : "pending"))
    .sort();

describe("scheduling", () => {
  it("keeps pods off NoSchedule nodes they do not tolerate, and off PreferNoSchedule nodes while others fit", () => {
    const world = tainted([
      { kind: "Deployment", name: "app", replicas: 4, requests: { cpu: "100m", memory: "64Mi" } },
    ]);
    expect(groupsOf(world, "app")).toEqual(["plain", "plain", "plain", "plain"]);
  });

  it("uses a PreferNoSchedule node when nothing else fits", () => {
    // 10 pods fit on the plain node (pods: 10); the rest go to the soft node, never the hard one.
    const world = tainted([
      { kind: "Deployment", name: "app", replicas: 12, requests: { cpu: "10m", memory: "16Mi" } },
    ]);
    const groups = groupsOf(world, "app");
    expect(groups.filter((g) => g === "plain")).toHaveLength(10);
    expect(groups.filter((g) => g === "soft")).toHaveLength(2);
    expect(groups).not.toContain("hard");
  });

  it("places pods that tolerate the taint (Equal with value, or Exists on the key) on the tainted node", () => {
    const world = tainted([
      {
        kind: "Deployment",
        name: "gpu",
        replicas: 1,
        nodeSelector: { g: "hard" },
        tolerations: [{ key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" }],
      },
      {
        kind: "Deployment",
        name: "gpu2",
        replicas: 1,
        nodeSelector: { g: "hard" },
        tolerations: [{ key: "dedicated", operator: "Exists" }],
      },
      {
        kind: "Deployment",
        name: "wrong",
        replicas: 1,
        nodeSelector: { g: "hard" },
        tolerations: [{ key: "dedicated", operator: "Equal", value: "cpu" }],
      },
    ]);
    expect(groupsOf(world, "gpu")).toEqual(["hard"]);
    expect(groupsOf(world, "gpu2")).toEqual(["hard"]);
    expect(groupsOf(world, "wrong")).toEqual(["pending"]);
    const pod = [...world.workload("wrong").pods][0]!;
    expect(world.kube.whyPending(pod)).toContain(
      "1 node(s) had untolerated taint {dedicated: gpu}",
    );
  });

  it("a pod that tolerates everything may land on tainted and cordoned nodes", async () => {
    const world = tainted([
      {
        kind: "Deployment",
        name: "anything",
        replicas: 1,
        nodeSelector: { g: "hard" },
        tolerations: [{ operator: "Exists" }],
      },
    ]);
    expect(groupsOf(world, "anything")).toEqual(["hard"]);
    const hard = world.nodes("hard")[0]!;
    await world.cluster.patchNode(hard.name, { unschedulable: true });
    const [pod] = [...world.workload("anything").pods];
    await world.cluster.deletePod("default", pod!.name, { gracePeriodSeconds: 0 });
    await world.advance(10_000);
    expect(groupsOf(world, "anything")).toEqual(["hard"]);
  });

  it("never places a pod on a cordoned node it does not tolerate", async () => {
    const world = tainted([{ kind: "Deployment", name: "app", replicas: 2 }]);
    const plain = world.nodes("plain")[0]!;
    await world.cluster.patchNode(plain.name, { unschedulable: true });
    for (const p of [...world.workload("app").pods])
      await world.cluster.deletePod("default", p.name);
    await world.advance(120_000);
    expect(groupsOf(world, "app")).toEqual(["soft", "soft"]);
    // Uncordoned, it is used again.
    await world.cluster.patchNode(plain.name, { unschedulable: false });
    await world.cluster.patchNode(world.nodes("soft")[0]!.name, { unschedulable: true });
    for (const p of [...world.workload("app").pods])
      await world.cluster.deletePod("default", p.name);
    await world.advance(120_000);
    expect(groupsOf(world, "app")).toEqual(["plain", "plain"]);
  });

  it("respects capacity: requests beyond what is left stay Pending with the reason", () => {
    const world = tainted([
      { kind: "Deployment", name: "big", replicas: 3, requests: { cpu: "900m", memory: "1Gi" } },
    ]);
    const groups = groupsOf(world, "big");
    // plain: 2 cpu → 2 pods; soft: 2 cpu → 1 more... the soft node takes the third.
    expect(groups).toEqual(["plain", "plain", "soft"]);
    const world2 = tainted([
      { kind: "Deployment", name: "huge", replicas: 1, requests: { cpu: "3", memory: "1Gi" } },
    ]);
    const pod = [...world2.workload("huge").pods][0]!;
    expect(pod.phase).toBe("Pending");
    expect(world2.kube.whyPending(pod)).toContain("2 Insufficient cpu");
  });

  it("spreads replicas over nodes", () => {
    const world = tainted([{ kind: "Deployment", name: "web", replicas: 3 }], 3);
    const nodes = new Set([...world.workload("web").pods].map((p) => p.nodeName));
    expect(nodes.size).toBe(3);
  });

  it("toleration matching follows Kubernetes' rules", () => {
    const t = { key: "k", value: "v", effect: "NoSchedule" as const };
    expect(tolerates({ key: "k", operator: "Equal", value: "v" }, t)).toBe(true);
    expect(tolerates({ key: "k", value: "v" }, t)).toBe(true);
    expect(tolerates({ key: "k", operator: "Equal", value: "w" }, t)).toBe(false);
    expect(tolerates({ key: "k", operator: "Exists" }, t)).toBe(true);
    expect(tolerates({ key: "k", operator: "Exists", effect: "NoExecute" }, t)).toBe(false);
    expect(tolerates({ operator: "Exists" }, t)).toBe(true);
    expect(tolerates({ operator: "Exists", effect: "PreferNoSchedule" }, t)).toBe(false);
    expect(tolerates({ key: "", operator: "Equal" }, t)).toBe(false);
  });
});
