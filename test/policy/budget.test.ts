// Rounding of disruption budgets as kOps does it (https://kops.sigs.k8s.io/operations/rolling-update/):
// the table cases, then properties.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveSurge, resolveUnavailable, type Budget } from "../../src/policy/index.js";

// kOps' pkg/instancegroups/settings.go: a percentage rounds down and resolves to at least 1,
// with surge or without ("0%" too); an integer is taken as written. The first four rows are
// kOps' own TestMaxUnavailable cases.
describe("maxUnavailable rounds down, a percentage at least 1", () => {
  it.each<[Budget, number, number]>([
    [0, 1, 0],
    ["0%", 1, 1],
    ["39%", 10, 3],
    ["100%", 10, 10],
    ["25%", 3, 1],
    ["10%", 5, 1],
    ["50%", 5, 2],
    [3, 10, 3],
  ])("%s of %i nodes → %i", (value, size, expected) => {
    expect(resolveUnavailable(value, size)).toBe(expected);
  });
});

describe("maxSurge rounds up, capped at the nodes that need update", () => {
  it.each<[Budget, number, number, number]>([
    ["31%", 10, 10, 4],
    ["0%", 10, 10, 0],
    [0, 10, 10, 0],
    ["1%", 10, 10, 1],
    ["100%", 10, 3, 3],
    [5, 10, 2, 2],
    [1, 10, 0, 0],
  ])("%s of %i nodes, %i needing update → %i", (value, size, need, expected) => {
    expect(resolveSurge(value, size, need)).toBe(expected);
  });
});

const pct = fc.integer({ min: 0, max: 100 }).map((n) => `${n}%` as Budget);
const size = fc.integer({ min: 0, max: 5000 });

describe("properties", () => {
  it("a percentage of maxUnavailable never exceeds the group and never rounds up", () => {
    fc.assert(
      fc.property(pct, size, (p, n) => {
        const r = resolveUnavailable(p, n);
        const exact = (Number(String(p).slice(0, -1)) * n) / 100;
        expect(r).toBe(Math.max(1, Math.floor(exact)));
      }),
    );
  });

  it("a percentage of maxSurge is the exact share rounded up, never past the nodes needing update", () => {
    fc.assert(
      fc.property(pct, size, fc.nat(5000), (p, n, need) => {
        const r = resolveSurge(p, n, need);
        const exact = (Number(String(p).slice(0, -1)) * n) / 100;
        expect(r).toBeLessThanOrEqual(need);
        expect(r).toBe(Math.min(Math.ceil(exact), need));
      }),
    );
  });

  it("integers pass through maxUnavailable unchanged and through maxSurge up to the cap", () => {
    fc.assert(
      fc.property(fc.nat(1000), size, fc.nat(1000), (v, n, need) => {
        expect(resolveUnavailable(v, n)).toBe(v);
        expect(resolveSurge(v, n, need)).toBe(Math.min(v, need));
      }),
    );
  });

  it("more nodes never means a smaller budget (monotone in the group size)", () => {
    fc.assert(
      fc.property(pct, size, size, (p, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(resolveUnavailable(p, lo)).toBeLessThanOrEqual(resolveUnavailable(p, hi));
        expect(resolveSurge(p, lo, 10_000)).toBeLessThanOrEqual(resolveSurge(p, hi, 10_000));
      }),
    );
  });
});
