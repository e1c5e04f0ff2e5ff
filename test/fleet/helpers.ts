// A sandbox fleet for the application-layer tests (issue 49): five clusters in one account on
// one virtual clock — each an EKS managed node group and a self-managed Auto Scaling group —
// in three stages with 24 h soaks, and the deps a run uses: each cluster's roll is the ordinary
// plan and apply, held to the invariants after every event.
import type { FleetDeps, FleetMember } from "../../src/app/fleet.js";
import { fleetLeaseName } from "../../src/app/fleet-store.js";
import { apply, observeAndPlan } from "../../src/engine/index.js";
import { loadFleet } from "../../src/fleet/load.js";
import type { FleetRecord } from "../../src/fleet/record.js";
import type { Fleet } from "../../src/fleet/schema.js";
import { EventLog, type RollEvent } from "../../src/ports/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { Account } from "../../src/sandbox/world/account.js";
import { Invariants } from "../roll/invariants.js";
import { policyFor, ZONES } from "../roll/scenarios.js";

export const NAMES = {
  dev: ["dev-a", "dev-b"],
  staging: ["staging-a"],
  prod: ["prod-a", "prod-b"],
};
export const ALL = Object.values(NAMES).flat();
export const HOUR = 3_600_000;
/** The AMIs of launch template versions 1 and 2 in every cluster. */
export const IMAGES = ["ami-00000000000000001", "ami-00000000000000002"] as const;

export function cluster(
  name: string,
  seed: number,
  extra: Partial<ScenarioInput> = {},
): ScenarioInput {
  return {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name },
    seed,
    cluster: { name, version: "1.33" },
    releases: { "1.33": ["1.33.1-20250715", "1.33.4-20250904"] },
    zones: ZONES.slice(0, 3),
    nodeGroups: [
      {
        name: `${name}-system`,
        type: "managed",
        version: "1.33",
        releaseVersion: "1.33.1-20250715",
        size: { min: 1, max: 6, desired: 2 },
        updateConfig: { maxUnavailable: 1 },
        capacity: { cpu: 4, memory: "16Gi", pods: 40 },
      },
      {
        name: `${name}-workers`,
        type: "self-managed",
        version: "1.33",
        size: { min: 0, max: 6, desired: 2 },
        capacity: { cpu: 4, memory: "16Gi", pods: 40 },
        // One node image per release for the whole fleet, as a team's image pipeline makes it.
        launchTemplate: { versions: 2, use: "$Latest", images: [...IMAGES] },
        instances: [{ version: 1, count: 2 }],
      },
    ],
    workloads: [{ kind: "Deployment", name: "web", replicas: 3, pdb: { maxUnavailable: 1 } }],
    ...extra,
  };
}

export const FLEET_YAML = `apiVersion: noderoll.io/v1
kind: Fleet
metadata: { name: eks }
release: { kubernetesVersion: "1.33", releaseVersion: latest }
stages:
  - { name: dev, policies: [dev-*.yaml], maxConcurrency: 2, soak: 24h }
  - { name: staging, policies: [staging-*.yaml], soak: 24h }
  - { name: prod, policies: [prod-*.yaml], maxConcurrency: 1 }
`;

export interface FleetWorld {
  account: Account;
  fleet: Fleet;
  members: FleetMember[];
  deps: FleetDeps;
  starts: { cluster: string; at: number }[];
  invariants: Map<string, Invariants>;
  /** Every cluster's roll events, as they came. */
  events: Map<string, RollEvent[]>;
  /** Told each event of a cluster's roll, after the invariants (a test's crash, say). */
  hooks: Map<string, (e: RollEvent) => void>;
}

export async function recordOf(account: Account, cluster: string): Promise<FleetRecord> {
  const lease = await account
    .ports(cluster)
    .cluster.getLease("kube-system", fleetLeaseName(cluster));
  return JSON.parse(lease.metadata.annotations!["noderoll.io/fleet"]!) as FleetRecord;
}

export interface FleetWorldOptions {
  /** Each cluster's policy body (its groups, defaults), by cluster name. */
  policyBody?: (name: string) => string;
  /** CloudWatch alarms every cluster's world has, each OK at first, named NAME-CLUSTER. */
  alarms?: string[];
}

const GROUPS = (n: string) =>
  `groups:\n  - { name: ${n}-system }\n  - { name: ${n}-workers, target: { launchTemplateVersion: $Latest } }\n`;

/** The fleet over a fresh account; `extra` per cluster (faults, say). */
export function fleetWorld(
  extra: Record<string, Partial<ScenarioInput>> = {},
  options: FleetWorldOptions = {},
): FleetWorld {
  const account = Account.from(
    ALL.map((n, i) =>
      cluster(n, i + 1, {
        ...(options.alarms && { alarms: options.alarms.map((name) => ({ name: `${name}-${n}` })) }),
        ...extra[n],
      }),
    ),
  );
  const loaded = loadFleet(FLEET_YAML, "fleet.yaml");
  if (!loaded.ok) throw new Error("fleet");
  const members: FleetMember[] = Object.entries(NAMES).flatMap(([stage, names]) =>
    names.map((n) => ({
      stage,
      file: `${n}.yaml`,
      policy: policyFor((options.policyBody ?? GROUPS)(n), n),
    })),
  );
  const invariants = new Map<string, Invariants>();
  const events = new Map<string, RollEvent[]>();
  const hooks = new Map<string, (e: RollEvent) => void>();
  const starts: { cluster: string; at: number }[] = [];
  const deps: FleetDeps = {
    runId: "fleet-test",
    connect: async (m) => ({
      ports: account.ports(m.policy.cluster.name),
      drive: (t) => account.run(t),
    }),
    // The ordinary apply, held to the invariants after every event.
    roll: async (m, session, policy) => {
      const name = m.policy.cluster.name;
      starts.push({ cluster: name, at: account.clock.nowMs() });
      const { plan } = await observeAndPlan(policy, m.file, session.ports);
      const inv = new Invariants(account.world(name), plan, {
        deleteAfterDrainTimeout: false,
        order: plan.groups.map((g) => g.name),
      });
      invariants.set(name, inv);
      const log = new EventLog(account.clock);
      log.on(inv.check);
      log.on((e) => events.set(name, [...(events.get(name) ?? []), e]));
      log.on((e) => hooks.get(name)?.(e));
      const r = await apply(policy, plan, session.ports, log, { runId: `fleet-${name}` });
      return { result: r.result, message: r.message };
    },
  };
  return { account, fleet: loaded.fleet, members, deps, starts, invariants, events, hooks };
}
