// A rollback killed at every event boundary converges (issue 47): a bad release halts a roll at
// its canary; the rollback that follows is run once to count its events; then, for every k, a
// fresh world halted the same way, a rollback killed right after its k-th event, and a fresh
// rollback that must finish the job — the group back on the version it ran before, nothing of
// noderoll's left. The invariants (capacity, PodDisruptionBudgets, in-flight bounds) are checked
// after every event of both rollbacks, against the rollback's own plan.
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { rollBack } from "../../src/app/rollback.js";
import { observeAndPlan, runOptions } from "../../src/engine/index.js";
import { rollbackPolicy } from "../../src/engine/rollback.js";
import type { Policy } from "../../src/policy/index.js";
import { EventLog } from "../../src/ports/index.js";
import { readBefore } from "../../src/roll/before.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import type { World } from "../../src/sandbox/world/world.js";
import { crashAtEvent, leftovers } from "./crash.js";
import { Invariants } from "./invariants.js";
import { policyFor, selfManagedWorld } from "./scenarios.js";

interface Case {
  name: string;
  effect: "neverReady" | "crashLoop";
  policy: Policy;
  gate: string;
}

const CASES: Case[] = [
  {
    name: "a surged canary that never turns Ready",
    effect: "neverReady",
    policy: policyFor(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: 1, postDrainDelay: 0s, interval: 5s } }]\n",
    ),
    gate: "replacements-ready",
  },
  {
    name: "waves in place whose pods crash-loop",
    effect: "crashLoop",
    policy: policyFor(
      "groups: [{ name: w, rollingUpdate: { maxSurge: 0, maxUnavailable: 2, postDrainDelay: 0s, interval: 5s, gates: { bake: 2m } } }]\n",
    ),
    gate: "crash-looping-pods",
  },
];

/** Five nodes, a bad release, and a roll halted by it. */
async function halted(c: Case): Promise<World> {
  const w = selfManagedWorld([{ name: "w", nodes: 5 }], {
    workloads: [{ kind: "Deployment", name: "web", replicas: 10, pdb: { minAvailable: 5 } }],
    faults: { badRelease: [{ group: "w", launchTemplateVersion: 2, effect: c.effect }] },
  } as Partial<ScenarioInput>);
  const r = await w.run(
    planAndApply(c.policy, "p.yaml", w, new EventLog(w.clock), { runId: "bad" }),
    48 * 3600_000,
  );
  expect(r.message).toMatch(new RegExp(`^GateFailed: w: gate ${c.gate} failed`));
  return w;
}

const request = (policy: Policy, log: EventLog, runId: string) => ({
  policy,
  file: "p.yaml",
  options: runOptions({}),
  log,
  apply: { runId },
});

/** The rollback's plan, as its first run makes it: what the invariants hold both runs to. */
async function rollbackPlan(w: World, policy: Policy) {
  const back = rollbackPolicy(policy, await w.run(readBefore(w.cluster, "engine")));
  return (await w.run(observeAndPlan(back.policy, "p.yaml", w))).plan;
}

async function killedAt(c: Case, k: number): Promise<string[]> {
  const w = await halted(c);
  const plan = await rollbackPlan(w, c.policy);
  const order = plan.groups.map((g) => g.name);
  const first = new Invariants(w, plan, { order });
  const dying = crashAtEvent(w, k);
  const log = new EventLog(w.clock);
  log.on(first.check);
  log.on(dying.onEvent);
  await w.run(
    Promise.race([rollBack({ ports: dying.ports }, request(c.policy, log, "dies")), dying.died]),
  );
  const second = new Invariants(w, plan, { order, surgeGivenUp: first.surgesGivenUp() });
  const next = new EventLog(w.clock);
  next.on(second.check);
  const r = await w.run(rollBack({ ports: w }, request(c.policy, next, "resumes")), 48 * 3600_000);
  await w.advance(10 * 60_000);
  const versions = w.instances("w").map((i) => i.ltVersion);
  return [
    ...first.violations.map((v) => `killed rollback: ${v}`),
    ...second.violations.map((v) => `next rollback: ${v}`),
    ...(r.result === "success" ? [] : [`next rollback ${r.result}: ${r.message}`]),
    ...leftovers(w),
    ...(versions.every((v) => v === 1) ? [] : [`versions ${versions.join(",")}`]),
    ...(w.nodes("w").filter((n) => !n.deleted && n.ready).length === 5 ? [] : ["not 5 Ready"]),
  ];
}

describe("a rollback killed at every event boundary", () => {
  it.each(CASES)(
    "after $name converges from every boundary, invariants held",
    async (c) => {
      const w = await halted(c);
      const log = new EventLog(w.clock);
      const whole = await w.run(
        rollBack({ ports: w }, request(c.policy, log, "whole")),
        48 * 3600_000,
      );
      expect(whole.result).toBe("success");
      const n = log.events.length;
      expect(n).toBeGreaterThan(20);
      const failures: string[] = [];
      for (let k = 1; k <= n; k++) {
        const problems = await killedAt(c, k);
        if (problems.length > 0)
          failures.push(`killed after event ${k}: ${problems.slice(0, 3).join("; ")}`);
      }
      expect(failures.slice(0, 10)).toEqual([]);
    },
    600_000,
  );
});
