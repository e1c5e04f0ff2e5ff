// Part 3 of the bench: rolling every node of a generated self-managed group (maxSurge 10% of the
// nodes, maxUnavailable 0) in virtual time, against the lower bound for its budgets and EKS's
// own managed update of the same cluster at the same budget; the requests per replaced node by
// verb and resource, and where the roll's time went (critical-path.ts).
import { apply } from "../../src/engine/apply.js";
import { Planner } from "../../src/engine/observe.js";
import { loadPolicy, type Policy } from "../../src/policy/index.js";
import { EventLog } from "../../src/ports/index.js";
import { generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { World } from "../../src/sandbox/world/world.js";
import { CATEGORIES, criticalPath, type Split } from "./critical-path.js";
import { bootOf, lowerBound, pdbSerialOf, shutdownOf, type Bound } from "./lower-bound.js";
import { requestsSince, type Requests } from "./requests.js";
import { snapshotBefore, traceOf } from "./trace.js";
import { BENCH_GATES, gateCost, withSignals, type GateCost } from "./gates.js";

export const ROLL_SETTINGS = { postDrainDelayMs: 5000, intervalMs: 15_000, count: 1 };

export interface RollFigures {
  nodes: number;
  replaced: number;
  engine: string;
  budgets: { maxSurge: number; maxUnavailable: number };
  result: string;
  virtualMinutes: number;
  lowerBoundMinutes: number;
  lowerBound: Bound;
  eksMinutes: number;
  eksBudget: string;
  requestsPerReplacedNode: number;
  requests: Requests;
  podsEvictedPerReplacedNode: number;
  /** Minutes of the roll by what it waited for; they add up to virtualMinutes. */
  criticalPath: Split;
  realMs: number;
  /** What reading the health gates cost (gates.ts). */
  gates: GateCost;
}

const minutes = (ms: number) => Math.round((ms / 60_000) * 100) / 100;

function policyFor(world: World, surge: number): Policy {
  const s = ROLL_SETTINGS;
  const groups = world.scenario.nodeGroups.map(
    (g) => `  - name: ${g.name}\n    target: { launchTemplateVersion: $Latest }\n`,
  );
  const text = `apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: bench }\ncluster: { name: ${world.scenario.cluster.name}, region: eu-west-1 }\ndefaults: { maxSurge: ${surge}, maxUnavailable: 0, postDrainDelay: ${s.postDrainDelayMs / 1000}s, interval: ${s.intervalMs / 1000}s, validation: { count: ${s.count} }, ${BENCH_GATES} }\ngroups:\n${groups.join("")}`;
  const r = loadPolicy(text, "bench.yaml");
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.policy;
}

/** EKS's own update of the same cluster as a managed node group, maxUnavailable as a percentage. */
async function eksMinutes(nodes: number, percentage: number): Promise<number> {
  const eks = new World(
    generateScenario({
      nodes,
      groups: 1,
      podsPerNode: 30,
      seed: 2,
      kind: "managed",
      maxUnavailablePercentage: percentage,
    }),
  );
  const ng = [...eks.eks.nodegroups.keys()][0] as string;
  const name = eks.scenario.cluster.name;
  const start = eks.clock.nowMs();
  await eks.run(
    async () => {
      const u = await eks.cloud.eks.updateNodegroupVersion({
        clusterName: name,
        nodegroupName: ng,
        version: "1.33",
      });
      while ((await eks.cloud.eks.describeUpdate({ name, updateId: u.id })).status === "InProgress")
        await eks.clock.sleep(30_000);
    },
    30 * 24 * 3600_000,
  );
  return minutes(eks.clock.nowMs() - start);
}

export async function measureRoll(nodes: number): Promise<RollFigures> {
  const surge = Math.max(1, Math.round(nodes / 10));
  const world = World.from(
    withSignals(
      generateScenario({ nodes, groups: 1, podsPerNode: 30, seed: 2, kind: "self-managed" }),
    ),
  );
  const group = world.scenario.nodeGroups[0]?.name as string;
  const policy = policyFor(world, surge);
  // The plan the roll makes first, made here (with the planner apply then uses) to know the
  // nodes to replace and the budgets; its reads are not counted against the roll.
  const planner = new Planner(policy, "bench.yaml");
  const { plan: full } = await world.run(planner.observe(world));
  const plan = full.groups.find((g) => g.name === group);
  if (!plan) throw new Error(`no plan for ${group}`);
  const before = snapshotBefore(world, group);
  const shutdownMs = shutdownOf(world, before.nodes);
  const pdbSerialMs = pdbSerialOf(world, before.nodes);
  const calls = new Map(world.calls);
  const log = new EventLog(world.clock);
  const t0 = performance.now();
  const result = await world.run(
    apply(policy, full, world, log, { runId: "bench", planner }),
    30 * 24 * 3600_000,
  );
  const realMs = Math.round(performance.now() - t0);
  const end = world.clock.nowMs();
  const split = criticalPath(traceOf(world, plan, log.events, before, end));
  const bound = lowerBound({
    shutdownMs,
    window: Math.max(1, plan.budgets.maxSurge + plan.budgets.maxUnavailable),
    canary: plan.schedule.waves[0]?.canary === true,
    ...ROLL_SETTINGS,
    bootMs: bootOf(world),
    pdbSerialMs,
  });
  const requests = requestsSince(world.calls, calls);
  const replaced = plan.replacements.length;
  const evicted = log.events.reduce((n, e) => n + (e.type === "node.drain.end" ? e.evicted : 0), 0);
  const percentage = Math.max(1, Math.round((100 * surge) / nodes));
  return {
    nodes,
    replaced,
    engine: "noderoll (self-managed, kOps semantics)",
    budgets: { maxSurge: plan.budgets.maxSurge, maxUnavailable: plan.budgets.maxUnavailable },
    result: result.result,
    virtualMinutes: minutes(end - before.start),
    lowerBoundMinutes: minutes(bound.totalMs),
    lowerBound: bound,
    eksMinutes: await eksMinutes(nodes, percentage),
    eksBudget: `maxUnavailable ${percentage}%`,
    requestsPerReplacedNode:
      Math.round(((requests.kubernetes + requests.aws) / replaced) * 10) / 10,
    requests,
    podsEvictedPerReplacedNode: Math.round((evicted / replaced) * 10) / 10,
    criticalPath: Object.fromEntries(CATEGORIES.map((c) => [c, minutes(split[c])])) as Split,
    realMs,
    gates: gateCost(world.calls, calls, end - before.start, log.events),
  };
}
