// Issue 44, defect 6: a run killed late in a self-managed roll — after its last old instance was
// terminated, before its scale-down gave the new nodes back to the cluster autoscaler — left every
// new node with the scale-down-disabled annotation, and the next plan said "nothing to do", so a
// scheduled run skipped the policy and the autoscaler could never remove those nodes. A plan that
// finds noderoll's own marks says so (status "cleanup"), and apply clears them.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { hasChanges, summaryLine } from "../../src/plan/index.js";
import { EventLog } from "../../src/ports/index.js";
import { crashAtEvent, leftovers } from "./crash.js";
import { ofType, policyFor, selfManagedWorld } from "./scenarios.js";

const policy = policyFor(
  "groups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }]\n",
);

/** Roll w, and kill the run the moment its scale-down starts. */
async function killedBeforeScaleDown() {
  const world = selfManagedWorld([{ name: "w", nodes: 3 }]);
  const crash = crashAtEvent(world, 1);
  const log = new EventLog(world.clock);
  log.on((e) => {
    if (e.type === "phase.start" && e.phase === "scale-down") crash.onEvent(e);
  });
  void planAndApply(policy, "p.yaml", crash.ports, log, { runId: "killed" });
  await world.run(crash.died);
  // The dead run's Lease is waited out by the next run; let the world settle meanwhile.
  await world.advance(300_000);
  return world;
}

describe("marks a run killed late leaves", () => {
  it("are found by the plan: nothing to replace, but marks to clear", async () => {
    const world = await killedBeforeScaleDown();
    const protectedNodes = [...world.kube.nodes.values()]
      .filter((n) => !n.deleted && n.annotations["noderoll.io/scale-down-disabled"])
      .map((n) => n.name)
      .sort();
    expect(protectedNodes.length).toBeGreaterThan(0);
    const { plan } = await world.run(observeAndPlan(policy, "p.yaml", world));
    const g = plan.groups[0]!;
    expect(g.replacements).toEqual([]);
    expect(g.status).toBe("cleanup");
    // The roll held AZRebalance too (processes.ts), and the kill left it suspended.
    expect(g.cleanup).toEqual([
      { mark: "scale-down-disabled", objects: protectedNodes },
      { mark: "suspended-process", objects: ["AZRebalance"] },
    ]);
    expect(plan.summary.cleanups).toBe(1);
    expect(hasChanges(plan)).toBe(true);
    expect(summaryLine(plan.summary)).toBe(
      "Plan: 0 groups to roll (0 nodes), 0 config changes, 1 group with marks to clear, 0 blocked.",
    );
  });

  it("are cleared by the next apply, though no node needs replacing", async () => {
    const world = await killedBeforeScaleDown();
    const log = new EventLog(world.clock);
    const r = await world.run(planAndApply(policy, "p.yaml", world, log, { runId: "next" }));
    expect(r.result).toBe("success");
    expect(leftovers(world)).toEqual([]);
    expect(ofType(log.events, "note").map((n) => n.message)).toContainEqual(
      expect.stringMatching(
        /^w: cleared the marks an earlier run left \(scale-down-disabled on \d+; suspended-process on 1\)$/,
      ),
    );
    const again = await world.run(observeAndPlan(policy, "p.yaml", world));
    expect(again.plan.groups[0]?.status).toBe("no-change");
  });
});
