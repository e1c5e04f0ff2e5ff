// Small hand-built live states for planning tests.
import { loadPolicy, type Policy } from "../../src/policy/index.js";
import {
  nodePods,
  type InstanceInfo,
  type LabelSelector,
  type LiveGroup,
  type ManagedGroupInfo,
  type NodeInfo,
  type PdbInfo,
  type PodInfo,
  type SelfManagedGroupInfo,
  type Snapshot,
} from "../../src/plan/index.js";

export const NOW = new Date("2026-11-21T10:00:00Z");
const DAY = 86_400_000;

export function policy(body: string): Policy {
  const r = loadPolicy(
    `apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: prod }\ncluster: { name: prod, region: eu-west-1 }\n${body}`,
    "p.yaml",
  );
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.policy;
}

export function instances(
  prefix: string,
  count: number,
  zones: string[],
  ltVersion: number,
  ageDays = 1,
): InstanceInfo[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `i-${prefix}${String(i).padStart(3, "0")}`,
    zone: zones[i % zones.length] as string,
    launchTemplateVersion: ltVersion,
    lifecycleState: "InService",
    launchTime: new Date(NOW.getTime() - ageDays * DAY),
  }));
}

export function selfManaged(
  name: string,
  insts: InstanceInfo[],
  lt: { latest: number; configured?: string },
  extra: Partial<SelfManagedGroupInfo> = {},
): SelfManagedGroupInfo {
  const zones = [...new Set(insts.map((i) => i.zone))].sort();
  const configured = lt.configured ?? "$Latest";
  const resolved =
    configured === "$Latest" ? lt.latest : configured === "$Default" ? 1 : Number(configured);
  return {
    kind: "self-managed",
    name,
    clusters: ["prod"],
    zones,
    min: 0,
    max: insts.length * 2,
    desired: insts.length,
    instances: insts,
    launchTemplate: { id: `lt-${name}`, configured, resolved, latest: lt.latest, default: 1 },
    mixedInstances: false,
    ...extra,
  };
}

export function managed(
  name: string,
  insts: InstanceInfo[],
  extra: Partial<ManagedGroupInfo> = {},
): ManagedGroupInfo {
  const zones = [...new Set(insts.map((i) => i.zone))].sort();
  return {
    kind: "managed",
    name,
    clusters: ["prod"],
    zones,
    min: 1,
    max: insts.length + 2,
    desired: insts.length,
    instances: insts,
    version: "1.32",
    releaseVersion: "1.32.9-20251001",
    updateConfig: { maxUnavailable: 1 },
    status: "ACTIVE",
    healthIssues: [],
    ...extra,
  };
}

export function nodesFor(
  group: LiveGroup,
  annotate: Record<string, Record<string, string>> = {},
): NodeInfo[] {
  return group.instances.map((i) => ({
    name: `ip-${i.id.slice(2)}.eu-west-1.compute.internal`,
    instanceId: i.id,
    group: group.name,
    zone: i.zone,
    labels: { "topology.kubernetes.io/zone": i.zone },
    annotations: annotate[i.id] ?? {},
    taints: [],
    unschedulable: false,
    ready: true,
    createdAt: i.launchTime ?? NOW,
  }));
}

export function pod(name: string, node: string, extra: Partial<PodInfo> = {}): PodInfo {
  return {
    namespace: "default",
    name,
    nodeName: node,
    labels: { app: name.replace(/-[a-z0-9]+$/, "") },
    owner: { kind: "ReplicaSet", name: `${name.replace(/-[a-z0-9]+$/, "")}-rs` },
    workload: `Deployment/default/${name.replace(/-[a-z0-9]+$/, "")}`,
    phase: "Running",
    ready: true,
    tolerations: [],
    terminationGracePeriodSeconds: 30,
    containers: [{ name: "app", readinessProbe: true }],
    ...extra,
  };
}

export function pdb(name: string, app: string, spec: Partial<PdbInfo>): PdbInfo {
  return {
    namespace: "default",
    name,
    selector: { matchLabels: { app } },
    disruptionsAllowed: 1,
    currentHealthy: 2,
    desiredHealthy: 1,
    expectedPods: 2,
    ...spec,
  };
}

/** A budget of `namespace` selecting by `selector` (none: a budget that selects no pod). */
export function budget(namespace: string, name: string, selector?: LabelSelector): PdbInfo {
  return pdb(name, "", { namespace, selector });
}

/** A snapshot with its pods made, to compare snapshots whole. */
export const whole = (s: Snapshot) => ({ ...s, pods: s.pods.all() });

/** A snapshot's parts, its pods given as a list. */
export type SnapshotParts = Omit<Partial<Snapshot>, "pods"> & { pods?: PodInfo[] };

export function snapshot(groups: LiveGroup[], parts: SnapshotParts = {}): Snapshot {
  const nodes = groups.flatMap((g) => nodesFor(g));
  const { pods = [], ...extra } = parts;
  return {
    cluster: { name: "prod", region: "eu-west-1", version: "1.33" },
    takenAt: NOW,
    groups,
    latestReleaseVersions: { "1.33": "1.33.5-20251101", "1.32": "1.32.9-20251101" },
    nodes,
    pods: nodePods(pods),
    pdbs: [],
    workloads: [],
    clusterNodeCount: nodes.length,
    ...extra,
  };
}
