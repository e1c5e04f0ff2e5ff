// A hostile world for engine tests: small clusters of each kind, the fault families a scenario
// can ask for, and a run that must end by itself — in success or in a failure that names what
// failed — with the invariants held after every event.
import { observeAndPlan } from "../../src/engine/index.js";
import { planAndApply } from "../../src/app/apply.js";
import { type ApplyOptions, type ApplyResult } from "../../src/engine/apply.js";
import type { Plan } from "../../src/plan/index.js";
import type { Policy } from "../../src/policy/index.js";
import { EventLog, type Cloud, type Cluster, type Clock } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { Invariants } from "./invariants.js";
import { policyFor, selfManagedWorld } from "./scenarios.js";
import { leftovers as leftoversOf } from "./crash.js";

type Faults = NonNullable<ScenarioInput["faults"]>;

export interface Family {
  name: string;
  faults: Faults;
}

/** Each family of fault the sandbox can play, at rates that strike many times in a roll. */
export const FAMILIES: Family[] = [
  {
    name: "connections reset, answers lost",
    faults: {
      network: [
        { api: "kubernetes", reset: 0.03, lostAnswer: 0.02 },
        { api: "aws", reset: 0.03, lostAnswer: 0.02 },
      ],
    },
  },
  {
    name: "calls that stall until the client's timeout",
    faults: {
      network: [
        { api: "kubernetes", stall: 0.02 },
        { api: "aws", stall: 0.02 },
      ],
    },
  },
  {
    name: "slow answers",
    faults: {
      network: [
        { api: "kubernetes", slow: 0.2, delay: "20s" },
        { api: "aws", slow: 0.2, delay: "20s" },
      ],
    },
  },
  { name: "watches that stall silently", faults: { watch: [{ stall: 0.8, within: "1m" }] } },
  { name: "410 Gone mid-watch", faults: { watch: [{ gone: 0.8, within: "1m" }] } },
  { name: "watches that end early", faults: { watch: [{ endEarly: 0.8, within: "1m" }] } },
  {
    name: "API throttling",
    faults: {
      throttle: [
        { api: "kubernetes", rate: 0.3, retryAfter: 2 },
        { api: "aws", rate: 0.3, retryAfter: 1 },
      ],
    },
  },
  { name: "AWS try-later refusals", faults: { tryLater: [{ rate: 0.8 }] } },
];

const WORKLOADS: NonNullable<ScenarioInput["workloads"]> = [
  { kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 2 } },
  { kind: "StatefulSet", name: "db", replicas: 2, pdb: { maxUnavailable: 1 } },
  { kind: "DaemonSet", name: "agent", namespace: "kube-system" },
];

export interface Engine {
  name: "managed" | "self-managed";
  world: (faults: Faults, seed?: number) => World;
  policy: Policy;
}

export const ENGINES: Engine[] = [
  {
    name: "managed",
    world: (faults) =>
      World.from(
        managedScenario({
          zones: 2,
          nodes: 4,
          maxUnavailable: 1,
          workloads: WORKLOADS,
          extra: { faults },
        }),
      ),
    policy: policyFor('groups: [{ name: ng, target: { kubernetesVersion: "1.33" } }]\n', "test"),
  },
  {
    name: "self-managed",
    world: (faults, seed = 11) =>
      selfManagedWorld([{ name: "w", nodes: 4 }], { workloads: WORKLOADS, faults, seed }),
    policy: policyFor(
      "defaults: { postDrainDelay: 5s, interval: 5s }\ngroups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } }]\n",
    ),
  },
];

/** A failure that says what failed: one of the engine's named codes, or an API call named. */
export const NAMED =
  /^(PodEvictionFailure|NodeCreationFailure|ValidationFailed|UpdateFailed|LockHeld|Cancelled|Deadline): |(EKS|Auto Scaling|EC2|SSM|Kubernetes API) .+ failed after \d+ attempts?: .+ Running it again continues/;

export interface Ports {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
}

/** Virtual time a run may take before the test calls it a hang. */
export const RUN_LIMIT_MS = 24 * 3600_000;

/** The plan before anything was rolled: the sizes every later run is held to. */
export async function initialPlan(world: World, engine: Engine): Promise<Plan> {
  return (await world.run(observeAndPlan(engine.policy, "p.yaml", world), RUN_LIMIT_MS)).plan;
}

/** One apply over `ports` (the world's, or ports that die), the invariants checked throughout. */
export async function checkedRun(
  world: World,
  engine: Engine,
  plan: Plan,
  ports: Ports,
  options: Partial<ApplyOptions> & { runId: string },
  onEvent?: (e: unknown) => void,
  died?: Promise<void>,
): Promise<{ result?: ApplyResult; events: number; violations: string[] }> {
  const invariants = new Invariants(world, plan, { order: plan.groups.map((g) => g.name) });
  const log = new EventLog(world.clock);
  log.on(invariants.check);
  if (onEvent) log.on(onEvent);
  const running = planAndApply(engine.policy, "p.yaml", ports, log, options);
  const result = await world.run(died ? Promise.race([running, died]) : running, RUN_LIMIT_MS);
  return {
    ...(result && { result }),
    events: log.events.length,
    violations: invariants.violations,
  };
}

/** What a finished roll must not leave behind; only noderoll's own cordons count here. */
export const leftovers = (world: World) => leftoversOf(world, "noderoll's");

/** How many times the world played a fault (or throttled a call). */
export function faultsPlayed(world: World): number {
  return world.timeline.of("api.fault").length + world.timeline.of("api.throttled").length;
}
