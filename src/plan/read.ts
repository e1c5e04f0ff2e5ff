// Reading the live state a plan needs, through the ports only, scoped as the Kubernetes API's
// guidance on efficient clients asks (https://kubernetes.io/docs/reference/using-api/api-concepts/):
// nodes paginated; the pods of the nodes that would be replaced, either node by node (by
// spec.nodeName) or, when that would take more requests, in one cluster-wide list in pages
// (readPath decides); PDBs only in the namespaces of those pods; their owners (src/plan/owners.ts)
// looked up one by one or listed alike. Reading the node groups themselves is each kind's
// business (src/kinds/*/observe.ts); the helpers they share are here.
import {
  controllerOf,
  eachPage,
  hasReadyCondition,
  instanceIdOf,
  listAll,
  PAGE_SIZE,
  pageOf,
  type AutoScalingGroup,
  type Cloud,
  type Cluster,
  type Clock,
  type Node,
  type Pod,
  type PodDisruptionBudget,
  type Toleration,
} from "../ports/index.js";
import { CONCURRENCY, mapLimit } from "./limit.js";
import {
  inner,
  Owners,
  readWorkloads,
  type KnownOwner,
  type OwnerCache,
  type OwnerRef,
} from "./owners.js";
import type {
  ContainerInfo,
  InstanceInfo,
  LaunchTemplateRef,
  NodeInfo,
  PdbInfo,
  PodInfo,
  Snapshot,
} from "./snapshot.js";

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
  asg: AutoScalingGroup,
  launchTimes: Map<string, Date>,
  now: Date,
): InstanceInfo[] {
  return asg.Instances.map((i) => ({
    id: i.InstanceId,
    zone: i.AvailabilityZone,
    ...(i.LaunchTemplate?.Version &&
      /^\d+$/.test(i.LaunchTemplate.Version) && {
        launchTemplateVersion: Number(i.LaunchTemplate.Version),
      }),
    lifecycleState: i.LifecycleState,
    launchTime: launchTimes.get(i.InstanceId) ?? now,
  }));
}

export async function launchTimes(cloud: Cloud, ids: string[]): Promise<Map<string, Date>> {
  const out = new Map<string, Date>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const inst of await cloud.ec2.describeInstances({ InstanceIds: ids.slice(i, i + 500) }))
      out.set(inst.InstanceId, inst.LaunchTime);
  }
  return out;
}

export function nodeInfo(n: Node, groupOf: Map<string, string>): NodeInfo {
  const instanceId = instanceIdOf(n);
  const group = instanceId ? groupOf.get(instanceId) : undefined;
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
    createdAt: new Date(n.metadata.creationTimestamp ?? 0),
    ...(n.status.nodeInfo && { kubeletVersion: n.status.nodeInfo.kubeletVersion }),
  };
}

function preStopSeconds(c: Pod["spec"]["containers"][number]): number | undefined {
  const hook = c.lifecycle?.preStop;
  if (hook?.sleep) return hook.sleep.seconds;
  const m = /\bsleep\s+(\d+)/.exec(hook?.exec?.command.join(" ") ?? "");
  return m ? Number(m[1]) : undefined;
}

