// A list's response parsed item by item (src/adapters/kubernetes/list-body.ts) must be the list
// parsed whole, whatever the body holds: split where it can be split soundly, parsed whole where
// it cannot — items that nest objects starting with the same key, separators inside strings,
// items not last, pretty-printed or empty lists, multi-byte text — and bodies that are not JSON
// fail as JSON.parse fails.
import { describe, expect, it } from "vitest";
import {
  listEnvelope,
  parseBody,
  parseListItems,
} from "../../src/adapters/kubernetes/list-body.js";
import { World } from "../../src/sandbox/world/world.js";

const body = (v: unknown) => Buffer.from(JSON.stringify(v));

/** A deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TRICKY = [
  '},{"metadata":',
  '"},{"metadata":{"name":"x"}}',
  "]}",
  '"items":[{"',
  "\\",
  "ü — 世界 🚀",
  "\u0000\u001f",
  "",
];

/** A value with nested arrays of objects, some starting with `key`, and hostile strings. */
function value(next: () => number, key: string, depth: number): unknown {
  const r = next();
  if (depth > 3 || r < 0.3) return TRICKY[Math.floor(next() * TRICKY.length)];
  if (r < 0.4) return Math.floor(next() * 1e6) / 100;
  if (r < 0.45) return next() < 0.5;
  if (r < 0.7)
    return Array.from({ length: Math.floor(next() * 3) }, () => ({
      [next() < 0.5 ? key : "other"]: value(next, key, depth + 1),
      more: value(next, key, depth + 1),
    }));
  return { [key]: value(next, key, depth + 1), b: value(next, key, depth + 1) };
}

function list(seed: number, count: number, key = "metadata") {
  const next = random(seed);
  const items = Array.from({ length: count }, (_, i) => ({
    [key]: { name: `item-${i}`, labels: { v: TRICKY[i % TRICKY.length] } },
    spec: value(next, key, 0),
  }));
  return { kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: "7" }, items };
}

describe("a list's body parsed item by item", () => {
  it("splits a list of the sandbox's pods, equal to the list parsed whole", async () => {
    const world = World.demo();
    const pods = await world.run(world.cluster.listPods(undefined, {}));
    const page = body({
      kind: "PodList",
      apiVersion: "v1",
      metadata: pods.metadata,
      items: pods.items,
    });
    expect(pods.items.length).toBeGreaterThan(20);
    const split = parseListItems(page);
    expect(split).toBeDefined();
    expect(split).toEqual(JSON.parse(page.toString()));
    expect(parseBody(page)).toEqual(JSON.parse(page.toString()));
  });

  it("equals JSON.parse on 300 random lists with nested objects and hostile strings", () => {
    let splitCount = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const key = seed % 3 === 0 ? "kind" : "metadata";
      const page = body(list(seed, 1 + (seed % 7), key));
      const split = parseListItems(page);
      if (split) splitCount++;
      expect(split ?? JSON.parse(page.toString()), `seed ${seed}`).toEqual(
        JSON.parse(page.toString()),
      );
      expect(parseBody(page), `seed ${seed}`).toEqual(JSON.parse(page.toString()));
    }
    // Not every list falls back to a whole parse: most are split.
    expect(splitCount).toBeGreaterThan(100);
  });

  it("parses whole what it cannot split: items nesting the same first key, items not last, pretty-printed, empty", () => {
    const nested = {
      items: [
        { metadata: { n: 1 }, spec: { list: [{ metadata: { n: 2 } }, { metadata: { n: 3 } }] } },
        { metadata: { n: 4 } },
      ],
    };
    expect(parseListItems(body(nested))).toBeUndefined();
    const notLast = { items: [{ metadata: { n: 1 } }, { metadata: { n: 2 } }], metadata: {} };
    expect(parseListItems(body(notLast))).toBeUndefined();
    const pretty = Buffer.from(JSON.stringify(list(1, 3), null, 2));
    expect(parseListItems(pretty)).toBeUndefined();
    expect(parseListItems(body({ kind: "PodList", items: [] }))).toBeUndefined();
    for (const v of [nested, notLast, { kind: "PodList", items: [] }])
      expect(parseBody(body(v))).toEqual(v);
    expect(parseBody(pretty)).toEqual(list(1, 3));
  });

  it("does not take a key that ends in an escaped quote and items for the list's items", () => {
    const pad = "x".repeat(70_000);
    for (const text of [
      `{"kind":"List","pad":"${pad}","\\"items":[{"a":1},{"a":2}]}`,
      `{"items":[],"pad":"${pad}","x\\"items":[{"a":1},{"a":2}]}`,
    ]) {
      const page = Buffer.from(text);
      expect(parseListItems(page)).toBeUndefined();
      expect(parseBody(page)).toEqual(JSON.parse(text));
    }
  });

  it("splits items at any size, trailing whitespace included, and keeps multi-byte text", () => {
    const items = Array.from({ length: 40 }, (_, i) => ({
      metadata: { name: `pod-${i}`, labels: { text: TRICKY[i % TRICKY.length] } },
      spec: { containers: [{ name: "ü", image: "世界" }] },
    }));
    const v = { kind: "PodList", metadata: { continue: "x" }, items };
    const page = Buffer.concat([body(v), Buffer.from("\n")]);
    expect(parseListItems(page)).toEqual(v);
    expect(parseBody(Buffer.alloc(0))).toEqual({});
  });

  it("gives a list's metadata without its items: the whole list's, whatever the body holds", () => {
    const withoutItems = (v: unknown) => ({ ...(v as object), items: [] });
    for (let seed = 1; seed <= 300; seed++) {
      const v = list(seed, 1 + (seed % 7), seed % 3 === 0 ? "kind" : "metadata");
      v.metadata = { resourceVersion: "7", ...(seed % 2 === 0 && { continue: `t${seed}` }) };
      const envelope = listEnvelope(body(v)) as { items: unknown[]; metadata: unknown };
      expect(envelope.metadata, `seed ${seed}`).toEqual(v.metadata);
      // Split off: the items are left out; parsed whole (items not splittable): all there.
      if (envelope.items.length === 0) expect(envelope).toEqual(withoutItems(v));
      else expect(envelope).toEqual(v);
    }
    const notLast = { items: [{ metadata: {} }], metadata: { continue: "x" } };
    expect(listEnvelope(body(notLast))).toEqual(notLast);
    expect(listEnvelope(Buffer.from("<html>"))).toBeUndefined();
    expect(listEnvelope(Buffer.from('{"items":[{"metadata":{}}],"x":'))).toBeUndefined();
    expect(listEnvelope(Buffer.from("null"))).toBeUndefined();
  });

  it("fails on a body that is not JSON as JSON.parse does", () => {
    const bad = Buffer.from(`{"items":[{"metadata":{}},{"metadata":{]}`.padEnd(70_000, " "));
    expect(() => parseBody(bad)).toThrow(SyntaxError);
    expect(() => parseBody(Buffer.from("<html>"))).toThrow(SyntaxError);
  });
});
