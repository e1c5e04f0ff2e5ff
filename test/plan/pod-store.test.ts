// The store a plan's pod read keeps pods in: whatever order they are read in (a cluster-wide list
// comes by namespace and name, per-node lists answer concurrently), they come out node by node in
// the order of the node names, each node's in the order read, whole, across chunk boundaries.
import { describe, expect, it } from "vitest";
import { pdbIndexOf } from "../../src/plan/pdb-index.js";
import { PodStore } from "../../src/plan/pod-store.js";
import { matchesSelector } from "../../src/plan/selector.js";
import type { PdbInfo, PodInfo } from "../../src/plan/snapshot.js";
import type { Pod } from "../../src/ports/index.js";
import { budget } from "./fixtures.js";

const NODES = ["node-a", "node-b", "node-c"];

function pod(i: number, node: string): Pod {
  const owner = `web-${i % 5}-rs`;
  return {
    metadata: {
      name: `web-${i}`,
      namespace: `team-${i % 2}`,
      labels: { app: `web-${i % 5}` },
      ownerReferences: [
        {
          apiVersion: "apps/v1",
          kind: "ReplicaSet",
          name: owner,
          uid: `u-${owner}`,
          controller: true,
        },
      ],
    },
    spec: {
      nodeName: node,
      containers: [{ name: "main", image: "busybox", readinessProbe: { httpGet: { path: "/" } } }],
      terminationGracePeriodSeconds: 10 + (i % 3),
    },
    status: { phase: "Running", conditions: [{ type: "Ready", status: i % 7 ? "True" : "False" }] },
  } as Pod;
}

