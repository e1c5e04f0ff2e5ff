// What the twin needs beyond the plan's snapshot: the whole cluster as the scheduler sees it —
// every node with its allocatable capacity, labels and taints, every pod with its requests,
// tolerations, node selector and timings, every PodDisruptionBudget, and the owners behind the
// pods. One paginated list of each — reads that grow with the cluster, not with the nodes to
// replace, which is why a rehearsal is on by default only for clusters small enough to read
// whole.
import { CONCURRENCY, launchTimes, mapLimit } from "../plan/index.js";
import {
  AwsApiError,
  instanceIdOf,
  KubeApiError,
  listAll,
  pageOf,
  resilient,
  type Clock,
  type Cloud,
  type Cluster,
  type Node,
  type Pod,
  type PodDisruptionBudget,
  type Workload,
} from "../ports/index.js";
import { isRecentNode } from "./recent.js";

export interface LiveCluster {
  /**
   * When the cluster is the sandbox itself: its physics, which it can state exactly — the timings
   * its scenario gives and the seed its randomness comes from. A real cluster has none.
   */
  physics?: { name: string; seed: number; timings: Record<string, number> };
  nodes: Node[];
  pods: Pod[];
  pdbs: PodDisruptionBudget[];
  /** Owners by "Kind/namespace/name": ReplicaSets, Deployments, StatefulSets, DaemonSets. */
  owners: Map<string, Workload>;
  /** The launch times (by instance ID) of the recent nodes' instances, from EC2. */
  launched: Map<string, Date>;
}

const OWNER_KINDS: ReadonlySet<string> = new Set([
  "ReplicaSet",
  "Deployment",
  "StatefulSet",
  "DaemonSet",
]);

function controllerOf(o: { metadata: Pod["metadata"] }) {
  return o.metadata.ownerReferences?.find((r) => r.controller) ?? o.metadata.ownerReferences?.[0];
}

async function owners(cluster: Cluster, pods: Pod[]): Promise<Map<string, Workload>> {
  const out = new Map<string, Workload>();
  const wanted = new Map<string, { kind: Workload["kind"]; ns: string; name: string }>();
  for (const p of pods) {
    const o = controllerOf(p);
    if (!o || !OWNER_KINDS.has(o.kind)) continue;
    const ns = p.metadata.namespace ?? "default";
    wanted.set(`${o.kind}/${ns}/${o.name}`, { kind: o.kind as Workload["kind"], ns, name: o.name });
  }
  const read = async (k: { kind: Workload["kind"]; ns: string; name: string }) => {
    const key = `${k.kind}/${k.ns}/${k.name}`;
    if (out.has(key)) return;
    // An owner deleted since its pods were listed: the pods stand for it.
    const w = await cluster.getWorkload(k.kind, k.ns, k.name).catch((e: unknown) => {
      if (e instanceof KubeApiError && e.status === 404) return undefined;
      throw e;
    });
    if (w) out.set(key, w);
    const parent = w && k.kind === "ReplicaSet" ? controllerOf(w) : undefined;
    if (parent?.kind === "Deployment")
      await read({ kind: "Deployment", ns: k.ns, name: parent.name });
  };
  await mapLimit([...wanted.values()], CONCURRENCY, read);
  return out;
}

/**
 * Read through the same retries and deadlines as the plan's own reads (ports/resilient.ts): a
 * throttled or dropped list is retried, and `signal` (a cancelled run) ends the read at once.
 * `instances`: the planned groups' instances (the snapshot's), whose recent nodes' launch times
 * are read to time their boots; none without.
 */
export async function readLiveCluster(
  ports: { cloud: Cloud; cluster: Cluster; clock: Clock },
  signal?: AbortSignal,
  instances: ReadonlySet<string> = new Set(),
): Promise<LiveCluster> {
  const options = { ...(signal && { signal }) };
  const cluster = resilient(ports.cluster, ports.clock, options);
  const [nodes, pods, pdbs] = await Promise.all([
    listAll((c) => cluster.listNodes(pageOf(c))).then((r) => r.items),
    listAll((c) => cluster.listPods(undefined, pageOf(c))).then((r) => r.items),
    listAll((c) => cluster.listPodDisruptionBudgets(undefined, pageOf(c))).then((r) => r.items),
  ]);
  const cloud = resilient(ports.cloud, ports.clock, options);
  const launched = await recentLaunches(cloud, nodes, instances, ports.clock.now().getTime());
  return { nodes, pods, pdbs, owners: await owners(cluster, pods), launched };
}

/**
 * The launch times of the recent nodes' instances among `instances`: a recent node's launch →
 * registration is a boot the twin can time, and the plan read no launch time for an instance with
 * a node (launchTimesWithoutNode). Only instances the Auto Scaling groups listed: EC2 refuses a
 * whole DescribeInstances for one ID it no longer knows (a Node left behind by an instance
 * terminated over an hour ago), and one that went since the groups were read leaves the boots
 * untimed (the defaults stand) rather than failing the rehearsal.
 */
async function recentLaunches(
  cloud: Cloud,
  nodes: Node[],
  instances: ReadonlySet<string>,
  now: number,
): Promise<Map<string, Date>> {
  const ids = nodes
    .filter((n) => isRecentNode(n, now))
    .flatMap((n) => instanceIdOf(n) ?? [])
    .filter((id) => instances.has(id));
  return launchTimes(cloud, ids).catch((e: unknown) => {
    if (e instanceof AwsApiError && e.code.startsWith("InvalidInstanceID")) return new Map();
    throw e;
  });
}

/** A sandbox world's physics, for a rehearsal of the sandbox itself (`--sandbox`). */
export function physicsOf(world: {
  scenario: { metadata: { name: string }; seed: number; timings: Record<string, number> };
}): NonNullable<LiveCluster["physics"]> {
  return {
    name: world.scenario.metadata.name,
    seed: world.scenario.seed,
    timings: { ...world.scenario.timings },
  };
}
