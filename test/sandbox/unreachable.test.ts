// A node whose kubelet stops reporting while its instance runs on (faults.nodesUnreachable), as
// Kubernetes shows it: Ready Unknown, the unreachable taints, its pods NotReady, then deleted by
// the NoExecute taint after their toleration's 300 s and left Terminating for good — until the
// node object goes with its instance, or a deletion with grace 0.
import { describe, expect, it } from "vitest";
import type { Node, Pod } from "../../src/ports/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { plainScenario } from "./helpers.js";

const UNREACHABLE = "node.kubernetes.io/unreachable";

function lostWorld(at = 60) {
  return World.from(
    plainScenario(
      [
        { kind: "Deployment", name: "web", replicas: 3, requests: { cpu: "1", memory: "1Gi" } },
        { kind: "DaemonSet", name: "agent", requests: { cpu: "100m", memory: "64Mi" } },
        {
          kind: "Deployment",
          name: "patient",
          replicas: 3,
          tolerations: [{ key: UNREACHABLE, operator: "Exists", effect: "NoExecute" }],
        },
      ],
      3,
      { faults: { nodesUnreachable: [{ group: "nodes", at }] } },
    ),
  );
}

async function nodeNamed(world: World, name: string): Promise<Node> {
  const { items } = await world.run(world.cluster.listNodes());
  const n = items.find((x) => x.metadata.name === name);
  if (!n) throw new Error(`no node ${name}`);
  return n;
}

async function podsOn(world: World, node: string): Promise<Pod[]> {
  const r = await world.run(
    world.cluster.listPods(undefined, { fieldSelector: `spec.nodeName=${node}` }),
  );
  return r.items;
}

const ready = (x: { status: { conditions?: { type: string; status: string }[] } }) =>
  x.status.conditions?.find((c) => c.type === "Ready")?.status;
const workloadOf = (p: Pod) => p.metadata.name.split("-")[0];

describe("a node whose kubelet stops reporting", () => {
  it("shows Ready Unknown with the unreachable taints, and its pods NotReady, at the fault's time", async () => {
    const world = lostWorld();
    await world.advance(59_000);
    expect(world.timeline.of("node.unreachable")).toHaveLength(0);
    await world.advance(2_000);
    const [lost] = world.timeline.of("node.unreachable");
    const name = lost?.node as string;
    expect(name).toBe(world.kube.nodeList()[0]?.name);
    const node = await nodeNamed(world, name);
    expect(ready(node)).toBe("Unknown");
    expect(node.spec.taints).toEqual(
      expect.arrayContaining([
        { key: UNREACHABLE, effect: "NoSchedule" },
        { key: UNREACHABLE, effect: "NoExecute" },
      ]),
    );
    const pods = await podsOn(world, name);
    expect(pods.length).toBeGreaterThanOrEqual(2);
    for (const p of pods) expect(ready(p)).toBe("False");
    // Only the one node: the others stay Ready.
    for (const n of world.kube.nodeList().slice(1))
      expect(ready(await nodeNamed(world, n.name))).toBe("True");
    // Its instance runs on, in service and healthy to Auto Scaling.
    const inst = world.ec2.instances.get(world.kube.nodes.get(name)!.instanceId)!;
    expect(inst.state).toBe("running");
    expect(inst.lifecycle).toBe("InService");
    expect(inst.health).toBe("Healthy");
  });

  it("deletes the pods that do not tolerate it after 300 s; they stay Terminating; DaemonSet and tolerating pods stay", async () => {
    const world = lostWorld();
    await world.advance(61_000);
    const name = world.timeline.of("node.unreachable")[0]?.node as string;
    const before = await podsOn(world, name);
    expect(before.some((p) => workloadOf(p) === "web")).toBe(true);
    await world.advance(298_000);
    expect((await podsOn(world, name)).filter((p) => p.metadata.deletionTimestamp)).toEqual([]);
    await world.advance(2_000);
    const after = await podsOn(world, name);
    const deleting = after.filter((p) => p.metadata.deletionTimestamp).map(workloadOf);
    expect(new Set(deleting)).toEqual(new Set(["web"]));
    expect(
      after
        .filter((p) => !p.metadata.deletionTimestamp)
        .map(workloadOf)
        .sort(),
    ).toEqual(
      before
        .filter((p) => workloadOf(p) !== "web")
        .map(workloadOf)
        .sort(),
    );
    // An hour later the deleted pods are still there: no kubelet confirms their end.
    await world.advance(3600_000);
    const later = await podsOn(world, name);
    expect(later.filter((p) => p.metadata.deletionTimestamp).map(workloadOf)).toEqual(deleting);
    // Their workload got its replicas back elsewhere; nothing new went to the lost node.
    const web = [...world.workload("web").pods].filter(
      (p) => !p.gone && p.deletionAt === undefined,
    );
    expect(web).toHaveLength(3);
    for (const p of web) expect(p.nodeName).not.toBe(name);
  });

  it("lets a pod go with grace 0, and every pod once its node object goes with the instance", async () => {
    const world = lostWorld(0);
    await world.advance(400_000);
    const name = world.timeline.of("node.unreachable")[0]?.node as string;
    const [first, ...rest] = (await podsOn(world, name)).filter(
      (p) => p.metadata.deletionTimestamp,
    );
    expect(first).toBeDefined();
    await world.run(
      world.cluster.deletePod(first!.metadata.namespace!, first!.metadata.name, {
        gracePeriodSeconds: 0,
      }),
    );
    const left = (await podsOn(world, name)).map((p) => p.metadata.name);
    expect(left).not.toContain(first!.metadata.name);
    for (const p of rest) expect(left).toContain(p.metadata.name);
    const instance = world.kube.nodes.get(name)!.instanceId;
    await world.run(world.cloud.ec2.terminateInstances({ InstanceIds: [instance] }));
    await world.advance(600_000);
    expect(await podsOn(world, name)).toEqual([]);
    expect(world.kube.nodes.get(name)).toBeUndefined();
  });

  it("is refused for a group the scenario does not have", () => {
    expect(() =>
      World.from(plainScenario([], 3, { faults: { nodesUnreachable: [{ group: "nope" }] } })),
    ).toThrow(/faults\.nodesUnreachable\[0\]\.group: no node group "nope"/);
  });
});