describe("the pod store", () => {
  // More pods than one chunk holds, read in an order that visits the nodes round-robin.
  const read = Array.from({ length: 5000 }, (_, i) => ({ i, node: (i * 7) % 3 }));

  function filled() {
    // Two nodes to a range of rows: the three nodes' pods span two ranges, one of them more
    // than one chunk of rows.
    const store = new PodStore(NODES, 1);
    for (const { i, node } of read) store.add(node, pod(i, NODES[node] as string));
    return store;
  }

  it("places pods node by node, each node's in the order read, with every field", () => {
    const store = filled();
    const pods = store.byNode().all();
    const expected = [0, 1, 2].flatMap((n) => read.filter((r) => r.node === n).map((r) => r.i));
    expect(pods.map((p) => p.name)).toEqual(expected.map((i) => `web-${i}`));
    const p = pods.find((x) => x.name === "web-14")!;
    expect(p).toEqual({
      namespace: "team-0",
      name: "web-14",
      nodeName: NODES[(14 * 7) % 3],
      labels: { app: "web-4" },
      owner: { kind: "ReplicaSet", name: "web-4-rs" },
      phase: "Running",
      ready: false,
      tolerations: [],
      terminationGracePeriodSeconds: 12,
      containers: [{ name: "main", readinessProbe: true }],
    });
    // Asked node by node: each node's pods (a node not read has none), the same again when asked
    // again, in a range of rows of its own or sharing one.
    const view = store.byNode();
    for (const n of NODES) {
      const mine = pods.filter((x) => x.nodeName === n);
      expect(mine.length).toBeGreaterThan(0);
      expect(view.on(n)).toEqual(mine);
      expect(view.on(n)).toEqual(mine);
    }
    expect(view.on("node-elsewhere")).toEqual([]);
    // Labels and owners kept once per owner and namespace, not once per pod.
    const same = pods.filter((x) => x.namespace === "team-0" && x.labels.app === "web-4");
    expect(new Set(same.map((x) => x.labels)).size).toBe(1);
    expect(new Set(same.map((x) => x.owner)).size).toBe(1);
  });

  it("places rows read in any order: sorted, reversed, one node, scattered, across chunks", () => {
    // Placing moves rows where they are, one cycle of the permutation at a time: orders made of
    // fixed points only, of one long cycle, of two-row swaps, of many short cycles, over several
    // chunks (2,048 rows each) and with a pod being deleted here and there.
    const n = 7000;
    const nodeOf: Record<string, (i: number) => number> = {
      sorted: (i) => Math.floor((i * 3) / n),
      reversed: (i) => 2 - Math.floor((i * 3) / n),
      "one node": () => 1,
      alternating: (i) => i % 2,
      scattered: (i) => ((i * 2654435761) % 7) % 3,
    };
    for (const [order, node] of Object.entries(nodeOf)) {
      const store = new PodStore(NODES, 2);
      const deleted = new Set<string>();
      for (let i = 0; i < n; i++) {
        const p = pod(i, NODES[node(i)] as string);
        if (i % 997 === 0) {
          p.metadata.deletionTimestamp = `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z`;
          deleted.add(p.metadata.name!);
        }
        store.add(node(i), p);
      }
      const all = store.byNode().all();
      const expected = [0, 1, 2].flatMap((k) =>
        Array.from({ length: n }, (_, i) => i).filter((i) => node(i) === k),
      );
      expect(
        all.map((p) => p.name),
        order,
      ).toEqual(expected.map((i) => `web-${i}`));
      for (const [k, p] of all.entries()) {
        const i = expected[k] as number;
        expect(p.nodeName).toBe(NODES[node(i)]);
        expect(p.terminationGracePeriodSeconds).toBe(10 + (i % 3));
        expect(p.ready).toBe(i % 7 !== 0);
        expect(p.namespace).toBe(`team-${i % 2}`);
        expect(p.deletionTimestamp !== undefined, p.name).toBe(deleted.has(p.name));
      }
    }
  });

  it("names each owner once, in the order of its first pod node by node, and gives its pods its workload", () => {
    const store = filled();
    const owners = store.ownersToRead().refs;
    expect(owners.map((o) => `${o.ns}/${o.name}`)).toEqual([
      ...new Set(
        store
          .byNode()
          .all()
          .map((p) => `${p.namespace}/${p.owner!.name}`),
      ),
    ]);
    for (const o of owners) o.workload = `Deployment/${o.ns}/${o.name.replace(/-rs$/, "")}`;
    const pods = store.byNode().all();
    expect(pods.every((p) => p.workload === `Deployment/${p.namespace}/${p.labels.app}`)).toBe(
      true,
    );
  });

  it("keeps its rows in V8's heap: reading pods grows no memory outside it", () => {
    // Memory outside the heap (typed arrays') starts a major collection every 64 MB it grows:
    // typed columns took 21 bytes a row read and 17 placed, ~3.8 MB for these 100,000 pods.
    const nodes = Array.from({ length: 1000 }, (_, i) => `node-${i}`);
    const before = process.memoryUsage().arrayBuffers;
    const store = new PodStore(nodes);
    for (let i = 0; i < 100_000; i++) store.add(i % 1000, pod(i, nodes[i % 1000] as string));
    const owners = store.ownersToRead().refs;
    const placed = store.byNode().on("node-7");
    const grown = process.memoryUsage().arrayBuffers - before;
    expect([owners.length, placed.length]).toEqual([10, 100]);
    expect(grown).toBeLessThan(512 * 1024);
  });

  it("finds each owner to read at its place among them, and nothing else", () => {
    const store = filled();
    const daemon = pod(5001, "node-a");
    daemon.metadata.ownerReferences = [
      { apiVersion: "apps/v1", kind: "DaemonSet", name: "agent", uid: "u-agent", controller: true },
    ];
    store.add(0, daemon);
    const { refs, index } = store.ownersToRead();
    expect(store.ownersToRead().refs).toEqual(refs);
    expect(refs.length).toBe(10);
    refs.forEach((o, i) => expect(index(o.kind, o.ns, o.name), o.name).toBe(i));
    // A kind never looked up (a DaemonSet's pods stand for themselves), another kind or
    // namespace of a known name, a name never read.
    expect(index("DaemonSet", "team-1", "agent")).toBeUndefined();
    expect(index("StatefulSet", "team-0", "web-0-rs")).toBeUndefined();
    expect(index("ReplicaSet", "team-9", "web-0-rs")).toBeUndefined();
    expect(index("ReplicaSet", "team-0", "web-9-rs")).toBeUndefined();
  });

  it("keeps equal tolerations once, and a pod's own where they differ from its owner's last pod's", () => {
    const store = new PodStore(NODES);
    const tolerating = (i: number, tolerations: Pod["spec"]["tolerations"]) => {
      const p = pod(i, "node-a");
      p.spec.tolerations = tolerations;
      return p;
    };
    const gpu = { key: "gpu", operator: "Exists", effect: "NoSchedule" } as const;
    const spot = { key: "spot", operator: "Equal", value: "yes", effect: "NoExecute" } as const;
    const later = { ...spot, tolerationSeconds: 30 };
    // Same owner (i % 5 === 0) for all: equal lists, then ones that differ in one field each.
    const read = [
      tolerating(0, [{ ...gpu }, { ...spot }]),
      tolerating(5, [{ ...gpu }, { ...spot }]),
      tolerating(10, [{ ...gpu }, { ...later }]),
      tolerating(15, [{ ...spot }, { ...gpu }]),
      tolerating(20, [{ ...gpu }]),
      tolerating(25, [{ ...gpu }, { ...spot }]),
      tolerating(30, [{ ...gpu, key: "tpu" }, { ...spot }]),
    ];
    for (const p of read) store.add(0, p);
    const placed = store.byNode().all();
    expect(placed.map((p) => p.tolerations)).toEqual(read.map((p) => p.spec.tolerations));
    const [a, b, c, d, e, f, g] = placed.map((p) => p.tolerations);
    expect(b).toBe(a);
    expect(f).toBe(a);
    for (const other of [c, d, e, g]) expect(other).not.toBe(a);
  });

  it("gives every shape of pod its fields in the snapshot's order", () => {
    const store = new PodStore(NODES);
    const bare = pod(1, "node-a");
    delete bare.metadata.ownerReferences;
    const mirror = pod(2, "node-a");
    mirror.metadata.annotations = { "kubernetes.io/config.mirror": "x" };
    mirror.metadata.ownerReferences = [
      { apiVersion: "v1", kind: "Node", name: "node-a", uid: "n", controller: true },
    ];
    const daemon = pod(3, "node-a");
    daemon.metadata.ownerReferences![0]!.kind = "DaemonSet";
    const deleting = pod(5, "node-a");
    deleting.metadata.deletionTimestamp = "2026-11-21T10:00:00Z";
    const bareDeleting = { ...bare, metadata: { ...deleting.metadata, name: "bare-deleting" } };
    delete bareDeleting.metadata.ownerReferences;
    const mirrorDeleting = {
      ...mirror,
      metadata: { ...mirror.metadata, deletionTimestamp: "2026-11-21T10:00:00Z" },
    };
    const read = [bare, mirror, daemon, pod(4, "node-a"), deleting, bareDeleting, mirrorDeleting];
    for (const p of read) store.add(0, p);
    for (const o of store.ownersToRead().refs) o.workload = `Deployment/${o.ns}/x`;
    const base = ["namespace", "name", "nodeName", "labels"];
    const rest = ["phase", "ready", "tolerations", "terminationGracePeriodSeconds", "containers"];
    const placed = store.byNode().all();
    // What the read found about each pod's budgets and workload's replicas comes last, always.
    const found = ["budgets", "replicas"];
    expect(placed.map((p) => Object.keys(p))).toEqual([
      [...base, ...rest, ...found],
      [...base, "owner", ...rest, "mirror", ...found],
      [...base, "owner", ...rest, ...found],
      [...base, "owner", ...rest, "workload", ...found],
      [...base, "owner", ...rest, "workload", "deletionTimestamp", ...found],
      [...base, ...rest, "deletionTimestamp", ...found],
      [...base, "owner", ...rest, "mirror", "deletionTimestamp", ...found],
    ]);
    const due = "2026-11-21T10:00:00Z";
    expect(placed.map((p) => [p.mirror, p.deletionTimestamp])).toEqual([
      [undefined, undefined],
      [true, undefined],
      [undefined, undefined],
      [undefined, undefined],
      [undefined, due],
      [undefined, due],
      [true, due],
    ]);
  });

  it("keeps each pod's own phase, readiness, grace and deletion, in whichever chunk of rows it lies", () => {
    // Pods of two ranges of nodes (one node to a range), read round-robin over the three nodes:
    // past the first chunk of rows (2,048) of a range, several phases (one the API has no name
    // for), a grace period absent or not whole, deletions and mirror pods scattered.
    const store = new PodStore(NODES, 0);
    const phases = ["Running", "Pending", "Succeeded", "Failed", "Unknown", "Rebooting"];
    const read = Array.from({ length: 9000 }, (_, i) => {
      const p = pod(i, NODES[i % 3] as string);
      p.status.phase = phases[i % phases.length] as Pod["status"]["phase"];
      if (i % 11 === 0) delete p.spec.terminationGracePeriodSeconds;
      else if (i % 13 === 0) p.spec.terminationGracePeriodSeconds = 2.5;
      if (i % 1000 === 999) p.metadata.deletionTimestamp = `2026-11-21T10:00:0${i % 9}Z`;
      if (i % 17 === 0) p.metadata.annotations = { "kubernetes.io/config.mirror": "x" };
      return p;
    });
    for (const [i, p] of read.entries()) store.add(i % 3, p);
    const placed = store.byNode().all();
    // Node by node, each node's as read.
    const expected = [0, 1, 2].flatMap((n) => read.filter((_, i) => i % 3 === n));
    const fields = (name: string, phase: string, ready: boolean, grace: number) => ({
      name,
      phase,
      ready,
      grace,
    });
    expect(
      placed.map((p) => fields(p.name, p.phase, p.ready, p.terminationGracePeriodSeconds)),
    ).toEqual(
      expected.map((p) =>
        fields(
          p.metadata.name,
          p.status.phase,
          p.status.conditions?.[0]?.status === "True",
          p.spec.terminationGracePeriodSeconds ?? 30,
        ),
      ),
    );
    const byName = (list: { name: string; value: unknown }[]) =>
      list.filter((x) => x.value !== undefined).sort((a, b) => a.name.localeCompare(b.name));
    expect(byName(placed.map((p) => ({ name: p.name, value: p.deletionTimestamp })))).toEqual(
      byName(read.map((p) => ({ name: p.metadata.name, value: p.metadata.deletionTimestamp }))),
    );
    expect(byName(placed.map((p) => ({ name: p.name, value: p.mirror })))).toEqual(
      byName(
        read.map((p) => ({
          name: p.metadata.name,
          value: p.metadata.annotations ? true : undefined,
        })),
      ),
    );
  });

  it("takes no pod once the pods are placed node by node (the owners asked for)", () => {
    const store = filled();
    const before = store.byNode().all();
    expect(() => store.add(0, pod(99, NODES[0] as string))).toThrow(/after the pods were placed/);
    expect(store.byNode().all()).toEqual(before);
  });

  it("moves each deletion with its pod when rows are placed; a node with no pods has none", () => {
    // Four nodes to a range: node-b, between two nodes with pods, has none; pods read
    // round-robin over the others, so placing them node by node moves nearly every row.
    const nodes = ["node-a", "node-b", "node-c", "node-d", "node-e"];
    const on = [0, 2, 3, 4];
    const store = new PodStore(nodes, 2);
    const read = Array.from({ length: 40 }, (_, i) => {
      const p = pod(i, nodes[on[i % 4] as number] as string);
      if (i % 3 === 1) p.metadata.deletionTimestamp = `2026-11-21T10:00:${10 + i}Z`;
      return p;
    });
    for (const [i, p] of read.entries()) store.add(on[i % 4] as number, p);
    const view = store.byNode();
    expect(view.on("node-b")).toEqual([]);
    for (const [n, name] of nodes.entries()) {
      const mine = read.filter((_, i) => on[i % 4] === n);
      expect(view.on(name).map((p) => [p.name, p.deletionTimestamp])).toEqual(
        mine.map((p) => [p.metadata.name, p.metadata.deletionTimestamp]),
      );
    }
    expect(view.all().filter((p) => p.deletionTimestamp).length).toBe(13);
    const none = new PodStore([]);
    expect([none.ownersToRead().refs, none.byNode().all()]).toEqual([[], []]);
  });

  it("gives each pod the budgets that select its labels, asked once per owner's labels, and its workload's replicas", () => {
    // web-N's pods share their owner's labels, but for one canary pod of web-1 with a label of
    // its own (a budget selects it alone); db's pods each have their own name label (as a
    // StatefulSet's do), one of them selected by name; a pod with no owner; budgets by
    // matchLabels, by matchExpressions only (found through the namespace, not a label), with no
    // selector, and one of another namespace with the same labels.
    const store = new PodStore(NODES, 1);
    const read = Array.from({ length: 60 }, (_, i) => pod(i, NODES[i % 3] as string));
    read[11]!.metadata.labels = { app: "web-1", track: "canary" };
    for (let i = 0; i < 4; i++) {
      const db = pod(100 + i, NODES[i % 3] as string);
      db.metadata.namespace = "team-0";
      db.metadata.labels = { app: "db", "pod-name": `db-${i}` };
      db.metadata.ownerReferences![0]!.kind = "StatefulSet";
      db.metadata.ownerReferences![0]!.name = "db";
      read.push(db);
    }
    const bare = pod(200, "node-b");
    delete bare.metadata.ownerReferences;
    read.push(bare);
    for (const p of read) store.add(NODES.indexOf(p.spec.nodeName as string), p);
    const pdbs = [
      budget("team-1", "web-1", { matchLabels: { app: "web-1" } }),
      budget("team-1", "canary", { matchLabels: { track: "canary" } }),
      budget("team-0", "web-1-elsewhere", { matchLabels: { app: "web-1" } }),
      budget("team-0", "db-2", { matchLabels: { "pod-name": "db-2" } }),
      budget("team-0", "web-2-or-3", {
        matchExpressions: [{ key: "app", operator: "In", values: ["web-2", "web-3"] }],
      }),
      budget("team-0", "none"),
    ];
    for (const o of store.ownersToRead().refs)
      if (o.name !== "web-4-rs") o.workload = `X/${o.ns}/${o.name}`;
    const workloads = store
      .ownersToRead()
      .refs.filter((o) => o.workload)
      .map((o, i) => ({ id: o.workload as string, replicas: i + 1 }));
    const pods = store.byNode(pdbs, workloads).all();
    expect(pods.length).toBe(read.length);
    // Against every budget, one by one (none missed, none extra), in the index's order.
    const names = (l: PdbInfo[] | undefined) => (l ?? []).map((b) => b.name);
    const index = pdbIndexOf(pdbs);
    for (const p of pods) {
      const expected = pdbs.filter(
        (b) => b.namespace === p.namespace && b.selector && matchesSelector(b.selector, p.labels),
      );
      expect(names(p.budgets).sort(), p.name).toEqual(names(expected).sort());
      expect(p.budgets, p.name).toEqual(index.selects(p.namespace, p.labels));
    }
    const of = (name: string) => pods.find((p) => p.name === name) as PodInfo;
    expect(names(of("web-11").budgets)).toEqual(["web-1", "canary"]);
    expect(names(of("web-1").budgets)).toEqual(["web-1"]);
    expect(names(of("web-21").budgets)).toEqual(["web-1"]);
    expect(names(of("web-102").budgets)).toEqual(["db-2"]);
    expect(names(of("web-103").budgets)).toEqual([]);
    expect(names(of("web-2").budgets)).toEqual(["web-2-or-3"]);
    // Pods sharing their labels share the answer (one list, asked once).
    const web2 = pods.filter((p) => p.namespace === "team-0" && p.labels.app === "web-2");
    expect(web2.length).toBeGreaterThan(2);
    expect(new Set(web2.map((p) => p.budgets)).size).toBe(1);
    // Replicas as the workloads say; none where the workload was not read, or there is no owner.
    const replicas = new Map(workloads.map((w) => [w.id, w.replicas]));
    for (const p of pods)
      expect(p.replicas, p.name).toBe(
        p.workload === undefined ? undefined : replicas.get(p.workload),
      );
    expect(of("web-4").replicas).toBeUndefined();
    expect(of("web-200").replicas).toBeUndefined();
    expect(pods.filter((p) => p.replicas !== undefined).length).toBeGreaterThan(40);
    // Without budgets given, none said: the index answers for such pods.
    expect(
      store
        .byNode()
        .all()
        .every((p) => p.budgets === undefined),
    ).toBe(true);
    // Given other budgets, those answer (nothing kept from the first).
    const canary = store.byNode([pdbs[1]!]).all();
    expect(canary.filter((p) => p.budgets!.length > 0).map((p) => p.name)).toEqual(["web-11"]);
  });
});
