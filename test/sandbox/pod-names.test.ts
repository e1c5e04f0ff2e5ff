// A pod's name is unique in its namespace, as the API server keeps it: a pod with a fixed name (a
// bare Pod, a StatefulSet's) that another pod already has is not created, and the pod that has it
// stays as it was (src/sandbox/sim/kube/controllers.ts). A scenario can name one so on purpose
// (the generated names come from the seed, so a second scenario can copy one of them), and a
// StatefulSet scaled up can reach a bare Pod's name.
import { describe, expect, it } from "vitest";
import { World } from "../../src/sandbox/world/world.js";

const base = `apiVersion: noderoll.io/v1
kind: SandboxScenario
metadata: { name: t }
cluster: { name: t, version: "1.33" }
zones: [a, b]
nodeGroups:
  - { name: g, type: self-managed, size: { min: 1, max: 4, desired: 3 } }
workloads:
  - { kind: Deployment, name: api, replicas: 4 }
`;

/** Every pod in the store once, under its key, in its workload's pods and its node's. */
function expectConsistent(world: World): void {
  const { pods, workloads, nodes } = world.kube;
  let owned = 0;
  for (const w of workloads.values()) {
    owned += w.pods.size;
    for (const p of w.pods) {
      expect(p.workload).toBe(w);
      expect(pods.get(p.key)).toBe(p);
    }
  }
  expect(owned).toBe(pods.size);
  let placed = 0;
  for (const n of nodes.values())
    for (const p of n.pods) {
      placed++;
      expect(pods.get(p.key)).toBe(p);
      expect(p.nodeName).toBe(n.name);
    }
  expect(placed).toBe([...pods.values()].filter((p) => p.nodeName).length);
}

describe("a pod's fixed name that another pod has", () => {
  it("is not taken from a Deployment's pod by a bare Pod named after it", () => {
    const first = World.fromYaml(base, "t.yaml");
    const taken = [...first.kube.pods.values()][1]!;
    expect(taken.workload?.name).toBe("api");
    const world = World.fromYaml(
      `${base}  - { kind: Pod, name: ${taken.name} }\n  - { kind: Pod, name: lone }\n`,
      "t.yaml",
    );
    const holder = world.kube.pods.get(taken.key)!;
    expect(holder.workload?.name).toBe("api");
    expect(holder.uidState).toBe(taken.uidState);
    expect(world.kube.workloads.get(`Pod/default/${taken.name}`)?.pods.size).toBe(0);
    expect(world.kube.workloads.get("Pod/default/lone")?.pods.size).toBe(1);
    expect(world.kube.pods.size).toBe(4 + 1);
    expectConsistent(world);
  });

  it("is not taken by a StatefulSet scaled up onto it, and its other new pods are made", () => {
    const world = World.fromYaml(
      `${base}  - { kind: StatefulSet, name: db, replicas: 3 }\n  - { kind: Pod, name: db-4 }\n`,
      "t.yaml",
    );
    const lone = world.kube.pods.get("default/db-4")!;
    expect(lone.workload?.kind).toBe("Pod");
    const db = world.kube.workloads.get("StatefulSet/default/db")!;
    db.replicas = 6;
    world.kube.reconcile(db, true);
    expect(world.kube.pods.get("default/db-4")).toBe(lone);
    expect([...db.pods].map((p) => p.name).sort()).toEqual([
      "db-0",
      "db-1",
      "db-2",
      "db-3",
      "db-5",
    ]);
    expectConsistent(world);
    // Once the bare Pod is gone, the set's next sync makes its pod of that name.
    world.kube.removePod(lone);
    world.kube.reconcile(db, true);
    expect(world.kube.pods.get("default/db-4")?.workload).toBe(db);
    expect(db.pods.size).toBe(6);
    expectConsistent(world);
  });
});
