// A forced roll's estimate against the roll itself (issue 48, item 4), whole rolls in virtual
// time: a PodDisruptionBudget that never allows a disruption (minAvailable 2 of web's 2 replicas)
// holds each drain of a node carrying web until the drain timeout, when deleteAfterDrainTimeout
// deletes the pods past it. The plan's estimate counts those waits, so the roll ends within the
// tolerance the other estimate checks allow (test/roll/slow-stop.test.ts), where it left them out.
import { describe, expect, it } from "vitest";
import { ofType, policyFor, roll, selfManagedWorld } from "../roll/scenarios.js";

const world = () =>
  selfManagedWorld([{ name: "workers", nodes: 4 }], {
    workloads: [
      {
        kind: "Deployment",
        name: "web",
        replicas: 2,
        terminationGracePeriod: 30,
        pdb: { minAvailable: 2 },
      },
    ],
  });
const policy = policyFor(
  "groups: [{ name: workers, rollingUpdate: { drainTimeout: 10m, maxSurge: 1 } }]\n",
);

describe("a forced roll past a budget that never allows", () => {
  it("ends within the estimate, which counts each drain held until its timeout", async () => {
    const w = world();
    const start = w.clock.nowMs();
    const r = await roll(w, policy, { deleteAfterDrainTimeout: true, reason: "a CVE" });
    expect(r.result.result).toBe("success");
    const took = w.clock.nowMs() - start;
    const held = ofType(r.events, "node.drain.end").filter((e) => (e.deleted ?? []).length > 0);
    // Both of web's pods were held, each drain then deleting one past the budget.
    expect(held.map((e) => e.deleted![0]!.replace(/-[\w]+-[\w]+$/, ""))).toEqual([
      "default/web",
      "default/web",
    ]);
    expect(took).toBeGreaterThanOrEqual(2 * 600_000);
    const estimate = r.plan.groups[0]!.schedule.estimatedMs;
    expect(estimate).toBeGreaterThanOrEqual(2 * 600_000);
    expect(took).toBeLessThanOrEqual(estimate * 1.25);
    expect(r.invariants.violations).toEqual([]);
  });
});
