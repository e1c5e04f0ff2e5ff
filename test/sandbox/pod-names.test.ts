// A pod's name is unique in its namespace, as the API server keeps it: a pod with a fixed name (a
// bare Pod, a StatefulSet's) that another pod already has is not created, and the pod that has it
// stays as it was (src/sandbox/sim/kube/controllers.ts). A scenario can name one so on purpose
// (the generated names come from the seed, so a second scenario can copy one of them), and a
// StatefulSet scaled up can reach a bare Pod's name.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Random } from "../../src/sandbox/model/random.js";
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

/** Generated names' suffixes drawn from `suffixes` first (the random stream after). */
function scripted(suffixes: string[]): void {
  vi.restoreAllMocks();
  const original = Random.prototype.hexCodes;
  vi.spyOn(Random.prototype, "hexCodes").mockImplementation(function (
    this: Random,
    codes: number[],
    digits: number,
  ) {
    const next = digits === 5 ? suffixes.shift() : undefined;
    if (next === undefined) return original.call(this, codes, digits);
    for (const c of next) codes.push(c.charCodeAt(0));
  });
}

const suffixes = (pods: Iterable<{ name: string }>) => [...pods].map((p) => p.name.slice(-5));

// A generated name (generateName's random suffix) that another pod has is drawn again, whoever
// has it: the workload's own pod, a bare Pod, another workload whose names share the prefix —
// each way a key from elsewhere can match, and in both orders (a check that looks at less than
// every pod, as one tried and measured no faster, would have to pass them all).
// A world is built DaemonSets first, then StatefulSets, Deployments and bare Pods; what comes
// in another order is made by changing the built world.
describe("a generated name that another pod has", () => {
  afterEach(() => vi.restoreAllMocks());
  const head = base.slice(0, base.indexOf("workloads:"));
  const world = (workloads: string[]) =>
    World.fromYaml(`${head}workloads:\n${workloads.map((w) => `  - ${w}\n`).join("")}`, "t.yaml");
  const api = (w: World) => w.kube.workloads.get("Deployment/default/api")!;

  it("is drawn again when the workload's own pod has it, small workload or large", () => {
    scripted(["aaaaa", "aaaaa", "bbbbb", "ccccc"]);
    const small = world(["{ kind: Deployment, name: api, replicas: 3 }"]);
    expect(suffixes(api(small).pods)).toEqual(["aaaaa", "bbbbb", "ccccc"]);
    expectConsistent(small);
    const many = Array.from({ length: 40 }, (_, i) => (0x10000 + i).toString(16));
    scripted([...many, many[0]!, many[39]!, "fffff"]);
    const large = world(["{ kind: Deployment, name: api, replicas: 41 }"]);
    expect(suffixes(api(large).pods)).toEqual([...many, "fffff"]);
    expectConsistent(large);
  });

  it("is drawn again when a bare Pod has it, made before the workload's first pod or since", () => {
    // Before: the Deployment scaled up from none once the Pod stands.
    const rs = api(
      world(["{ kind: Deployment, name: api, replicas: 0 }", "{ kind: Pod, name: probe }"]),
    ).replicaSet!;
    const before = world([
      "{ kind: Deployment, name: api, replicas: 0 }",
      `{ kind: Pod, name: ${rs}-ddddd }`,
    ]);
    const lone = before.kube.pods.get(`default/${rs}-ddddd`)!;
    expect(lone.workload?.kind).toBe("Pod");
    scripted(["ddddd", "eeeee", "fffff", "11111"]);
    api(before).replicas = 3;
    before.kube.reconcile(api(before), true);
    expect(suffixes(api(before).pods)).toEqual(["eeeee", "fffff", "11111"]);
    expect(before.kube.pods.get(`default/${rs}-ddddd`)).toBe(lone);
    expectConsistent(before);
    // Since: the Deployment drew alone, then the Pod came; its pod made again draws the Pod's.
    scripted(["aaaaa", "bbbbb", "fffff", "ccccc"]);
    const since = world([
      "{ kind: Deployment, name: api, replicas: 2 }",
      `{ kind: Pod, name: ${rs}-fffff }`,
    ]);
    expect(suffixes(api(since).pods)).toEqual(["aaaaa", "bbbbb"]);
    const held = since.kube.pods.get(`default/${rs}-fffff`)!;
    since.kube.removePod([...api(since).pods][0]!);
    since.kube.reconcile(api(since), true);
    expect(suffixes(api(since).pods)).toEqual(["bbbbb", "ccccc"]);
    expect(since.kube.pods.get(`default/${rs}-fffff`)).toBe(held);
    expectConsistent(since);
  });

  it("is drawn again when another workload's generated pod has it, whichever drew first", () => {
    const ds = (w: World, name: string) => w.kube.workloads.get(`DaemonSet/default/${name}`)!;
    // The DaemonSet (named as the ReplicaSet: the same prefix) draws first: three nodes. The
    // ReplicaSet's name is drawn after the DaemonSet's pods, so the probe draws the same.
    const first = ["aaaaa", "bbbbb", "ccccc", "aaaaa", "ddddd", "bbbbb", "eeeee"];
    const dsFirst = (name: string) => [
      "{ kind: Deployment, name: api, replicas: 2 }",
      `{ kind: DaemonSet, name: ${name} }`,
    ];
    scripted([...first]);
    const rs = api(world(dsFirst("probe"))).replicaSet!;
    scripted([...first]);
    const a = world(dsFirst(rs));
    expect(suffixes(ds(a, rs).pods)).toEqual(["aaaaa", "bbbbb", "ccccc"]);
    expect(suffixes(api(a).pods)).toEqual(["ddddd", "eeeee"]);
    expectConsistent(a);
    // And the one that drew first, drawing again, draws what the other has again too.
    scripted(["ddddd", "fffff"]);
    a.kube.removePod([...ds(a, rs).pods][0]!);
    a.kube.reconcile(ds(a, rs), true);
    expect(suffixes(ds(a, rs).pods)).toEqual(["bbbbb", "ccccc", "fffff"]);
    expectConsistent(a);
    // The Deployment draws first: the DaemonSet fits no node until its selector is dropped.
    const apiFirst = (name: string) => [
      "{ kind: Deployment, name: api, replicas: 2 }",
      `{ kind: DaemonSet, name: ${name}, nodeSelector: { nowhere: "true" } }`,
    ];
    const rs2 = api(world(apiFirst("probe"))).replicaSet!;
    scripted(["aaaaa", "bbbbb", "aaaaa", "ccccc", "bbbbb", "ddddd", "eeeee"]);
    const b = world(apiFirst(rs2));
    expect(suffixes(api(b).pods)).toEqual(["aaaaa", "bbbbb"]);
    expect(ds(b, rs2).pods.size).toBe(0);
    ds(b, rs2).template.nodeSelector = {};
    b.kube.reconcile(ds(b, rs2), true);
    expect(suffixes(ds(b, rs2).pods)).toEqual(["ccccc", "ddddd", "eeeee"]);
    expectConsistent(b);
  });
});
