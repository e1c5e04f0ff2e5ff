// Which budgets select a pod: the index's answer, and the pod store's shortcut through a pod's
// owner (its labels' budgets reused for a pod whose labels agree on every key a budget reads).
// The shortcut must give exactly the index's own answer for the pod's labels, in its order.
import { describe, expect, it } from "vitest";
import { PdbIndex } from "../../src/plan/pdb-index.js";
import { PodStore } from "../../src/plan/pod-store.js";
import { matchesSelector } from "../../src/plan/selector.js";
import type { LabelSelector, PdbInfo } from "../../src/plan/snapshot.js";
import type { Pod } from "../../src/ports/index.js";
import { budget } from "./fixtures.js";

describe("the budgets' index: pods selected alike", () => {
  const index = new PdbIndex([
    budget("a", "by-app", { matchLabels: { app: "db" } }),
    budget("a", "tier-exists", { matchExpressions: [{ key: "tier", operator: "Exists" }] }),
    budget("b", "by-zone", { matchLabels: { zone: "1" } }),
    budget("c", "no-selector"),
  ]);

  it("by every key a budget of the namespace reads, by value and by presence", () => {
    const pod = { app: "db", "pod-name": "db-0" };
    expect(index.alike("a", pod, { app: "db", "pod-name": "db-1" })).toBe(true);
    expect(index.alike("a", pod, { app: "web", "pod-name": "db-0" })).toBe(false);
    expect(index.alike("a", pod, { "pod-name": "db-0" })).toBe(false);
    // Exists reads whether the key is there, whatever its value.
    expect(index.alike("a", { ...pod, tier: "x" }, { ...pod, tier: "y" })).toBe(false);
    expect(index.alike("a", { ...pod, tier: "" }, pod)).toBe(false);
    expect(index.alike("a", pod, { ...pod, tier: "" })).toBe(false);
    expect(index.alike("a", pod, { app: "db" })).toBe(true);
    expect(index.alike("a", { app: "db" }, pod)).toBe(true);
    // Another namespace's keys are not read here, and a namespace with no selector reads none.
    expect(index.alike("a", { ...pod, zone: "1" }, pod)).toBe(true);
    expect(index.alike("b", { zone: "1" }, { zone: "2" })).toBe(false);
    expect(index.alike("c", { app: "x" }, {})).toBe(true);
    expect(index.alike("none", { app: "x" }, {})).toBe(true);
    // A key named like an object's own property is a label like any other.
    const proto = new PdbIndex([budget("p", "ctor", { matchLabels: { constructor: "x" } })]);
    expect(proto.alike("p", { constructor: "x" }, {})).toBe(false);
    expect(proto.alike("p", { app: "1" }, { app: "2" })).toBe(true);
  });
});

/** A seeded stream of numbers in [0, 1): the same pods and budgets on every run. */
function stream(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("the pod store's budgets for each pod", () => {
  it("are the index's answer for the pod's own labels, in its order, for pods of every shape", () => {
    const random = stream(14);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const KEYS = ["app", "tier", "pod-name", "track", "zone"];
    const VALUES = ["1", "2", "3", "4", "5", ""];
    const namespaces = ["n0", "n1", "n2"];
    const nodes = ["node-a", "node-b"];
    const operators = ["In", "NotIn", "Exists", "DoesNotExist"] as const;
    // Budgets by matchLabels, by expressions, by both; several per pod, none for some.
    const pdbs: PdbInfo[] = [];
    for (let i = 0; i < 12; i++) {
      const ns = pick(namespaces);
      // Only n0's budgets read a pod's own name: there the shortcut must not be taken.
      const selector: LabelSelector = {};
      const keys = ns === "n0" ? KEYS : KEYS.filter((k) => k !== "pod-name");
      if (random() < 0.7) selector.matchLabels = { [pick(keys)]: pick(VALUES) };
      if (random() < 0.3)
        selector.matchExpressions = [
          { key: pick(keys), operator: pick(operators), values: [pick(VALUES), pick(VALUES)] },
        ];
      pdbs.push(budget(ns, `b${i}`, random() < 0.05 ? undefined : selector));
    }
    // Owners whose pods mostly share labels, differ in one key or another, come in another key
    // order, or have none; some pods with no owner.
    const store = new PodStore(nodes, 1);
    const pods: Pod[] = [];
    for (let i = 0; i < 3000; i++) {
      const owner = Math.floor(random() * 60);
      const ns = namespaces[owner % 3] as string;
      // The owner's labels (in a key order of the pod's own), as a StatefulSet's pod with its
      // own name label, or with one key changed, added or dropped.
      const labels: Record<string, string> = {};
      const keys = KEYS.filter((k) => k !== "pod-name").sort(() => random() - 0.5);
      for (const k of keys) if ((owner + k.length) % 3 !== 0) labels[k] = String(1 + (owner % 5));
      const shape = random();
      if (shape < 0.4) labels["pod-name"] = `p${i}`;
      else if (shape < 0.5) labels[pick(KEYS)] = pick(VALUES);
      else if (shape < 0.6) delete labels[pick(KEYS)];
      const p = {
        metadata: {
          name: `p${i}`,
          namespace: ns,
          ...(random() < 0.97 && { labels }),
          ...(random() < 0.95 && {
            ownerReferences: [
              {
                apiVersion: "apps/v1",
                kind: "StatefulSet",
                name: `o${owner}`,
                uid: `u${owner}`,
                controller: true,
              },
            ],
          }),
        },
        spec: { nodeName: pick(nodes), containers: [{ name: "main", image: "busybox" }] },
        status: { phase: "Running" },
      } as Pod;
      pods.push(p);
      store.add(nodes.indexOf(p.spec.nodeName as string), p);
    }
    const index = new PdbIndex(pdbs);
    const infos = store.byNode(pdbs).all();
    expect(infos).toHaveLength(pods.length);
    let several = 0;
    for (const info of infos) {
      expect(info.budgets, info.name).toEqual(index.selects(info.namespace, info.labels));
      const expected = pdbs.filter(
        (b) => b.namespace === info.namespace && matchesSelector(b.selector, info.labels),
      );
      expect(new Set(info.budgets), info.name).toEqual(new Set(expected));
      if (info.budgets!.length > 1) several++;
    }
    // The shortcut was taken: a list of budgets the index makes anew for each labels object it
    // is asked about, given to pods with labels of their own. And the case it leaves to the
    // index (several budgets, whose order is the labels') was met.
    const labelsOf = new Map<unknown, Set<unknown>>();
    for (const info of infos) {
      if (info.budgets!.length === 0) continue;
      const labels = labelsOf.get(info.budgets) ?? new Set();
      labelsOf.set(info.budgets, labels.add(info.labels));
    }
    let shared = 0;
    for (const labels of labelsOf.values()) if (labels.size > 1) shared += labels.size;
    expect(shared).toBeGreaterThan(100);
    expect(several).toBeGreaterThan(100);
  });
});
