// Values derived from an object, kept on the object (src/ports/derived.ts): what replaced the
// module-level memo caches, so its promises are the caches' — made once per object, invisible
// to anything that reads the object as data, remade when the part it depends on changed.
import { describe, expect, it } from "vitest";
import { derived } from "../../src/ports/index.js";

const SLOT = Symbol("test");

describe("derived", () => {
  it("makes the value once per object and keeps it with the object", () => {
    let made = 0;
    const make = (o: { n: number }) => ({ double: o.n * 2, made: ++made });
    const a = { n: 2 };
    const b = { n: 2 };
    expect(derived(a, SLOT, make)).toBe(derived(a, SLOT, make));
    expect(derived(b, SLOT, make)).not.toBe(derived(a, SLOT, make));
    expect(made).toBe(2);
  });

  it("is invisible to JSON, keys, spreads and deep equality", () => {
    const list = [{ id: "a" }];
    derived(list, SLOT, (l) => new Map(l.map((x) => [x.id, x])));
    expect(JSON.stringify(list)).toBe('[{"id":"a"}]');
    expect(Object.keys(list)).toEqual(["0"]);
    expect([...list]).toEqual([{ id: "a" }]);
    expect(list).toEqual([{ id: "a" }]);
  });

  it("is made again when the part it depends on changed", () => {
    const w = { name: "rs-1" };
    const refs = (o: { name: string }) => [o.name];
    const holds = (v: string[], o: { name: string }) => v[0] === o.name;
    const first = derived(w, SLOT, refs, holds);
    expect(derived(w, SLOT, refs, holds)).toBe(first);
    w.name = "rs-2";
    expect(derived(w, SLOT, refs, holds)).toEqual(["rs-2"]);
    expect(derived(w, SLOT, refs, holds)).toBe(derived(w, SLOT, refs, holds));
  });

  it("makes it afresh for a frozen object, which cannot hold it", () => {
    const frozen = Object.freeze([] as number[]);
    let made = 0;
    derived(frozen, SLOT, () => ++made);
    derived(frozen, SLOT, () => ++made);
    expect(made).toBe(2);
  });
});
