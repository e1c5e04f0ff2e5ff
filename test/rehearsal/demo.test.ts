// The rehearsal, judged against the roll itself: a twin of the demo cluster predicts each group's
// duration within 5% of what apply then takes, names the single-replica workload that goes down
// (and for how long) while workloads with replicas and a PDB never reach zero, and sends not one
// request to the live cluster while it runs.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { planAndApply as apply } from "../../src/app/apply.js";
import { loadPolicy } from "../../src/policy/index.js";
import { EventLog } from "../../src/ports/index.js";
import { physicsOf, readLiveCluster } from "../../src/rehearsal/live.js";
import { rehearse } from "../../src/app/rehearse.js";
import { World } from "../../src/sandbox/world/world.js";

const loaded = loadPolicy(readFileSync("policies/demo.yaml", "utf8"), "policies/demo.yaml");
if (!loaded.ok) throw new Error("the demo policy is invalid");
const policy = loaded.policy;

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

async function rehearseDemo() {
  const live = World.demo();
  const { snapshot } = await live.run(observeAndPlan(policy, "demo.yaml", live));
  const state = { ...(await live.run(readLiveCluster(live))), physics: physicsOf(live) };
  const before = total(live.calls);
  const { rehearsal } = await rehearse({
    policy,
    file: "demo.yaml",
    snapshot,
    live: state,
    options: {},
  });
  return { live, rehearsal, requestsDuring: total(live.calls) - before };
}

describe("a rehearsal of the demo", () => {
  it("predicts each group's duration within 5% of the roll that follows, touching nothing live", async () => {
    const { live, rehearsal, requestsDuring } = await rehearseDemo();
    expect(requestsDuring).toBe(0);
    expect(rehearsal.result).toBe("success");
    const log = new EventLog(live.clock);
    expect((await live.run(apply(policy, "demo.yaml", live, log, { runId: "real" }))).result).toBe(
      "success",
    );
    const real = new Map<string, number>();
    for (const e of log.events) {
      if (e.type === "group.start") real.set(e.group, -Date.parse(e.t));
      if (e.type === "group.end") real.set(e.group, real.get(e.group)! + Date.parse(e.t));
    }
    expect(rehearsal.groups.map((g) => g.group)).toEqual(["system", "ingress", "workers"]);
    for (const g of rehearsal.groups) {
      const actual = real.get(g.group)!;
      expect(
        Math.abs(g.durationMs - actual) / actual,
        `${g.group}: ${g.durationMs} vs ${actual}`,
      ).toBeLessThan(0.05);
      expect(g.phases.map((p) => p.phase)).toEqual(["setup", "scale-up", "upgrade", "scale-down"]);
    }
  });

  it("names Deployment/default/legacy (one replica) as down during its drain, with the time", async () => {
    const { rehearsal } = await rehearseDemo();
    const legacy = rehearsal.workloads.find((w) => w.name === "legacy")!;
    expect(legacy).toMatchObject({
      kind: "Deployment",
      namespace: "default",
      desired: 1,
      minReady: 0,
    });
    expect(legacy.msAtZero).toBeGreaterThan(0);
    const web = rehearsal.workloads.find((w) => w.name === "web")!;
    expect(web).toMatchObject({ desired: 3, msAtZero: 0, msBelowPdb: 0 });
    expect(web.minReady).toBeGreaterThanOrEqual(2);
  });
});
