// Observe + plan: the one way live state becomes a plan, used by the command line, the action
// and, just before each group, apply. A first pass reads the groups (each through its kind) and
// the nodes, enough to know which nodes would be replaced; a second reads only those nodes'
// pods, their PDBs and owners. Throttling is retried whoever implements the ports. Progress
// goes to an optional callback (a terminal shows it); nothing here prints.
import type { Policy } from "../policy/index.js";
import {
  addWorkloads,
  DEFAULT_MAX_PODS,
  nodeInfo,
  nodePods,
  OwnerCache,
  type LiveGroup,
  type OnProgress,
  type Plan,
  type ReadPath,
  type ReadPorts,
  type Snapshot,
} from "../plan/index.js";
import { listAll, pageOf, resilient, type Node } from "../ports/index.js";
import { groupOfNode, observeGroups } from "../kinds/registry.js";
import { buildPlan, type PlanOptions, type SettingsMemo } from "./plan.js";
import { verifyCluster } from "./verify.js";

/** The pods a node may hold: its allocatable pods (the kubelet's max-pods, less none). */
function podCapacity(n: Node): number {
  const pods = Number(n.status.allocatable?.pods ?? n.status.capacity?.pods);
  return Number.isFinite(pods) && pods >= 0 ? pods : DEFAULT_MAX_PODS;
}

/** Everything but the pods: enough to know which nodes would be replaced. */
export async function observe(
  policy: Policy,
  ports: ReadPorts,
  onProgress?: OnProgress,
): Promise<Snapshot> {
  let listed = 0;
  const [eksCluster, nodes] = await Promise.all([
    ports.cloud.eks.describeCluster(policy.cluster.name),
    listAll(async (cont) => {
      const page = await ports.cluster.listNodes(pageOf(cont));
      listed += page.items.length;
      const last = !page.metadata.continue;
      onProgress?.({ phase: "nodes", done: listed, ...(last && { total: listed }) });
      return page;
    }).then((r) => r.items),
  ]);
  // Read once the API server has answered: a live run's clock (src/adapters/server-clock.ts)
  // knows the server's time from its first answer on.
  const now = ports.clock.now();
  const total = policy.groups.length;
  onProgress?.({ phase: "groups", done: 0, total });
  const groups = await observeGroups({
    clusterName: policy.cluster.name,
    names: policy.groups.map((g) => g.name),
    cloud: ports.cloud,
    nodes,
    now,
  });
  // Nothing is planned on an API that is not the policy's cluster's (src/plan/identity.ts).
  const verified = await verifyCluster(policy, ports, { eks: eksCluster, nodes, groups, now });
  const latest = await latestReleases(policy, ports, eksCluster.version, groups);
  onProgress?.({ phase: "groups", done: total, total });
  const groupOf = groupOfNode(groups);
  const known = await knownGroups(policy, ports, groups, nodes);
  return {
    ...(known && { knownGroups: known }),
    cluster: {
      name: policy.cluster.name,
      region: policy.cluster.region,
      version: eksCluster.version,
      verified,
    },
    takenAt: now,
    groups,
    latestReleaseVersions: latest,
    nodes: nodes.map((n) => nodeInfo(n, groupOf)),
    pods: nodePods([]),
    pdbs: [],
    workloads: [],
    clusterNodeCount: nodes.length,
    clusterPodCapacity: nodes.reduce((n, node) => n + podCapacity(node), 0),
  };
}

/**
 * The latest EKS AMI release of each Kubernetes version the plan may name: the cluster's, each
 * target's, and each EKS managed node group's own (`releaseVersion: latest` without a
 * kubernetesVersion is its group's version's latest). Only a target that says `latest` needs the
 * answer; any other use adds the release to a note, so a refusal (a role without
 * ssm:GetParameters) is no reason to plan nothing then.
 */
