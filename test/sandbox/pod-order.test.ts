// The sandbox's kept list order of pods (src/sandbox/ports/pod-order.ts): after any sequence of
// creations, deletions and re-creations under the same name it lists exactly the pods in the
// store, each the record the store holds now, in "namespace/name" order; and it lets the gone
// go without waiting for a list.
import { describe, expect, it } from "vitest";
import { PodTable } from "../../src/sandbox/model/pod-table.js";
import type { PodRec } from "../../src/sandbox/model/records.js";
import { PodOrder } from "../../src/sandbox/ports/pod-order.js";

function world() {
  const store = new PodTable();
  const order = new PodOrder(store);
  let serial = 0;
  const add = (key: string) => {
    const [namespace, name] = key.split("/") as [string, string];
    const old = store.get(key);
    if (old) old.gone = true;
    const rec = { namespace, name, key, gone: false, rv: ++serial } as PodRec;
    store.set(rec);
    order.changed(key);
    return rec;
  };
  const remove = (key: string) => {
    const rec = store.get(key) as PodRec;
    rec.gone = true;
    store.delete(key);
    order.changed(key);
  };
  /** What a list must give: the store's records by key. */
  const expected = () => [...store.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
  return { store, order, add, remove, expected };
}

describe("PodOrder", () => {
  it("lists the store's records in order through creations, deletions and re-creations", () => {
    const w = world();
    for (const k of ["b/x", "a/z", "a-b/y", "ab/w", "a/y"]) w.add(k);
    expect(w.order.all()).toEqual(w.expected());
    // Deleted and created again under the same name between two lists: the new record only.
    w.remove("a/y");
    const again = w.add("a/y");
    w.add("b/a");
    w.remove("ab/w");
    expect(w.order.all()).toEqual(w.expected());
    expect(w.order.all()).toContain(again);
    expect(w.order.all().some((p) => p.gone)).toBe(false);
    // Replaced in place (a pod created again before the old one was seen to go).
    const replaced = w.add("b/x");
    expect(w.order.inNamespace("b")).toEqual([w.store.get("b/a"), replaced]);
    expect(w.order.all().map((p) => p.key)).toEqual(["a-b/y", "a/y", "a/z", "b/a", "b/x"]);
  });

  it("agrees with the store after every step of a long random sequence", () => {
    const w = world();
    w.order.all();
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) as number;
    for (let step = 0; step < 3000; step++) {
      const key = `ns-${rand(3)}/pod-${rand(40)}`;
      if (w.store.has(key) && rand(2) === 0) w.remove(key);
      else w.add(key);
      if (rand(10) === 0) expect(w.order.all()).toEqual(w.expected());
      if (rand(10) === 0)
        expect(w.order.inNamespace("ns-1")).toEqual(
          w.expected().filter((p) => p.namespace === "ns-1"),
        );
    }
    expect(w.order.all()).toEqual(w.expected());
  });

  it("lets the gone go once they are half a namespace's order, without a list", () => {
    const w = world();
    for (let i = 0; i < 1000; i++) w.add(`ns/pod-${String(i).padStart(4, "0")}`);
    w.order.all();
    for (let i = 0; i < 600; i++) w.remove(`ns/pod-${String(i).padStart(4, "0")}`);
    // No list since: the gone were let go once they passed half the order (and 64), so it
    // holds at most that many of them.
    expect(w.order.held("ns")).toBeLessThanOrEqual(400 + 500 + 64);
    expect(w.order.held("ns")).toBeGreaterThanOrEqual(400);
    expect(w.order.inNamespace("ns")).toEqual(w.expected());
    expect(w.order.held("ns")).toBe(400);
  });
});
