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
  type Node,
  type Pod,
  type PodDisruptionBudget,
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

function podInfo(p: Pod, workloadOf: Map<string, string>): PodInfo {
  // Only the controller counts as the owner (kubectl drain's filters): a pod another object
  // merely owns has no controller to bring it back.
  const owner = p.metadata.ownerReferences?.find((o) => o.controller === true);
  const ns = p.metadata.namespace ?? "default";
  const containers: ContainerInfo[] = p.spec.containers.map((c) => {
    const sleep = preStopSeconds(c);
    return {
      name: c.name,
      readinessProbe: c.readinessProbe !== undefined,
      ...(sleep !== undefined && { preStopSleepSeconds: sleep }),
    };
  });
  const workload = owner ? workloadOf.get(`${owner.kind}/${ns}/${owner.name}`) : undefined;
  return {
    namespace: ns,
    name: p.metadata.name,
    nodeName: p.spec.nodeName ?? "",
    labels: p.metadata.labels ?? {},
    ...(owner && { owner: { kind: owner.kind, name: owner.name } }),
    ...(workload && { workload }),
    phase: p.status.phase,
    ready: hasReadyCondition(p.status.conditions),
    tolerations: p.spec.tolerations ?? [],
    terminationGracePeriodSeconds: p.spec.terminationGracePeriodSeconds ?? 30,
    containers,
    ...(p.metadata.annotations?.["kubernetes.io/config.mirror"] !== undefined && { mirror: true }),
  };
}

/** The workloads behind pods: a ReplicaSet's Deployment, a StatefulSet; replicas of each. */
async function readWorkloads(
  cluster: Cluster,
  pods: Pod[],
): Promise<{ workloadOf: Map<string, string>; workloads: WorkloadInfo[] }> {
  const owners = new Map<string, { kind: Workload["kind"]; ns: string; name: string }>();
  for (const p of pods) {
    const o =
      p.metadata.ownerReferences?.find((x) => x.controller) ?? p.metadata.ownerReferences?.[0];
    if (o && ["ReplicaSet", "StatefulSet", "Deployment"].includes(o.kind))
      owners.set(`${o.kind}/${p.metadata.namespace}/${o.name}`, {
        kind: o.kind as Workload["kind"],
        ns: p.metadata.namespace ?? "default",
        name: o.name,
      });
  }
  const workloadOf = new Map<string, string>();
  const replicas = new Map<string, number>();
  await mapLimit([...owners.entries()], CONCURRENCY, async ([key, o]) => {
    const w = await cluster.getWorkload(o.kind, o.ns, o.name).catch(() => undefined);
    if (!w) return;
    const parent =
      o.kind === "ReplicaSet"
        ? w.metadata.ownerReferences?.find((r) => r.kind === "Deployment")
        : undefined;
    const top = parent
      ? await cluster.getWorkload("Deployment", o.ns, parent.name).catch(() => undefined)
      : w;
    const id = `${top?.kind ?? o.kind}/${o.ns}/${top?.metadata.name ?? o.name}`;
    workloadOf.set(key, id);
    replicas.set(id, top?.spec.replicas ?? w.spec.replicas ?? 1);
  });
  return { workloadOf, workloads: [...replicas.entries()].map(([id, n]) => ({ id, replicas: n })) };
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

/** Add the pods of the given nodes, their PDBs and their owners to a snapshot. */
export async function addWorkloads(
  snapshot: Snapshot,
  nodeNames: string[],
  cluster: Cluster,
): Promise<Snapshot> {
  const perNode = await mapLimit(nodeNames, CONCURRENCY, (node) =>
    listAll((cont) =>
      cluster.listPods(undefined, pageOf(cont, { fieldSelector: `spec.nodeName=${node}` })),
    ).then((r) => r.items),
  );
  const pods = perNode.flat();
  const namespaces = [...new Set(pods.map((p) => p.metadata.namespace ?? "default"))].sort();
  const pdbs = (
    await mapLimit(namespaces, CONCURRENCY, (ns) =>
      listAll((cont) => cluster.listPodDisruptionBudgets(ns, pageOf(cont))).then((r) => r.items),
    )
  ).flat();
  const { workloadOf, workloads } = await readWorkloads(cluster, pods);
  return {
    ...snapshot,
    pods: pods.map((p) => podInfo(p, workloadOf)),
    pdbs: pdbs.map(pdbInfo),
    workloads,
  };
}