async function latestReleases(
  policy: Policy,
  ports: ReadPorts,
  clusterVersion: string,
  groups: readonly LiveGroup[],
): Promise<Record<string, string>> {
  const versions = new Set([clusterVersion]);
  for (const g of policy.groups)
    if (g.target?.kubernetesVersion) versions.add(g.target.kubernetesVersion);
  for (const g of groups) if ("version" in g) versions.add(g.version);
  const read = ports.cloud.eks.latestReleaseVersions?.([...versions].sort()) ?? Promise.resolve({});
  const needed = policy.groups.some((g) => g.target?.releaseVersion === "latest");
  return needed ? read : read.catch(() => ({}));
}

/** The labels that name a node's group: EKS's, eksctl's and kOps'. */
const GROUP_LABELS = [
  "eks.amazonaws.com/nodegroup",
  "alpha.eksctl.io/nodegroup-name",
  "kops.k8s.io/instancegroup",
];

/**
 * The groups the cluster has, read only when the policy names one it lacks — so that the plan
 * can say which it may have meant: EKS's managed node groups (one call), and the groups the
 * nodes' own labels name (no call: the nodes are read already).
 */
async function knownGroups(
  policy: Policy,
  ports: ReadPorts,
  groups: readonly LiveGroup[],
  nodes: readonly Node[],
): Promise<string[] | undefined> {
  const found = new Set(groups.map((g) => g.name));
  if (policy.groups.every((g) => found.has(g.name))) return undefined;
  const managed = await ports.cloud.eks.listNodegroups(policy.cluster.name).catch(() => []);
  const labelled = nodes.flatMap((n) =>
    GROUP_LABELS.flatMap((k) => (n.metadata.labels?.[k] ? [n.metadata.labels[k]] : [])),
  );
  return [...new Set([...managed, ...labelled, ...found])].sort();
}

/**
 * Plans for one run: live state observed and planned the same way every time, each group's
 * settings resolved once (the first time it is planned) and reused by every later plan, and
 * each pod owner (by UID) read once: a later plan reads only owners it has not seen.
 */
export class Planner {
  private readonly memo: SettingsMemo = new Map();
  private readonly owners: OwnerCache;

  constructor(
    readonly policy: Policy,
    readonly file: string,
    readonly options: PlanOptions = {},
    /** How pods and owners are read; by default as readPath chooses (tests compare the two). */
    readonly readPath?: ReadPath,
    /** Whether the run plans again (apply does, group by group): if not, no owner is kept. */
    replans = true,
  ) {
    this.owners = new OwnerCache(replans);
  }

  plan(snapshot: Snapshot, groups = this.options.groups): Plan {
    const options = { ...this.options, ...(groups && { groups }) };
    return buildPlan(this.policy, this.file, snapshot, options, this.memo);
  }

  /**
   * Observe and plan the policy's groups (or only `groups`); reading reports to `onProgress`.
   * With the run's `signal`, a cancelled run stops reading at once instead of retrying into
   * closed ports.
   */
  async observe(
    ports: ReadPorts & { signal?: AbortSignal },
    groups = this.options.groups,
    onProgress?: OnProgress,
  ): Promise<{ plan: Plan; snapshot: Snapshot }> {
    const clock = ports.clock;
    const options = ports.signal ? { signal: ports.signal } : {};
    const p = {
      cloud: resilient(ports.cloud, clock, options),
      cluster: resilient(ports.cluster, clock, options),
      clock,
    };
    // Every group of the policy is read, whatever is planned: nodes are attributed to their
    // groups (validation tells this group's failures from another's).
    const base = await observe(this.policy, p, onProgress);
    const draft = this.plan(base, groups);
    const nodes = draft.groups.flatMap((g) =>
      g.replacements.flatMap((r) => (r.node ? [r.node] : [])),
    );
    const snapshot = await addWorkloads(
      base,
      nodes,
      p.cluster,
      onProgress,
      this.owners,
      this.readPath,
    );
    return { plan: this.plan(snapshot, groups), snapshot };
  }
}

/** Read live state and plan it, once; reading reports to `onProgress`. */
export function observeAndPlan(
  policy: Policy,
  file: string,
  ports: ReadPorts & { signal?: AbortSignal },
  options: PlanOptions = {},
  onProgress?: OnProgress,
): Promise<{ plan: Plan; snapshot: Snapshot }> {
  const once = new Planner(policy, file, options, undefined, false);
  return once.observe(ports, options.groups, onProgress);
}