function containerInfo(name: string, readinessProbe: boolean, sleep: number | undefined) {
  return { name, readinessProbe, ...(sleep !== undefined && { preStopSleepSeconds: sleep }) };
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

const NO_TOLERATIONS: Toleration[] = Object.freeze([]) as never;

/** The value already under `key`, or `value`, kept there from now on. */
function keepFirst<K, V>(map: Map<K, V>, key: K, value: V): V {
  const known = map.get(key);
  if (known !== undefined) return known;
  map.set(key, value);
  return value;
}

/**
 * PodInfo parts that repeat from pod to pod — containers, tolerations (and, through Owners,
 * owners and labels) — kept once: a plan of 100,000 nodes holds 3 million pods, and each pod its
 * own copy of what its workload's other pods have too would be most of its memory. Snapshot
 * parts are never changed in place. Looked up through maps of maps, so a pod costs no key string.
 */
class Shared {
  readonly #single = new Map<string, Map<boolean, Map<number | undefined, ContainerInfo[]>>>();
  readonly #containers = new Map<string, ContainerInfo[]>();
  readonly #tolerations = new Map<string, Toleration[]>();

  containers(p: Pod): ContainerInfo[] {
    const [c, more] = p.spec.containers;
    // One container (most pods): looked up before anything is made for it.
    if (c && !more) {
      const sleep = preStopSeconds(c);
      const probe = c.readinessProbe !== undefined;
      const bySleep = inner(inner(this.#single, c.name), probe);
      return bySleep.get(sleep) ?? keepFirst(bySleep, sleep, [containerInfo(c.name, probe, sleep)]);
    }
    const list = p.spec.containers.map((c) =>
      containerInfo(c.name, c.readinessProbe !== undefined, preStopSeconds(c)),
    );
    const key = list
      .map((c) => `${c.name}\u0000${c.readinessProbe}\u0000${c.preStopSleepSeconds}`)
      .join("\u0001");
    return keepFirst(this.#containers, key, list);
  }

  tolerations(list: Toleration[] | undefined): Toleration[] {
    if (!list || list.length === 0) return NO_TOLERATIONS;
    return keepFirst(this.#tolerations, JSON.stringify(list), list);
  }
}

/** The same keys and values (no array of keys made: this runs for every pod read). */
function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  let n = 0;
  for (const k in b) {
    if (!Object.hasOwn(a, k) || a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in a) n--;
  return n === 0;
}

/** The pod's labels: its owner's last pod's when equal, kept once (see KnownOwner). */
function labelsOf(p: Pod, known: KnownOwner | undefined): Record<string, string> {
  const labels = p.metadata.labels ?? {};
  if (!known) return labels;
  if (known.labels && sameLabels(known.labels, labels)) return known.labels;
  return (known.labels = labels);
}

function podInfo(p: Pod, ns: string, known: KnownOwner | undefined, shared: Shared): PodInfo {
  return {
    namespace: ns,
    name: p.metadata.name,
    nodeName: p.spec.nodeName ?? "",
    labels: labelsOf(p, known),
    ...(known && { owner: known.owner }),
    phase: p.status.phase,
    ready: hasReadyCondition(p.status.conditions),
    tolerations: shared.tolerations(p.spec.tolerations),
    terminationGracePeriodSeconds: p.spec.terminationGracePeriodSeconds ?? 30,
    containers: shared.containers(p),
    ...(p.metadata.annotations?.["kubernetes.io/config.mirror"] !== undefined && { mirror: true }),
  };
}

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

/** Pods read, as kept: their PodInfo and owner, side by side. */
interface NodePods {
  infos: PodInfo[];
  refs: (OwnerRef | undefined)[];
  /** When read out of node order: which of them goes at each place in node order. */
  order?: Uint32Array;
}

/** Reading pods into PodInfo: the parts they share kept once, their owners and namespaces noted. */
class PodReader {
  readonly #shared = new Shared();
  readonly #owners = new Owners();
  readonly namespaces = new Set<string>();

  add(to: NodePods, p: Pod): void {
    const ns = p.metadata.namespace ?? "default";
    const o = controllerOf(p);
    const known = o && this.#owners.of(ns, o);
    to.infos.push(podInfo(p, ns, known, this.#shared));
    to.refs.push(known?.ref);
    this.namespaces.add(ns);
  }
}

/** Each node's pods by a field-selected list of its own, CONCURRENCY nodes at a time. */
async function podsByNode(
  cluster: Cluster,
  nodeNames: string[],
  reader: PodReader,
  onProgress: OnProgress | undefined,
): Promise<NodePods> {
  let done = 0;
  const perNode = await mapLimit(nodeNames, CONCURRENCY, async (node) => {
    const pods: NodePods = { infos: [], refs: [] };
    await eachPage(
      (cont) =>
        cluster.listPods(undefined, pageOf(cont, { fieldSelector: `spec.nodeName=${node}` })),
      (items) => items.forEach((p) => reader.add(pods, p)),
    );
    onProgress?.({ phase: "pods", done: ++done, total: nodeNames.length });
    return pods;
  });
  return { infos: perNode.flatMap((n) => n.infos), refs: perNode.flatMap((n) => n.refs) };
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
    const r = await listAll((cont) => cluster.listPodDisruptionBudgets(undefined, pageOf(cont)));
    onProgress?.({ phase: "budgets", done: sorted.length, total: sorted.length });
    const items = r.items.filter((b) => namespaces.has(b.metadata.namespace ?? "default"));
    // In the per-namespace path's order: by namespace, each as the API lists it.
    const rank = new Map(sorted.map((ns, i) => [ns, i]));
    const at = (b: PodDisruptionBudget) => rank.get(b.metadata.namespace ?? "default") ?? 0;
    return items
      .map((b, i) => ({ b, i }))
      .sort((x, y) => at(x.b) - at(y.b) || x.i - y.i)
      .map(({ b }) => pdbInfo(b));
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
 * nodes' pods dropped: the memory of one page and of what is kept. Kept in list order, with
 * where each goes node by node (`order`: a count per node, then each into its place) for
 * addWorkloads to copy them there: one growing array instead of one per node, which on 100,000
 * nodes cost more in garbage collection than the pages. The API server lists pods by namespace
 * and name either way, so each node's pods come in the order its own list would give.
 */
async function podsClusterWide(
  cluster: Cluster,
  nodeNames: string[],
  reader: PodReader,
  onProgress: OnProgress | undefined,
): Promise<NodePods> {
  const index = new Map(nodeNames.map((n, i) => [n, i]));
  const read: NodePods = { infos: [], refs: [] };
  const nodeOf: number[] = [];
  let listed = 0;
  await eachPage(
    (cont) => cluster.listPods(undefined, pageOf(cont)),
    (items) => {
      for (const p of items) {
        const i = p.spec.nodeName === undefined ? undefined : index.get(p.spec.nodeName);
        if (i === undefined) continue;
        nodeOf.push(i);
        reader.add(read, p);
      }
      onProgress?.({ phase: "pods", done: (listed += items.length) });
    },
  );
  const start = new Uint32Array(nodeNames.length + 1);
  for (const i of nodeOf) start[i + 1]!++;
  for (let i = 0; i < nodeNames.length; i++) start[i + 1]! += start[i]!;
  const order = new Uint32Array(nodeOf.length);
  nodeOf.forEach((i, k) => (order[start[i]!++] = k));
  return { ...read, order };
}

/**
 * The pods as the snapshot keeps them, each with the workload behind its owner. Pods read in
 * list order are copied into node order here, made whole in one allocation (a workload added
 * to a pod already made would give each its own out-of-object property store), the list-order
 * original let go at once: the plan walks the pods node by node, and 3 million pods scattered
 * in list order made it ~3 times slower than pods made one node after another.
 */
function placed({ infos, refs, order }: NodePods): PodInfo[] {
  if (!order) {
    infos.forEach((info, i) => {
      const workload = refs[i]?.workload;
      if (workload) info.workload = workload;
    });
    return infos;
  }
  const out = new Array<PodInfo>(order.length);
  for (let at = 0; at < order.length; at++) {
    const k = order[at]!;
    const info = infos[k] as PodInfo;
    const workload = refs[k]?.workload;
    out[at] = workload ? { ...info, workload } : { ...info };
    infos[k] = undefined as never;
  }
  return out;
}

/**
 * Add the pods of the given nodes, their PDBs and their owners to a snapshot, read the way
 * `path` says (by default, readPath's choice). Pods are kept only as PodInfo: memory grows
 * with what the plan keeps, not with the API's objects. The snapshot is the same either way.
 */
export async function addWorkloads(
  snapshot: Snapshot,
  nodeNames: string[],
  cluster: Cluster,
  onProgress?: OnProgress,
  owned?: OwnerCache,
  path: ReadPath = readPath(nodeNames.length, snapshot),
): Promise<Snapshot> {
  const reader = new PodReader();
  const read = path === "cluster-wide" ? podsClusterWide : podsByNode;
  const pods = await read(cluster, nodeNames, reader, onProgress);
  const pdbs = await readBudgets(cluster, reader.namespaces, path, onProgress);
  // The owners in the order of their pods node by node, so the snapshot does not depend on
  // which read of the concurrent ones answered first, nor on the way the pods were read.
  const owners = new Set<OwnerRef>();
  const { refs, order } = pods;
  for (let at = 0; at < refs.length; at++) {
    const r = refs[order ? (order[at] as number) : at];
    if (r) owners.add(r);
  }
  const workloads = await readWorkloads(
    cluster,
    [...owners],
    path === "cluster-wide",
    onProgress && ((done, total) => onProgress({ phase: "owners", done, total })),
    owned,
  );
  return { ...snapshot, pods: placed(pods), pdbs, workloads };
}
