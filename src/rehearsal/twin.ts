// The twin: a sandbox scenario built from the live cluster — its node groups as the plan observed
// them (kind, versions, launch template versions per instance and zone, sizes, updateConfig),
// their nodes' capacity, labels and taints, every workload with its replicas, requests,
// tolerations, node selector, grace period, preStop and start-up times, and every
// PodDisruptionBudget. Timings the cluster cannot show come from REHEARSAL_TIMINGS.
import type { LiveGroup, Snapshot } from "../plan/index.js";
import { instanceIdOf, type Node } from "../ports/index.js";
import type { ScenarioInput } from "../sandbox/scenarios/schema.js";
import type { LiveCluster } from "./live.js";
import { twinTimings, type Timings } from "./timings.js";
import { twinPdbs, twinWorkloads } from "./workloads.js";

type GroupInput = ScenarioInput["nodeGroups"][number];

/** Labels and taints the platform puts on nodes, not the group's own: the twin makes its own. */
const PLATFORM =
  /^(kubernetes\.io|k8s\.io|node\.kubernetes\.io|topology\.kubernetes\.io|beta\.kubernetes\.io|eks\.amazonaws\.com|alpha\.eksctl\.io|noderoll\.io|node-role\.kubernetes\.io|failure-domain\.beta\.kubernetes\.io)\//;

function common<T>(items: T[][], key: (t: T) => string): T[] {
  if (items.length === 0) return [];
  const [first, ...rest] = items;
  return (first ?? []).filter((t) => rest.every((l) => l.some((u) => key(u) === key(t))));
}

function nodesOf(g: LiveGroup, live: LiveCluster): Node[] {
  const ids = new Set(g.instances.map((i) => i.id));
  return live.nodes.filter((n) => ids.has(instanceIdOf(n) ?? ""));
}

function ownLabels(nodes: Node[]): Record<string, string> {
  const pairs = common(
    nodes.map((n) => Object.entries(n.metadata.labels ?? {}).filter(([k]) => !PLATFORM.test(k))),
    ([k, v]) => `${k}=${v}`,
  );
  return Object.fromEntries(pairs);
}

function ownTaints(nodes: Node[]) {
  return common(
    nodes.map((n) =>
      (n.spec.taints ?? []).filter((t) => !PLATFORM.test(`${t.key}/`) && !PLATFORM.test(t.key)),
    ),
    (t) => `${t.key}=${t.value ?? ""}:${t.effect}`,
  ).map((t) => ({
    key: t.key,
    ...(t.value !== undefined && { value: t.value }),
    effect: t.effect,
  }));
}

function capacity(nodes: Node[]) {
  const a = nodes[0]?.status.allocatable ?? nodes[0]?.status.capacity ?? {};
  return {
    ...(a.cpu && { cpu: a.cpu }),
    ...(a.memory && { memory: a.memory }),
    ...(a.pods && { pods: Number(a.pods) }),
  };
}

function groupBase(g: LiveGroup, live: LiveCluster) {
  const nodes = nodesOf(g, live);
  const type = nodes[0]?.metadata.labels?.["node.kubernetes.io/instance-type"];
  return {
    name: g.name,
    zones: g.zones.length > 0 ? g.zones : [...new Set(g.instances.map((i) => i.zone))].sort(),
    ...(type && { instanceType: type }),
    capacity: capacity(nodes),
    size: { min: g.min, max: Math.max(g.max, g.desired), desired: g.desired },
    labels: ownLabels(nodes),
    taints: ownTaints(nodes),
  };
}

/** Instances per launch template version and zone, as the scenario lists them. */
function instanceCounts(g: LiveGroup): { version: number; count: number; zone: string }[] {
  const counts = new Map<string, { version: number; count: number; zone: string }>();
  for (const i of g.instances) {
    if (i.detachedForSurge || /^Terminat/.test(i.lifecycleState)) continue;
    const version = i.launchTemplateVersion ?? g.launchTemplate?.resolved ?? 1;
    const key = `${version}/${i.zone}`;
    const c = counts.get(key) ?? { version, count: 0, zone: i.zone };
    c.count++;
    counts.set(key, c);
  }
  return [...counts.values()];
}

function template(g: LiveGroup) {
  const lt = g.launchTemplate;
  if (!lt) return {};
  const use =
    lt.configured === "$Latest" || lt.configured === "$Default"
      ? lt.configured
      : Number(lt.configured);
  return { launchTemplate: { versions: lt.latest, default: lt.default, use } };
}

/** What each kind of group is in a scenario, beyond what every group has. */
const KIND_FIELDS: {
  [K in LiveGroup["kind"]]: (g: Extract<LiveGroup, { kind: K }>) => Partial<GroupInput>;
} = {
  managed: (g) => ({
    type: "managed",
    version: g.version,
    releaseVersion: g.releaseVersion,
    updateConfig: g.updateConfig,
  }),
  "self-managed": (g) => ({
    type: "self-managed",
    instances: instanceCounts(g),
    mixedInstances: g.mixedInstances,
  }),
};

function group(g: LiveGroup, live: LiveCluster): GroupInput {
  const fields = KIND_FIELDS[g.kind] as (x: LiveGroup) => Partial<GroupInput>;
  return { ...groupBase(g, live), ...template(g), ...fields(g) } as GroupInput;
}

/** EKS release versions per Kubernetes minor version, oldest first: what live state names. */
function releases(snapshot: Snapshot): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  const add = (minor: string, release: string) => (out[minor] ??= new Set()).add(release);
  for (const g of snapshot.groups) if ("releaseVersion" in g) add(g.version, g.releaseVersion); // an EKS managed node group
  for (const [minor, release] of Object.entries(snapshot.latestReleaseVersions))
    add(minor, release);
  add(snapshot.cluster.version, `${snapshot.cluster.version}.0-twin`);
  return Object.fromEntries(
    Object.entries(out).map(([k, v]) => [k, [...v].sort((a, b) => a.localeCompare(b))]),
  );
}

export interface Twin {
  scenario: ScenarioInput;
  timings: Timings;
}

/** The scenario a rehearsal runs on, and where each of its timings came from. */
export function twinScenario(
  snapshot: Snapshot,
  live: LiveCluster,
  overrides: Partial<Record<string, number>> = {},
): Twin {
  const timings = twinTimings(snapshot, live, overrides);
  const zones = [...new Set(snapshot.groups.flatMap((g) => g.zones))].sort();
  const scenario: ScenarioInput = {
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name: `twin-${snapshot.cluster.name}`.slice(0, 63) },
    // A sandbox's own randomness replays; a real cluster's cannot be known: any seed will do.
    seed: live.physics?.seed ?? 1,
    start: snapshot.takenAt.toISOString(),
    cluster: {
      name: snapshot.cluster.name,
      region: snapshot.cluster.region,
      version: snapshot.cluster.version,
    },
    releases: releases(snapshot),
    zones: zones.length > 0 ? zones : ["a"],
    timings: timings.values,
    nodeGroups: snapshot.groups.map((g) => group(g, live)),
    workloads: twinWorkloads(live, timings, snapshot.takenAt.getTime()),
    pdbs: twinPdbs(live),
  };
  return { scenario, timings };
}
