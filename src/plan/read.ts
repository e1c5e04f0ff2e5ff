// Reading the live state a plan needs, through the ports only, scoped as the Kubernetes API's
// guidance on efficient clients asks (https://kubernetes.io/docs/reference/using-api/api-concepts/):
// nodes paginated; the pods of the nodes that would be replaced, either node by node (by
// spec.nodeName) or, when that would take more requests, in one cluster-wide list in pages
// (readPath decides); PDBs only in the namespaces of those pods; their owners (src/plan/owners.ts)
// looked up one by one or listed alike; the volume claims those pods name, and their volumes,
// one by one (src/plan/claims.ts). Reading the node groups themselves is each kind's
// business (src/kinds/*/observe.ts); the helpers they share are here.
import {
  eachPage,
  hasReadyCondition,
  hasUnknownReadyCondition,
  instanceIdOf,
  listAll,
  PAGE_SIZE,
  pageOf,
  type AutoScalingGroup,
  type Cloud,
  type Cluster,
  type Clock,
  type Node,
  type PodDisruptionBudget,
} from "../ports/index.js";
import { readClaims } from "./claims.js";
import { CONCURRENCY, mapLimit } from "./limit.js";
import { PodStore } from "./pod-store.js";
import { readWorkloads, type OwnerCache } from "./owners.js";
import type { InstanceInfo, LaunchTemplateRef, NodeInfo, PdbInfo, Snapshot } from "./snapshot.js";

export interface ReadPorts {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
}

export async function launchTemplateRef(
  cloud: Cloud,
  spec: { LaunchTemplateId?: string; LaunchTemplateName?: string; Version?: string } | undefined,
): Promise<LaunchTemplateRef | undefined> {
  if (!spec?.LaunchTemplateId && !spec?.LaunchTemplateName) return undefined;
  const versions = await cloud.ec2.describeLaunchTemplateVersions({
    ...(spec.LaunchTemplateId
      ? { LaunchTemplateId: spec.LaunchTemplateId }
      : { LaunchTemplateName: spec.LaunchTemplateName as string }),
    Versions: ["$Latest", "$Default"],
  });
  const latest = Math.max(...versions.map((v) => v.VersionNumber));
  const dflt = versions.find((v) => v.DefaultVersion)?.VersionNumber ?? latest;
  const configured = spec.Version ?? "$Default";
  const resolved =
    configured === "$Latest" ? latest : configured === "$Default" ? dflt : Number(configured);
  return {
    id: versions[0]?.LaunchTemplateId ?? spec.LaunchTemplateId ?? "",
    ...(spec.LaunchTemplateName && { name: spec.LaunchTemplateName }),
    configured,
    resolved,
    latest,
    default: dflt,
  };
}

export function instancesOf(
  asg: Pick<AutoScalingGroup, "Instances">,
  launchTimes: Map<string, Date>,
): InstanceInfo[] {
  return asg.Instances.map((i) => {
    const launchTime = launchTimes.get(i.InstanceId);
    return {
      id: i.InstanceId,
      zone: i.AvailabilityZone,
      ...(i.LaunchTemplate?.Version &&
        /^\d+$/.test(i.LaunchTemplate.Version) && {
          launchTemplateVersion: Number(i.LaunchTemplate.Version),
        }),
      ...(i.LaunchTemplate?.LaunchTemplateId && {
        launchTemplate: i.LaunchTemplate.LaunchTemplateId,
      }),
      lifecycleState: i.LifecycleState,
      ...(launchTime && { launchTime }),
    };
  });
}

/**
 * The launch times of those of `ids` that no node in `nodes` has registered for. An instance
 * with a node is as old as its node (NodeInfo.createdAt, what the age rule reads), so EC2 is
 * asked only about the rest: DescribeInstances takes 500 instances a call against EC2's
 * account-wide request rate, and answers with kilobytes of XML an instance — on 100,000 nodes,
 * 200 calls and the largest AWS response a plan would read, for nothing.
 * (https://docs.aws.amazon.com/ec2/latest/devguide/ec2-api-throttling.html)
 */
export async function launchTimesWithoutNode(
  cloud: Cloud,
  ids: string[],
  nodes: readonly Node[],
): Promise<Map<string, Date>> {
  const registered = new Set(nodes.map(instanceIdOf));
  return launchTimes(
    cloud,
    ids.filter((id) => !registered.has(id)),
  );
}

