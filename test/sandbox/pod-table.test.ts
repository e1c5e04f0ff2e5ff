// The sandbox's pod store (src/sandbox/model/pod-table.ts) against the Map it stands in for:
// through any sequence of adds, replacements and deletions — across its index's growth, its
// clean-ups of deleted slots and its order's compactions — it answers get, has and size as the
// Map does and visits the same pods in the same order, deletions during a visit included.
import { describe, expect, it } from "vitest";
import { PodTable } from "../../src/sandbox/model/pod-table.js";
import type { PodRec } from "../../src/sandbox/model/records.js";

const pod = (key: string, rv: number) => ({ key, rv }) as PodRec;

function agree(table: PodTable, map: Map<string, PodRec>, probe: string[]): void {
  expect(table.size).toBe(map.size);
  const want = [...map.values()];
  // The same records (identity, not likeness), in the same order.
  const same = (got: PodRec[]) => got.length === want.length && got.every((p, i) => p === want[i]);
  expect(same([...table.values()])).toBe(true);
  const visited: PodRec[] = [];
  table.forEach((p) => visited.push(p));
  expect(same(visited)).toBe(true);
  const wrong = probe.filter((k) => table.get(k) !== map.get(k) || table.has(k) !== map.has(k));
  expect(wrong).toEqual([]);
  expect(table.delete("absent/key")).toBe(false);
}

describe("PodTable", () => {
  it.each([0, 5000])(
    "agrees with a Map through a long random sequence of adds, replacements and deletions (room made for %i first)",
    (reserved) => {
      const table = new PodTable();
      table.reserve(reserved);
      const map = new Map<string, PodRec>();
      let seed = 11;
      const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) as number;
      const keys = Array.from({ length: 9000 }, (_, i) => `ns-${i % 7}/pod-${i.toString(36)}`);
      for (let step = 0; step < 40_000; step++) {
        const key = keys[rand(step < 20_000 ? keys.length : 600)] as string;
        // Deletions outnumber adds in the second half: the order is compacted, the index cleaned.
        if (map.has(key) && rand(step < 20_000 ? 3 : 1) === 0) {
          expect(table.delete(key)).toBe(true);
          map.delete(key);
        } else {
          const p = pod(key, step);
          table.set(p);
          map.set(key, p);
        }
        if (step % 4000 === 0) agree(table, map, keys);
      }
      agree(table, map, keys);
    },
  );

  it("visits as a Map's iterator does when pods are deleted and added during the visit", () => {
    const table = new PodTable();
    const map = new Map<string, PodRec>();
    for (let i = 0; i < 10_000; i++) {
      const p = pod(`ns/p-${i}`, i);
      table.set(p);
      map.set(p.key, p);
    }
    const late = pod("ns/late", 99_999);
    const visit = (
      store: { values(): Iterable<PodRec> },
      del: (k: string) => void,
      add: (p: PodRec) => void,
    ) => {
      const seen: number[] = [];
      for (const p of store.values()) {
        seen.push(p.rv);
        // Enough deleted under the visit to compact the order, were that allowed then.
        if (p.rv % 2 === 0) for (let j = p.rv + 1; j < p.rv + 4; j++) del(`ns/p-${j}`);
        // Added under the visit: visited at the end, as a Map's iterator does.
        if (p.rv === 9_996) add(late);
      }
      return seen;
    };
    const fromTable = visit(
      table,
      (k) => table.delete(k),
      (p) => table.set(p),
    );
    const fromMap = visit(
      map,
      (k) => map.delete(k),
      (p) => map.set(p.key, p),
    );
    expect(fromTable).toEqual(fromMap);
    expect(fromTable).toContain(99_999);
    // Once the visit is over, the next deletion compacts; the store still agrees.
    table.delete("ns/p-0");
    map.delete("ns/p-0");
    agree(table, map, ["ns/p-2", "ns/p-3", "ns/late", "ns/p-0"]);
  });

  it("keeps a replaced pod's place in the order", () => {
    const table = new PodTable();
    for (const k of ["a/1", "a/2", "a/3"]) table.set(pod(k, 1));
    const again = pod("a/2", 2);
    table.set(again);
    expect([...table.values()].map((p) => [p.key, p.rv])).toEqual([
      ["a/1", 1],
      ["a/2", 2],
      ["a/3", 1],
    ]);
    expect(table.get("a/2")).toBe(again);
  });
});
