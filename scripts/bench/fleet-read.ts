// Part 6 of the bench, in-process (issue 49): a fleet of generated clusters, one sandbox account
// on one clock as `fleet plan --sandbox A --sandbox B …` builds them, read as the command reads
// them (app/fleet.ts readFleet), with what it asked of each API and how many clusters it was
// reading at once. The requests are counted where the sandbox counts them, at each world's
// front door (`world.calls`); the clusters at once through the two things readFleet is given
// per cluster: `connect` (a cluster's read begins) and its session's `drive` (the read's
// requests, run in the account's time; the cluster's read ends when the last of them settles).
import { readFleet, type FleetMember, type FleetRead } from "../../src/app/fleet.js";
import { loadFleet } from "../../src/fleet/load.js";
import type { Fleet } from "../../src/fleet/schema.js";
import { loadPolicy } from "../../src/policy/index.js";
import {
  generatePolicyYaml,
  generateScenario,
  type GenerateOptions,
} from "../../src/sandbox/scenarios/generate.js";
import { Account } from "../../src/sandbox/world/account.js";
import { generatedCluster } from "./cluster.js";

/** One cluster of the bench's fleet: its stage, its name and how it is generated. */
export interface FleetCluster {
  stage: string;
  name: string;
  opts: GenerateOptions;
}

/**
 * `count` generated clusters of `nodes` nodes each (as the plan parts generate one, each with a
 * seed of its own), in three stages: a tenth in dev, three tenths in staging, the rest in prod.
 */
export function fleetClusters(
  count: number,
  nodes: number,
  shape: Partial<GenerateOptions> = {},
): FleetCluster[] {
  const dev = Math.max(1, Math.round(count / 10));
  const staging = Math.max(1, Math.round((count * 3) / 10));
  const width = String(count).length < 2 ? 2 : String(count).length;
  return Array.from({ length: count }, (_, i) => {
    const stage = i < dev ? "dev" : i < dev + staging ? "staging" : "prod";
    const first = stage === "dev" ? 0 : stage === "staging" ? dev : dev + staging;
    const name = `${stage}-${String(i - first + 1).padStart(width, "0")}`;
    return {
      stage,
      name,
      opts: { ...generatedCluster(nodes), ...shape, seed: i + 1, cluster: name },
    };
  });
}

/** The fleet file over the policies at `policies/<name>.yaml`: the generated policies' release. */
export const FLEET_YAML = `apiVersion: noderoll.io/v1
kind: Fleet
metadata: { name: bench }
release: { kubernetesVersion: "1.33", releaseVersion: latest }
stages:
  - { name: dev, policies: [policies/dev-*.yaml], maxConcurrency: 2, soak: 24h }
  - { name: staging, policies: [policies/staging-*.yaml], maxConcurrency: "20%", soak: 24h }
  - { name: prod, policies: [policies/prod-*.yaml], maxConcurrency: "10%" }
`;

/** Where a cluster's policy is, from the repository's root (the fleet file's globs). */
export const policyFile = (c: FleetCluster) => `policies/${c.name}.yaml`;

/** The fleet and its members, read in-process (the command line reads the same from files). */
export function fleetOf(clusters: readonly FleetCluster[]): {
  fleet: Fleet;
  members: FleetMember[];
} {
  const loaded = loadFleet(FLEET_YAML, "fleet.yaml");
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("\n"));
  const members = clusters.map((c) => {
    const r = loadPolicy(generatePolicyYaml(c.opts), policyFile(c));
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
    return { stage: c.stage, file: policyFile(c), policy: r.policy };
  });
  return { fleet: loaded.fleet, members };
}

/** The clusters as one sandbox account. */
export const accountOf = (clusters: readonly FleetCluster[]) =>
  new Account(clusters.map((c) => generateScenario(c.opts)));

/** Requests by API: Kubernetes, EKS, Auto Scaling, and any other (EC2, CloudWatch). */
export interface FleetRequests {
  kubernetes: number;
  eks: number;
  autoScaling: number;
  other: number;
  /** "coordination.getLease" → count, every API's calls. */
  byCall: Record<string, number>;
}

const KUBERNETES = /^(core|policy|apps|coordination)\./;

/** Every world's calls since `before` (a copy of each world's calls taken then), by API. */
function requestsSince(account: Account, before: readonly Map<string, number>[]): FleetRequests {
  const out: FleetRequests = { kubernetes: 0, eks: 0, autoScaling: 0, other: 0, byCall: {} };
  account.worlds.forEach((world, i) => {
    for (const [key, total] of world.calls) {
      const n = total - (before[i]?.get(key) ?? 0);
      if (n <= 0) continue;
      out.byCall[key] = (out.byCall[key] ?? 0) + n;
      const api = KUBERNETES.test(key)
        ? "kubernetes"
        : key.startsWith("eks.")
          ? "eks"
          : key.startsWith("autoscaling.")
            ? "autoScaling"
            : "other";
      out[api] += n;
    }
  });
  return out;
}

export interface CountedRead {
  read: FleetRead;
  /** Wall time of readFleet. */
  readMs: number;
  requests: FleetRequests;
  /** The most clusters being read at once. */
  peakClusters: number;
}

/**
 * `fleet plan`'s read of `members` in `account`, `readConcurrency` clusters at a time (readFleet's
 * default when undefined), counted. A cluster is being read from its connect until the last of
 * its session's driven tasks settles.
 */
export async function countedRead(
  account: Account,
  fleet: Fleet,
  members: readonly FleetMember[],
  readConcurrency?: number,
): Promise<CountedRead> {
  const open = new Map<string, number>();
  let peakClusters = 0;
  const change = (cluster: string, by: number) => {
    const n = (open.get(cluster) ?? 0) + by;
    if (n > 0) open.set(cluster, n);
    else open.delete(cluster);
    peakClusters = Math.max(peakClusters, open.size);
  };
  const before = account.worlds.map((w) => new Map(w.calls));
  const started = performance.now();
  const read = await readFleet(fleet, members, {
    runId: "bench-fleet",
    ...(readConcurrency !== undefined && { readConcurrency }),
    connect: async (m) => {
      const cluster = m.policy.cluster.name;
      // The connect's own hold, handed to the first task the session drives.
      change(cluster, 1);
      let connecting = true;
      return {
        ports: account.ports(cluster),
        drive: <T>(task: Promise<T>) => {
          if (!connecting) change(cluster, 1);
          connecting = false;
          return account.run(task).finally(() => change(cluster, -1));
        },
      };
    },
    roll: () => Promise.reject(new Error("a fleet plan rolls nothing")),
  });
  const readMs = performance.now() - started;
  return { read, readMs, requests: requestsSince(account, before), peakClusters };
}