/** The launch times of `ids`, from EC2, 500 instances a call. */
export async function launchTimes(cloud: Cloud, ids: string[]): Promise<Map<string, Date>> {
  const out = new Map<string, Date>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const inst of await cloud.ec2.describeInstances({ InstanceIds: ids.slice(i, i + 500) }))
      out.set(inst.InstanceId, inst.LaunchTime);
  }
  return out;
}

/** `groupOf`: which group a node is in (the kinds' registry decides; the plan only records it). */
export function nodeInfo(n: Node, groupOf: (n: Node) => string | undefined): NodeInfo {
  const instanceId = instanceIdOf(n);
  const group = groupOf(n);
  const zone = n.metadata.labels?.["topology.kubernetes.io/zone"];
  return {
    name: n.metadata.name,
    ...(instanceId && { instanceId }),
    ...(group && { group }),
    ...(zone && { zone }),
    labels: n.metadata.labels ?? {},
    annotations: n.metadata.annotations ?? {},
    taints: n.spec.taints ?? [],
    unschedulable: n.spec.unschedulable ?? false,
    ready: hasReadyCondition(n.status.conditions),
    ...(hasUnknownReadyCondition(n.status.conditions) && { unreachable: true as const }),
    createdAt: new Date(n.metadata.creationTimestamp ?? 0),
    ...(n.status.nodeInfo && { kubeletVersion: n.status.nodeInfo.kubeletVersion }),
  };
}

/** How far reading live state has come, for a progress line (the core prints nothing). */
export interface ReadProgress {
  /**
   * nodes: the cluster's nodes, page by page; groups: the policy's groups; pods: the pods of
   * the nodes to replace, node by node (or the cluster's pods, page by page, with no total);
   * budgets: PDBs, namespace by namespace; owners: the workloads behind those pods.
   */
  phase: "nodes" | "groups" | "pods" | "budgets" | "owners";
  done: number;
  /** Absent while unknown: a paginated list does not say how long it is. */
  total?: number;
}

export type OnProgress = (progress: ReadProgress) => void;

function pdbInfo(b: PodDisruptionBudget): PdbInfo {
  return {
    namespace: b.metadata.namespace ?? "default",
    name: b.metadata.name,
    ...(b.spec.selector && { selector: b.spec.selector }),
    ...(b.spec.minAvailable !== undefined && { minAvailable: b.spec.minAvailable }),
    ...(b.spec.maxUnavailable !== undefined && { maxUnavailable: b.spec.maxUnavailable }),
    disruptionsAllowed: b.status.disruptionsAllowed,
    currentHealthy: b.status.currentHealthy,
    desiredHealthy: b.status.desiredHealthy,
    expectedPods: b.status.expectedPods,
  };
}

/** How the pods and owners of the nodes to replace are read. */
export type ReadPath = "by-node" | "cluster-wide";

/** A node's pods when its Node does not say (the kubelet's --max-pods default). */
export const DEFAULT_MAX_PODS = 110;

/**
 * The one choice of how to read the pods and owners of the nodes to replace, by the requests
 * each way takes: a field-selected list per node costs one request per node to replace; a
 * cluster-wide list costs one page per PAGE_SIZE pods of the cluster, at most its pod capacity
 * (each node's allocatable pods) over PAGE_SIZE. When the nodes to replace are so large a share
 * of the cluster, so are their pods' owners, and those are listed a kind at a time too instead
 * of read one by one (on 100,000 nodes: ~6,000 pages instead of ~575,000 requests).
 */
export function readPath(nodesToReplace: number, snapshot: Snapshot): ReadPath {
  const capacity = snapshot.clusterPodCapacity ?? snapshot.clusterNodeCount * DEFAULT_MAX_PODS;
  return Math.ceil(capacity / PAGE_SIZE) < nodesToReplace ? "cluster-wide" : "by-node";
}

/** Each node's pods by a field-selected list of its own, CONCURRENCY nodes at a time. */
async function podsByNode(
  cluster: Cluster,
  nodeNames: string[],
  store: PodStore,
  onProgress: OnProgress | undefined,
): Promise<void> {
  let done = 0;
  await mapLimit(
    nodeNames.map((node, i) => [node, i] as const),
    CONCURRENCY,
    async ([node, i]) => {
      await eachPage(
        (cont) =>
          cluster.listPods(undefined, pageOf(cont, { fieldSelector: `spec.nodeName=${node}` })),
        (items) => items.forEach((p) => store.add(i, p)),
      );
      onProgress?.({ phase: "pods", done: ++done, total: nodeNames.length });
    },
  );
}

