// The order of a self-managed group's nodes for its PodDisruptionBudgets' turns
// (src/kinds/self-managed/turns.ts): the budget with the most turns is fed from the first node
// on, shorter ones fill its slack, nodes no budget limits come last; ties keep the input order.
import { describe, expect, it } from "vitest";
import { orderForTurns } from "../../src/kinds/self-managed/turns.js";
import type { PodInfo, Replacement } from "../../src/plan/index.js";
import { pdb, pod } from "./fixtures.js";

const nodes = (n: number): Replacement[] =>
  Array.from({ length: n }, (_, i) => ({
    instance: `i-${i + 1}`,
    node: `n${i + 1}`,
    zone: "eu-west-1a",
    reasons: [],
  }));

function podsOn(placement: Record<string, string[]>): Map<string, PodInfo[]> {
  const out = new Map<string, PodInfo[]>();
  for (const [app, on] of Object.entries(placement))
    on.forEach((node, k) => out.set(node, [...(out.get(node) ?? []), pod(`${app}-${k}`, node)]));
  return out;
}

const names = (rs: Replacement[]) => rs.map((r) => r.node);

describe("orderForTurns", () => {
  it("feeds the longest budget from the first node and fits the shorter into its slack", () => {
    // long: 4 pods, one at a time — 4 turns; short: 2 pods, 2 turns, may start at turn 2.
    const pods = podsOn({ long: ["n5", "n6", "n7", "n8"], short: ["n1", "n2"] });
    const pdbs = [pdb("long", "long", {}), pdb("short", "short", {})];
    expect(names(orderForTurns(nodes(8), pods, pdbs))).toEqual([
      "n5",
      "n6",
      "n1",
      "n7",
      "n2",
      "n8",
      "n3",
      "n4",
    ]);
  });

  it("counts turns as pods over disruptionsAllowed", () => {
    // wide: 4 pods, 2 at a time — 2 turns; narrow: 3 pods, one at a time — 3 turns, first.
    const pods = podsOn({ wide: ["n1", "n2", "n3", "n4"], narrow: ["n5", "n6", "n7"] });
    const pdbs = [pdb("wide", "wide", { disruptionsAllowed: 2 }), pdb("narrow", "narrow", {})];
    expect(names(orderForTurns(nodes(7), pods, pdbs)).slice(0, 2)).toEqual(["n5", "n1"]);
  });

  it("keeps the order it is given when no budget takes more than one turn", () => {
    const pods = podsOn({ a: ["n3"], b: ["n2", "n1"] });
    const pdbs = [pdb("a", "a", {}), pdb("b", "b", { disruptionsAllowed: 2 })];
    expect(names(orderForTurns(nodes(4), pods, pdbs))).toEqual(["n1", "n2", "n3", "n4"]);
  });

  it("leaves out budgets that allow nothing and pods that several budgets select", () => {
    const pods = podsOn({ shut: ["n3", "n4"], two: ["n2", "n1"] });
    const pdbs = [
      pdb("shut", "shut", { disruptionsAllowed: 0 }),
      pdb("two-a", "two", {}),
      pdb("two-b", "two", {}),
    ];
    expect(names(orderForTurns(nodes(4), pods, pdbs))).toEqual(["n1", "n2", "n3", "n4"]);
  });

  it("counts only the pods a drain moves: finished pods take no turn, Pending ones do", () => {
    // long: 4 pods, but three of them finished — one turn, as short's: no budget takes more
    // than one turn, so the order stays as given.
    const pods = podsOn({ long: ["n5", "n6", "n7", "n8"], short: ["n1"] });
    const phase = (n: string, p: string) => {
      const [pod] = pods.get(n) ?? [];
      pods.set(n, [{ ...(pod as PodInfo), phase: p }]);
    };
    phase("n6", "Succeeded");
    phase("n7", "Failed");
    phase("n8", "Succeeded");
    const pdbs = [pdb("long", "long", {}), pdb("short", "short", {})];
    expect(names(orderForTurns(nodes(8), pods, pdbs))).toEqual(names(nodes(8)));
    // Pending (likely Running by its drain) or running: four turns, fed from the first node on.
    phase("n6", "Pending");
    phase("n7", "Running");
    phase("n8", "Running");
    expect(names(orderForTurns(nodes(8), pods, pdbs)).slice(0, 2)).toEqual(["n5", "n6"]);
  });

  it("gives a pod already being deleted no turn: its eviction asks no budget", () => {
    // long: 4 pods, three of them being deleted — one turn, as short's: the order stays.
    const pods = podsOn({ long: ["n5", "n6", "n7", "n8"], short: ["n1"] });
    for (const n of ["n6", "n7", "n8"]) {
      const [pod] = pods.get(n) ?? [];
      pods.set(n, [{ ...(pod as PodInfo), deletionTimestamp: "2026-11-21T10:00:30Z" }]);
    }
    const pdbs = [pdb("long", "long", {}), pdb("short", "short", {})];
    expect(names(orderForTurns(nodes(8), pods, pdbs))).toEqual(names(nodes(8)));
    // The same pods not being deleted: four turns, fed from the first node on.
    for (const n of ["n6", "n7", "n8"]) {
      const [{ deletionTimestamp: _, ...rest }] = pods.get(n) as [PodInfo];
      pods.set(n, [rest]);
    }
    expect(names(orderForTurns(nodes(8), pods, pdbs)).slice(0, 2)).toEqual(["n5", "n6"]);
  });
});
