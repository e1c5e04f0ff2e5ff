// The pods of a workload or budget (src/sandbox/model/pod-set.ts) against the Set it stands in
// for, used as the simulator uses it: a pod joins once and leaves once, marked gone first (the
// kubelet's removePod). Through any such sequence — the gone let go along the way — it has the
// same size and members and visits them in the same order, a visit under departures included.
import { describe, expect, it } from "vitest";
import { PodSet } from "../../src/sandbox/model/pod-set.js";
import type { PodRec } from "../../src/sandbox/model/records.js";

const pod = (rv: number) => ({ key: `ns/p-${rv}`, rv, gone: false }) as PodRec;
const same = (a: Iterable<PodRec>, b: Iterable<PodRec>) => {
  const x = [...a];
  const y = [...b];
  return x.length === y.length && x.every((p, i) => p === y[i]);
};

describe("PodSet", () => {
  it("agrees with a Set through random joins and departures", () => {
    const set = new PodSet<PodRec>();
    const model = new Set<PodRec>();
    const all: PodRec[] = [];
    let seed = 5;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) as number;
    for (let step = 0; step < 20_000; step++) {
      const members = [...model];
      // Mostly joins at first, mostly departures later: the gone are let go more than once.
      if (members.length > 0 && rand(10) < (step < 10_000 ? 4 : 7)) {
        const p = members[rand(members.length)] as PodRec;
        p.gone = true;
        set.delete(p);
        model.delete(p);
      } else {
        const p = pod(step);
        all.push(p);
        set.add(p);
        model.add(p);
      }
      if (step % 1000 === 0) {
        expect(set.size).toBe(model.size);
        expect(same(set, model)).toBe(true);
        expect(all.filter((p) => set.has(p) !== model.has(p))).toEqual([]);
      }
    }
    expect(same(set, model)).toBe(true);
    expect(same({ [Symbol.iterator]: () => set.values() }, model)).toBe(true);
  });

  it("visits as a Set's iterator does under departures that let the gone go", () => {
    const set = new PodSet<PodRec>();
    const model = new Set<PodRec>();
    const pods = Array.from({ length: 1000 }, (_, i) => pod(i));
    for (const p of pods) {
      set.add(p);
      model.add(p);
    }
    const seen: number[] = [];
    for (const p of set) {
      seen.push(p.rv);
      // Each visited pod takes the next three with it: the gone pass half the list mid-visit.
      for (const q of pods.slice(p.rv + 1, p.rv + 4)) {
        if (q.gone) continue;
        q.gone = true;
        set.delete(q);
        model.delete(q);
      }
    }
    expect(seen).toEqual(pods.filter((_, i) => i % 4 === 0).map((p) => p.rv));
    expect(same(set, model)).toBe(true);
    expect(set.size).toBe(250);
  });

  it("lets a pod that is not gone leave at once", () => {
    const set = new PodSet<PodRec>();
    const [a, b, c] = [pod(1), pod(2), pod(3)];
    for (const p of [a, b, c]) set.add(p);
    set.delete(b);
    expect([...set]).toEqual([a, c]);
    expect(set.size).toBe(2);
    expect(set.has(b)).toBe(false);
  });
});