/**
 * The PodDisruptionBudgets of the pods' namespaces: a list per namespace, or, on the
 * cluster-wide path, the cluster's in pages, keeping those namespaces' — the same choice as the
 * pods', so a plan that lists pods in pages does not then ask each namespace on its own.
 */
async function readBudgets(
  cluster: Cluster,
  namespaces: ReadonlySet<string>,
  path: ReadPath,
  onProgress: OnProgress | undefined,
): Promise<PdbInfo[]> {
  const sorted = [...namespaces].sort();
  if (path === "cluster-wide") {
    // Each page's budgets kept as PdbInfo as it comes, not the whole list's objects until the
    // last page (162,000 of them on 100,000 nodes), then put in the per-namespace path's order:
    // by namespace, each as the API lists it (a sort keeps equal entries in order).
    const rank = new Map(sorted.map((ns, i) => [ns, i]));
    const kept: { info: PdbInfo; at: number }[] = [];
    await eachPage(
      (cont) => cluster.listPodDisruptionBudgets(undefined, pageOf(cont)),
      (page) => {
        for (const b of page) {
          const at = rank.get(b.metadata.namespace ?? "default");
          if (at !== undefined) kept.push({ info: pdbInfo(b), at });
        }
      },
    );
    onProgress?.({ phase: "budgets", done: sorted.length, total: sorted.length });
    return kept.sort((x, y) => x.at - y.at).map(({ info }) => info);
  }
  let done = 0;
  const pdbs = await mapLimit(sorted, CONCURRENCY, async (ns) => {
    const r = await listAll((cont) => cluster.listPodDisruptionBudgets(ns, pageOf(cont)));
    onProgress?.({ phase: "budgets", done: ++done, total: sorted.length });
    return r.items.map(pdbInfo);
  });
  return pdbs.flat();
}

/**
 * The same pods from one cluster-wide list in pages, each page read as it comes and the other
 * nodes' pods dropped: the memory of one page and of what is kept. The API server lists pods by
 * namespace and name either way, so each node's pods come in the order its own list would give.
 */
async function podsClusterWide(
  cluster: Cluster,
  nodeNames: string[],
  store: PodStore,
  onProgress: OnProgress | undefined,
): Promise<void> {
  let listed = 0;
  await eachPage(
    (cont) => cluster.listPods(undefined, pageOf(cont)),
    (items) => {
      for (const p of items) {
        const i = p.spec.nodeName === undefined ? undefined : store.indexOf(p.spec.nodeName);
        if (i !== undefined) store.add(i, p);
      }
      onProgress?.({ phase: "pods", done: (listed += items.length) });
    },
  );
}

/**
 * Add the pods of the given nodes, their PDBs and their owners to a snapshot, read the way
 * `path` says (by default, readPath's choice). Pods are kept only as the plan keeps them (in a
 * PodStore's rows, made PodInfo node by node as the plan asks): memory grows with that, not with
 * the API's objects. The snapshot is the same either way, the owners in the order of their pods
 * node by node, whichever read of the concurrent ones answered first.
 */
export async function addWorkloads(
  snapshot: Snapshot,
  nodeNames: string[],
  cluster: Cluster,
  onProgress?: OnProgress,
  owned?: OwnerCache,
  path: ReadPath = readPath(nodeNames.length, snapshot),
): Promise<Snapshot> {
  const store = new PodStore(nodeNames);
  const read = path === "cluster-wide" ? podsClusterWide : podsByNode;
  await read(cluster, nodeNames, store, onProgress);
  const pdbs = await readBudgets(cluster, store.namespaces, path, onProgress);
  const owners = store.ownersToRead();
  const workloads = await readWorkloads(cluster, owners.refs, {
    listed: path === "cluster-wide",
    onProgress: onProgress && ((done, total) => onProgress({ phase: "owners", done, total })),
    cache: owned,
    index: owners.index,
  });
  const { claims, unread } = await readClaims(cluster, store.claims);
  return {
    ...snapshot,
    pods: store.byNode(pdbs, workloads),
    pdbs,
    workloads,
    ...(claims.length > 0 && { claims }),
    ...(unread && { claimsUnread: unread }),
  };
}
