// Reading the live state a plan needs, through the ports only, scoped as the Kubernetes API's
// guidance on efficient clients asks (https://kubernetes.io/docs/reference/using-api/api-concepts/):
// nodes paginated, pods only for the nodes that would be replaced (by spec.nodeName), PDBs only in
// the namespaces of those pods, owners looked up one by one. The number of requests grows with
// the nodes to replace, not with the pods of the cluster. Reading the node groups themselves is
// each kind's business (src/kinds/*/observe.ts); the helpers they share are here.
import {
  hasReadyCondition,
  instanceIdOf,
  listAll,
  pageOf,
  type AutoScalingGroup,
  type Cloud,
  type Cluster,
  type Clock,
  KubeApiError,
  type Node,
  type Pod,
  type PodDisruptionBudget,
  type Toleration,
  type Workload,
} from "../ports/index.js";
import type {
  ContainerInfo,
  InstanceInfo,
  LaunchTemplateRef,
  NodeInfo,
  PdbInfo,
  PodInfo,
  Snapshot,
  WorkloadInfo,
} from "./snapshot.js";

export interface ReadPorts {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
}

export const CONCURRENCY = 8;

/** Run `fn` over items with at most `n` calls in flight. */
export async function mapLimit<T, R>(
  items: readonly T[],
  n: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
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

/** How far reading live state has come, for a progress line (the core prints nothing). */
export interface ReadProgress {
  /**
   * nodes: the cluster's nodes, page by page; groups: the policy's groups; pods: the pods of
   * the nodes to replace, node by node; budgets: PDBs, namespace by namespace; owners: the
   * workloads behind those pods, one by one.
   */
  phase: "nodes" | "groups" | "pods" | "budgets" | "owners";
  done: number;
  /** Absent while unknown: a paginated list does not say how long it is. */
  total?: number;
}

export type OnProgress = (progress: ReadProgress) => void;

const NO_TOLERATIONS: Toleration[] = Object.freeze([]) as never;

/** The inner map under `key`, created empty the first time. */
function inner<K, K2, V>(map: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let m = map.get(key);
  if (!m) map.set(key, (m = new Map<K2, V>()));
  return m;
}

/** The value already under `key`, or `value`, kept there from now on. */
function keepFirst<K, V>(map: Map<K, V>, key: K, value: V): V {
  const known = map.get(key);
  if (known !== undefined) return known;
  map.set(key, value);
  return value;
}

/**
 * PodInfo parts that repeat from pod to pod — containers, tolerations — kept once: a
 * plan of 100,000 nodes holds 3 million pods, and each pod its own copy of what its workload's
 * other pods have too would be most of its memory. Snapshot parts are never changed in place.
 * Looked up through maps of maps, so a pod costs no key string.
 */
class Shared {
  readonly #single = new Map<string, Map<boolean, Map<number | undefined, ContainerInfo[]>>>();
  readonly #containers = new Map<string, ContainerInfo[]>();
  readonly #tolerations = new Map<string, Toleration[]>();

  containers(p: Pod): ContainerInfo[] {
    const list: ContainerInfo[] = p.spec.containers.map((c) => {
      const sleep = preStopSeconds(c);
      return {
        name: c.name,
        readinessProbe: c.readinessProbe !== undefined,
        ...(sleep !== undefined && { preStopSleepSeconds: sleep }),
      };
    });
    const [one] = list;
    if (one && list.length === 1) {
      const bySleep = inner(inner(this.#single, one.name), one.readinessProbe);
      return keepFirst(bySleep, one.preStopSleepSeconds, list);
    }
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

// Only the controller counts as the owner (kubectl drain's filters): a pod another object
// merely owns has no controller to bring it back.
const controllerOf = (p: Pod) => p.metadata.ownerReferences?.find((o) => o.controller === true);

function podInfo(p: Pod, shared: Shared): PodInfo {
  const owner = controllerOf(p);
  return {
    namespace: p.metadata.namespace ?? "default",
    name: p.metadata.name,
    nodeName: p.spec.nodeName ?? "",
    labels: p.metadata.labels ?? {},
    ...(owner && { owner: { kind: owner.kind, name: owner.name } }),
    phase: p.status.phase,
    ready: hasReadyCondition(p.status.conditions),
    tolerations: shared.tolerations(p.spec.tolerations),
    terminationGracePeriodSeconds: p.spec.terminationGracePeriodSeconds ?? 30,
    containers: shared.containers(p),
    ...(p.metadata.annotations?.["kubernetes.io/config.mirror"] !== undefined && { mirror: true }),
  };
}

/** An owner worth looking up, and the workload found behind it ("Kind/namespace/name"). */
interface OwnerRef {
  kind: Workload["kind"];
  ns: string;
  name: string;
  uid?: string;
  workload?: string;
}

const LOOKED_UP = new Set(["ReplicaSet", "StatefulSet", "Deployment"]);

/** The owners of the pods read: ReplicaSets (for their Deployment), StatefulSets, Deployments. */
class Owners {
  readonly all: OwnerRef[] = [];
  readonly #byNamespace = new Map<string, Map<string, Map<string, OwnerRef>>>();

  of(p: Pod): OwnerRef | undefined {
    const o = controllerOf(p);
    if (!o || !LOOKED_UP.has(o.kind)) return undefined;
    const ns = p.metadata.namespace ?? "default";
    const byName = inner(inner(this.#byNamespace, ns), o.kind);
    const known = byName.get(o.name);
    if (known) return known;
    const ref = {
      kind: o.kind as Workload["kind"],
      ns,
      name: o.name,
      ...(o.uid && { uid: o.uid }),
    };
    byName.set(o.name, ref);
    this.all.push(ref);
    return ref;
  }
}

/** What a plan needs of an owner: its replicas and the Deployment above a ReplicaSet. */
interface OwnerFacts {
  replicas?: number;
  deployment?: { name: string; uid?: string };
}

/**
 * Owners already read, by kind, namespace, name and UID, for the plans of one run (the engine
 * re-plans each group just before rolling it): an owner's chain — a ReplicaSet's Deployment —
 * never changes while its UID stays, so a later plan reads only owners it has not seen. An
 * owner known by name only (no UID) is read again by each plan. Replicas are as first read in
 * the run; a plan uses them only to warn about single-replica workloads.
 */
export class OwnerCache {
  readonly #facts = new Map<string, OwnerFacts>();

  get(key: string): OwnerFacts | undefined {
    return this.#facts.get(key);
  }

  set(key: string, facts: OwnerFacts): void {
    this.#facts.set(key, facts);
  }

  get size(): number {
    return this.#facts.size;
  }
}

/** Read an owner; undefined when it is gone (404). Every other failure is the read's failure. */
async function readOwner(
  cluster: Cluster,
  kind: Workload["kind"],
  ns: string,
  name: string,
): Promise<OwnerFacts | undefined> {
  try {
    const w = await cluster.getWorkload(kind, ns, name);
    const parent =
      kind === "ReplicaSet"
        ? w.metadata.ownerReferences?.find((r) => r.kind === "Deployment")
        : undefined;
    return {
      ...(w.spec.replicas !== undefined && { replicas: w.spec.replicas }),
      ...(parent && { deployment: { name: parent.name, ...(parent.uid && { uid: parent.uid }) } }),
    };
  } catch (e) {
    // Deleted since its pods were listed: the pods stand for themselves.
    if (e instanceof KubeApiError && e.status === 404) return undefined;
    throw e;
  }
}

/** The workloads behind the owners: a ReplicaSet's Deployment, a StatefulSet; replicas of each. */
async function readWorkloads(
  cluster: Cluster,
  owners: OwnerRef[],
  onProgress: OnProgress | undefined,
  cache: OwnerCache = new OwnerCache(),
): Promise<WorkloadInfo[]> {
  const replicas = new Map<string, number>();
  // Each owner is read once per plan (a Deployment however many of its ReplicaSets have pods
  // here), and once per run when its UID is known.
  const reads = new Map<string, Promise<OwnerFacts | undefined>>();
  const facts = (kind: Workload["kind"], ns: string, name: string, uid: string | undefined) => {
    const key = `${kind}/${ns}/${name}/${uid ?? ""}`;
    const cached = uid ? cache.get(key) : undefined;
    if (cached) return Promise.resolve(cached);
    let read = reads.get(key);
    if (!read) {
      read = readOwner(cluster, kind, ns, name).then((f) => {
        if (f && uid) cache.set(key, f);
        return f;
      });
      reads.set(key, read);
    }
    return read;
  };
  let done = 0;
  await mapLimit(owners, CONCURRENCY, async (o) => {
    const w = await facts(o.kind, o.ns, o.name, o.uid);
    onProgress?.({ phase: "owners", done: ++done, total: owners.length });
    if (!w) return;
    const parent = w.deployment;
    const top = parent ? await facts("Deployment", o.ns, parent.name, parent.uid) : w;
    const id = top && parent ? `Deployment/${o.ns}/${parent.name}` : `${o.kind}/${o.ns}/${o.name}`;
    o.workload = id;
    replicas.set(id, top?.replicas ?? w.replicas ?? 1);
  });
  return [...replicas.entries()].map(([id, n]) => ({ id, replicas: n }));
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

/**
 * Add the pods of the given nodes, their PDBs and their owners to a snapshot. Pods are read node
 * by node and kept only as PodInfo: memory grows with what the plan keeps, not with the API's
 * objects.
 */
export async function addWorkloads(
  snapshot: Snapshot,
  nodeNames: string[],
  cluster: Cluster,
  onProgress?: OnProgress,
  owned?: OwnerCache,
): Promise<Snapshot> {
  const shared = new Shared();
  const owners = new Owners();
  const namespaces = new Set<string>();
  let done = 0;
  const perNode = await mapLimit(nodeNames, CONCURRENCY, async (node) => {
    const infos: PodInfo[] = [];
    const refs: (OwnerRef | undefined)[] = [];
    let cont: string | undefined;
    do {
      const page = await cluster.listPods(
        undefined,
        pageOf(cont, { fieldSelector: `spec.nodeName=${node}` }),
      );
      for (const p of page.items) {
        infos.push(podInfo(p, shared));
        refs.push(owners.of(p));
        namespaces.add(p.metadata.namespace ?? "default");
      }
      cont = page.metadata.continue || undefined;
    } while (cont);
    onProgress?.({ phase: "pods", done: ++done, total: nodeNames.length });
    return { infos, refs };
  });
  const sorted = [...namespaces].sort();
  let nsDone = 0;
  const pdbs = (
    await mapLimit(sorted, CONCURRENCY, async (ns) => {
      const r = await listAll((cont) => cluster.listPodDisruptionBudgets(ns, pageOf(cont)));
      onProgress?.({ phase: "budgets", done: ++nsDone, total: sorted.length });
      return r.items.map(pdbInfo);
    })
  ).flat();
  const workloads = await readWorkloads(cluster, owners.all, onProgress, owned);
  const pods: PodInfo[] = [];
  for (const { infos, refs } of perNode)
    infos.forEach((info, i) => {
      const workload = refs[i]?.workload;
      if (workload) info.workload = workload;
      pods.push(info);
    });
  return { ...snapshot, pods, pdbs, workloads };
}
