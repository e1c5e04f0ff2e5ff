// Issue 44, defect 2: an EKS update someone else started (a console click, an older policy's run)
// to another target was followed, reported as the roll's own and ended "success: 1 group rolled"
// with the node group on the old Kubernetes version. The plan says what the update in progress
// targets; apply follows only one that takes the group to the plan's target, waits out any other
// and then rolls to the target; success is the group read back at the target.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { planAndApply } from "../../src/app/apply.js";
import { EventLog } from "../../src/ports/index.js";
import { Invariants } from "./invariants.js";
import { ofType, policyFor } from "./scenarios.js";

const policy = () =>
  policyFor(`groups: [{ name: ng, target: { kubernetesVersion: "1.33" } }]\n`, "test");

/** ng on 1.32.3, and someone's update to 1.32.5 started a minute in. */
function worldWithOthersUpdate(releaseVersion = "1.32.5-20250715"): World {
  return World.from(
    managedScenario({
      zones: 2,
      nodes: 4,
      extra: { eks: { startedByOthers: [{ nodegroup: "ng", releaseVersion, at: 60 }] } } as never,
    }),
  );
}

/**
 * Apply two minutes in, the other update under way, with the invariants held to the group as it
 * was before anyone touched it.
 */
async function applyDuringIt(world: World) {
  const { plan: before } = await world.run(observeAndPlan(policy(), "p.yaml", world));
  await world.advance(120_000);
  const log = new EventLog(world.clock);
  const invariants = new Invariants(world, before, { order: ["ng"] });
  log.on(invariants.check);
  const result = await world.run(planAndApply(policy(), "p.yaml", world, log, { runId: "ours" }));
  return { result, events: log.events, invariants };
}

describe("an EKS update someone else started", () => {
  it("the plan says it is in progress, what it targets, and that apply waits for it", async () => {
    const world = worldWithOthersUpdate();
    await world.advance(120_000);
    const { plan } = await world.run(observeAndPlan(policy(), "p.yaml", world));
    const finding = plan.groups[0]?.findings.find((f) => f.code === "update-in-progress");
    expect(finding).toMatchObject({
      severity: "warning",
      message: expect.stringMatching(
        /^node group ng is UPDATING: EKS update \S+ \(VersionUpdate, started .*\) takes it to Kubernetes 1\.32, release 1\.32\.5-20250715, not this plan's target \(Kubernetes 1\.33\): apply waits for it to end, then rolls the group to the target$/,
      ),
    });
  });

  it("apply waits it out, then rolls to the policy's target: the group read back is at it", async () => {
    const world = worldWithOthersUpdate();
    const { result, events, invariants } = await applyDuringIt(world);
    const foreign = [...world.eks.updates.values()].map((u) => u.update.id);
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    const ng = world.eks.nodegroups.get("ng");
    expect([ng?.version, ng?.releaseVersion]).toEqual(["1.33", "1.33.1-20250715"]);
    // Not reported as the roll's own: no eks.update event names it.
    expect(ofType(events, "eks.update").map((e) => e.updateId)).not.toContain(foreign[0]);
    expect(ofType(events, "note").map((e) => e.message)).toContainEqual(
      expect.stringMatching(
        /does not take the group to this plan's target .*: waiting for it to end/,
      ),
    );
    const again = await world.run(observeAndPlan(policy(), "p.yaml", world));
    expect(again.plan.groups[0]?.replacements).toEqual([]);
  });

  it("one that takes the group to the plan's target is followed, not started again", async () => {
    const world = worldWithOthersUpdate("1.33.1-20250715");
    const { result, events, invariants } = await applyDuringIt(world);
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(world.eks.updates.size).toBe(1);
    expect(ofType(events, "note").map((e) => e.message)).toContainEqual(
      expect.stringMatching(
        /following EKS update \S+ \(VersionUpdate\) already in progress, to this plan's target/,
      ),
    );
    expect(world.eks.nodegroups.get("ng")?.releaseVersion).toBe("1.33.1-20250715");
  });

  it("followed to the target, it leaves the policy's updateConfig to be set after it", async () => {
    const world = worldWithOthersUpdate("1.33.1-20250715");
    const policy = policyFor(
      `groups: [{ name: ng, target: { kubernetesVersion: "1.33" }, rollingUpdate: { maxUnavailable: 2 } }]\n`,
      "test",
    );
    const { plan: before } = await world.run(observeAndPlan(policy, "p.yaml", world));
    await world.advance(120_000);
    const log = new EventLog(world.clock);
    const invariants = new Invariants(world, before, { order: ["ng"] });
    log.on(invariants.check);
    const result = await world.run(planAndApply(policy, "p.yaml", world, log, { runId: "ours" }));
    expect(result.result).toBe("success");
    expect(world.eks.nodegroups.get("ng")?.updateConfig.maxUnavailable).toBe(2);
    expect(ofType(log.events, "eks.update").map((e) => e.updateType)).toContain("ConfigUpdate");
  });
});
