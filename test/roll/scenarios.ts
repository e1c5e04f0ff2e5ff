// Worlds and policies for engine tests, small enough to read.
import { loadPolicy, type Policy } from "../../src/policy/index.js";
import { buildPlan, observeAndPlan } from "../../src/engine/index.js";
import type { Plan } from "../../src/plan/index.js";
import { type PlanAndApplyOptions } from "../../src/app/apply.js";
import { apply, type ApplyResult } from "../../src/engine/apply.js";
import { EventLog } from "../../src/ports/index.js";
import type { RollEvent } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { Invariants } from "./invariants.js";

export const ZONES = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];

export interface GroupSpec {
  name: string;
  nodes: number;
  /** Instances already on the latest launch template version. */
  upToDate?: number;
  zones?: number;
  /**
   * List the instances needing update zone by zone (a, a, a, b, b, c, c) rather than round-robin,
   * so that the plan's order differs from the zone-interleaved one.
   */
  zoneBlocks?: boolean;
  /** Auto Scaling processes suspended from the start (the scenario's suspendedProcesses). */
  suspended?: string[];
  /** A warm pool of `size` instances launched from template `version` (1: the old one). */
  warmPool?: { size: number; version?: number };
}

function instancesOf(g: GroupSpec): { version: number; count: number; zone?: string }[] {
  const old = g.nodes - (g.upToDate ?? 0);
  const zones = ZONES.slice(0, g.zones ?? 3);
  const outdated = g.zoneBlocks
    ? zones
        .map((zone, i) => ({
          version: 1,
          count: Math.floor(old / zones.length) + (i < old % zones.length ? 1 : 0),
          zone,
        }))
        .filter((x) => x.count > 0)
    : old > 0
      ? [{ version: 1, count: old }]
      : [];
  return [...outdated, ...(g.upToDate ? [{ version: 2, count: g.upToDate }] : [])];
}

export function selfManagedWorld(groups: GroupSpec[], extra: Partial<ScenarioInput> = {}): World {
  const input: ScenarioInput = {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name: "engine" },
    seed: 11,
    cluster: { name: "engine", version: "1.33" },
    zones: ZONES,
    nodeGroups: groups.map((g) => ({
      name: g.name,
      type: "self-managed" as const,
      version: "1.33",
      zones: ZONES.slice(0, g.zones ?? 3),
      capacity: { cpu: 8, memory: "32Gi", pods: 60 },
      size: { min: 0, max: g.nodes * 3, desired: g.nodes },
      launchTemplate: { versions: 2, use: "$Latest" as const },
      instances: instancesOf(g),
      labels: { pool: g.name },
      ...(g.suspended && { suspendedProcesses: g.suspended }),
      ...(g.warmPool && { warmPool: g.warmPool }),
    })),
    ...extra,
  } as ScenarioInput;
  return World.from(input);
}

export function policyFor(body: string, cluster = "engine"): Policy {
  const r = loadPolicy(
    `apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: ${cluster} }\ncluster: { name: ${cluster}, region: eu-west-1 }\n${body}`,
    "policy.yaml",
  );
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.policy;
}

export interface Rolled {
  result: ApplyResult;
  events: RollEvent[];
  plan: Plan;
  invariants: Invariants;
}

/** Plan, then apply with the invariants checked after every event. */
export async function roll(
  world: World,
  policy: Policy,
  options: Partial<PlanAndApplyOptions> = {},
  limitMs = 48 * 3600_000,
  /** Called after the invariants with every event, to act on the world mid-roll. */
  onEvent?: (e: RollEvent) => void,
): Promise<Rolled> {
  const { plan } = await world.run(
    observeAndPlan(policy, "policy.yaml", world, {
      replaceAll: options.replaceAll ?? false,
      deleteAfterDrainTimeout: options.deleteAfterDrainTimeout ?? false,
      ...(options.groups && { groups: options.groups }),
    }),
  );
  const log = new EventLog(world.clock);
  const order = plan.groups.map((g) => g.name);
  // PodDisruptionBudgets may be gone past where a group's settings (the policy's, or the run's)
  // say deleteAfterDrainTimeout.
  const invariants = new Invariants(world, plan, {
    deleteAfterDrainTimeout: plan.groups.some((g) => g.settings?.deleteAfterDrainTimeout),
    order,
  });
  log.on(invariants.check);
  if (onEvent) log.on(onEvent);
  // The plan the invariants hold the roll to is the plan apply carries out.
  const result = await world.run(
    apply(policy, plan, world, log, { runId: "test-run", ...options }),
    limitMs,
  );
  return { result, events: log.events, plan, invariants };
}

export const ofType = <T extends RollEvent["type"]>(events: RollEvent[], type: T) =>
  events.filter((e): e is Extract<RollEvent, { type: T }> => e.type === type);

/** The most nodes cordoned and not yet terminated at once. */
export function maxInFlight(events: RollEvent[]): number {
  let now = 0;
  let max = 0;
  for (const e of events) {
    if (e.type === "node.cordon") now++;
    if (e.type === "instance.terminate") now--;
    max = Math.max(max, now);
  }
  return max;
}

export { buildPlan };
