// Issue 45, item 1: the plan is the contract. apply(plan) carries out the plan it is given; before
// each group it plans the group again from fresh state only to check that the plan's decisions
// still hold there — a target that moved, budgets or settings that changed, a group added or
// gone, a new blocker are a typed refusal (StalePlan) naming the decision, not a silent re-plan —
// while nodes that joined or left since, and the roll's own progress, are taken as they are.
import { describe, expect, it } from "vitest";
import { apply } from "../../src/engine/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import type { Plan } from "../../src/plan/index.js";
import { EventLog } from "../../src/ports/index.js";
import type { World } from "../../src/sandbox/world/world.js";
import { pdbRecord } from "../../src/sandbox/world/build.js";
import { Invariants } from "./invariants.js";
import { ofType, policyFor, selfManagedWorld } from "./scenarios.js";

const POLICY = (maxSurge = 2) =>
  policyFor(
    `groups:\n  - { name: w, target: { launchTemplateVersion: $Latest }, rollingUpdate: { maxSurge: ${maxSurge}, maxUnavailable: 0 } }\n`,
  );

async function planned(world: World, maxSurge = 2): Promise<Plan> {
  return (await world.run(observeAndPlan(POLICY(maxSurge), "p.yaml", world))).plan;
}

/** Apply `plan` with `policy`, the invariants held to the plan. */
async function carryOut(world: World, plan: Plan, maxSurge = 2) {
  const log = new EventLog(world.clock);
  const invariants = new Invariants(world, plan, { order: plan.groups.map((g) => g.name) });
  log.on(invariants.check);
  const result = await world.run(apply(POLICY(maxSurge), plan, world, log, { runId: "apply" }));
  return { result, events: log.events, invariants };
}

describe("apply(plan): a decision that no longer holds is refused, naming it", () => {
  it("the target moved ($Latest is a newer launch template version now)", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const plan = await planned(world);
    const t = [...world.ec2.templates.values()][0]!;
    world.ec2.addTemplateVersion(t, { ...t.versions.at(-1)! });
    const { result, events } = await carryOut(world, plan);
    expect(result).toMatchObject({
      result: "failure",
      message: expect.stringMatching(
        /^StalePlan: w: the plan no longer holds — target: planned launchTemplateVersion 2, now launchTemplateVersion 3\. Nothing of it was started on w; plan again and review it/,
      ),
    });
    expect(ofType(events, "node.cordon")).toHaveLength(0);
    expect(ofType(events, "instance.detach")).toHaveLength(0);
  });

  it("the budgets changed (the policy applied is not the one planned: maxSurge 2 → 1)", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const plan = await planned(world, 2);
    const { result, events } = await carryOut(world, plan, 1);
    expect(result.message).toMatch(
      /^StalePlan: w: the plan no longer holds — budgets: planned maxUnavailable 0, maxSurge 2, now maxUnavailable 0, maxSurge 1\./,
    );
    expect(ofType(events, "instance.detach")).toHaveLength(0);
  });

  it("a new blocker (a PodDisruptionBudget that allows nothing, made since)", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }], {
      workloads: [{ kind: "Deployment", name: "web", replicas: 2 }],
    } as never);
    const plan = await planned(world);
    // A budget over web that allows no disruption: every replica must stay.
    world.kube.addPdb(
      pdbRecord(
        world.kube,
        "default",
        "web-all",
        { matchLabels: { app: "web" } },
        {
          minAvailable: 2,
        },
      ),
    );
    const { result } = await carryOut(world, plan);
    expect(result.message).toMatch(
      /^StalePlan: w: the plan no longer holds — blockers: new since the plan: PodDisruptionBudget default\/web-all/,
    );
  });

  it("a group added to the policy since the plan", async () => {
    const world = selfManagedWorld([
      { name: "w", nodes: 2 },
      { name: "v", nodes: 2 },
    ]);
    const plan = (
      await world.run(observeAndPlan(policyFor("groups: [{ name: w }]\n"), "p.yaml", world))
    ).plan;
    const log = new EventLog(world.clock);
    const result = await world.run(
      apply(policyFor("groups: [{ name: w }, { name: v }]\n"), plan, world, log, { runId: "a" }),
    );
    expect(result.message).toMatch(
      /^StalePlan: the plan no longer holds — group: v is in the policy, not in the plan\./,
    );
    expect(ofType(log.events, "lock.acquire")).toHaveLength(0);
  });
});

describe("apply(plan): what is not a decision is taken as it is", () => {
  it("a node that left since the plan (scaled in by someone): the roll goes on without it", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const plan = await planned(world);
    const gone = world.instances("w")[0]!;
    await world.run(
      world.cloud.autoScaling.terminateInstanceInAutoScalingGroup({
        InstanceId: gone.id,
        ShouldDecrementDesiredCapacity: true,
      }),
    );
    await world.advance(60_000);
    const { result, invariants, events } = await carryOut(world, plan);
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
    expect(ofType(events, "instance.terminate").map((e) => e.instance)).not.toContain(gone.id);
    expect(ofType(events, "group.start")[0]).toMatchObject({ replace: 3 });
  });

  it("the roll's own progress: a run killed halfway is carried on from the same plan", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }]);
    const plan = await planned(world);
    const stop = new AbortController();
    const first = new EventLog(world.clock);
    first.on((e) => {
      if (e.type === "instance.terminate") stop.abort();
    });
    await world.run(apply(POLICY(), plan, world, first, { runId: "first", signal: stop.signal }));
    const { result, invariants } = await carryOut(world, plan);
    expect(invariants.violations).toEqual([]);
    expect(result.result).toBe("success");
  });
});
