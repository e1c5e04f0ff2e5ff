// Adversarial review of issue 44, defect 6 (marks orphaned by a late kill), with a window.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { EventLog } from "../../src/ports/index.js";
import { crashAtEvent, leftovers } from "../roll/crash.js";
import { policyFor, selfManagedWorld } from "../roll/scenarios.js";

const ROLLING = "groups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }]\n";

describe("marks a run killed late leaves, the next run outside the maintenance window", () => {
  // A run killed late (the runner lost, at the end of the window's opening) leaves every new
  // node scale-down-disabled and the group's AZRebalance suspended. The next run — a merge's
  // push, which applies "every other policy whose plan still has work" — plans "1 group with
  // marks to clear" and then skips everything: WindowClosed. The marks stay until the window
  // opens again (a week, for a weekly window). docs/rolling.md: AZRebalance "is resumed ... by the next run
  // after a run that was cancelled or killed, even one with nothing left to replace"; issue 44:
  // "a run that finds noderoll's own marks cleans them up even when no node needs replacing (and
  // the plan says it will)". Clearing marks replaces no node: it is not what a window guards.
  it("are cleared by the next run though the window is closed", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 3 }]);
    const crash = crashAtEvent(world, 1);
    const log = new EventLog(world.clock);
    log.on((e) => {
      if (e.type === "phase.start" && e.phase === "scale-down") crash.onEvent(e);
    });
    void planAndApply(policyFor(ROLLING), "p.yaml", crash.ports, log, { runId: "killed" });
    await world.run(crash.died);
    await world.advance(300_000);
    expect(leftovers(world).length).toBeGreaterThan(0);
    // The world's Monday 09:00 UTC; the window opens on Saturdays only.
    const weekly = policyFor(
      `window: { days: [Sat], start: "09:00", end: "10:00", timeZone: UTC }\n${ROLLING}`,
    );
    const { plan } = await world.run(observeAndPlan(weekly, "p.yaml", world));
    expect(plan.groups[0]?.status).toBe("cleanup");
    const next = await world.run(
      planAndApply(weekly, "p.yaml", world, new EventLog(world.clock), { runId: "next" }),
    );
    expect({ result: next.result, leftovers: leftovers(world) }).toEqual({
      result: expect.anything(),
      leftovers: [],
    });
  });
});
