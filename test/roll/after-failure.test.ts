// After a group fails, apply stops: the groups after it are not started, and the run's last words
// name them (issue 46, item 9). kOps goes on to the next node group unless validation timed out
// (pkg/instancegroups, isExitableError); noderoll stops on purpose — a failure is a cause to look
// at before more nodes go, and the next run picks up from it — and says what it left.
import { describe, expect, it } from "vitest";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { ofType, policyFor, roll, selfManagedWorld } from "./scenarios.js";

describe("a group that fails", () => {
  it("stops the roll, and the result names the groups not started after it", async () => {
    const w = selfManagedWorld(
      [
        { name: "a", nodes: 2 },
        { name: "b", nodes: 2 },
        { name: "c", nodes: 2 },
      ],
      {
        // Both pods on a's nodes, under a budget that allows no disruption: a cannot roll.
        workloads: [
          {
            kind: "Deployment",
            name: "db",
            replicas: 2,
            nodeSelector: { pool: "a" },
            pdb: { minAvailable: 2 },
          },
        ],
      } as Partial<ScenarioInput>,
    );
    const r = await roll(
      w,
      policyFor("order: [a, b, c]\ngroups: [{ name: a }, { name: b }, { name: c }]\n"),
    );
    expect(r.invariants.violations).toEqual([]);
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(
      /^PodEvictionFailure: .* Not started after it: b, c \(apply stops at the first group that fails\)\.$/,
    );
    expect(ofType(r.events, "group.start").map((e) => e.group)).toEqual(["a"]);
  });
});
