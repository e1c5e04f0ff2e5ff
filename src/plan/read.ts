// Reading the live state a plan needs, through the ports only, scoped the way reference 003
// asks: node groups by name, nodes paginated, pods only for the nodes that would be replaced
// (by spec.nodeName), PDBs only in the namespaces of those pods, owners looked up one by one.
// The number of requests grows with the nodes to replace, not with the pods of the cluster.
import {
  hasReadyCondition,
  instanceIdOf,
  listAll,
  pageOf,
  resilient,
  type AutoScalingGroup,
  type Cloud,
  type Cluster,
  type Clock,
  type Node,
  type Pod,
  type PodDisruptionBudget,
  type Workload,
} from "../ports/index.js";
import type { Policy } from "../policy/index.js";
import { buildPlan, type PlanOptions } from "./plan.js";
import {
  DETACHED_LABEL,
  type ContainerInfo,
  type InstanceInfo,
  type LaunchTemplateRef,
  type LiveGroup,
  type NodeInfo,
  type PdbInfo,
  type PodInfo,
  type Snapshot,
  type WorkloadInfo,
} from "./snapshot.js";
import type { Plan } from "./types.js";

export interface ReadPorts {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
}

const CONCURRENCY = 8;

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

async function launchTemplateRef(
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

function instancesOf(
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

async function launchTimes(cloud: Cloud, ids: string[]): Promise<Map<string, Date>> {
  const out = new Map<string, Date>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const inst of await cloud.ec2.describeInstances({ InstanceIds: ids.slice(i, i + 500) }))
      out.set(inst.InstanceId, inst.LaunchTime);
  }
  return out;
}

async function readGroups(policy: Policy, cloud: Cloud, now: Date): Promise<LiveGroup[]> {
  const cluster = policy.cluster.name;
  const managedNames = new Set(await cloud.eks.listNodegroups(cluster));
  const wanted = policy.groups.map((g) => g.name);
  const managed = await mapLimit(
    wanted.filter((n) => managedNames.has(n)),
    CONCURRENCY,
    (n) => cloud.eks.describeNodegroup(cluster, n),
  );
  const asgNames = [
    ...new Set([
      ...wanted.filter((n) => !managedNames.has(n)),
      ...managed.flatMap((m) => m.resources.autoScalingGroups.map((a) => a.name)),
    ]),
  ];
  const asgs =
    asgNames.length > 0
      ? await cloud.autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: asgNames })
      : [];
  const byName = new Map(asgs.map((a) => [a.AutoScalingGroupName, a]));
  const times = await launchTimes(
    cloud,
    asgs.flatMap((a) => a.Instances.map((i) => i.InstanceId)),
  );
  const out: LiveGroup[] = [];
  for (const ng of managed) {
    const asg = byName.get(ng.resources.autoScalingGroups[0]?.name ?? "");
    const lt = ng.launchTemplate
      ? await launchTemplateRef(cloud, {
          LaunchTemplateId: ng.launchTemplate.id,
          Version: ng.launchTemplate.version,
        })
      : undefined;
    out.push({
      kind: "managed",
      name: ng.nodegroupName,
      zones: asg?.AvailabilityZones ?? [],
      min: ng.scalingConfig.minSize,
      max: ng.scalingConfig.maxSize,
      desired: ng.scalingConfig.desiredSize,
      instances: asg ? instancesOf(asg, times, now) : [],
      version: ng.version,
      releaseVersion: ng.releaseVersion,
      ...(lt && { launchTemplate: lt }),
      updateConfig: {
        ...(ng.updateConfig.maxUnavailable !== undefined && {
          maxUnavailable: ng.updateConfig.maxUnavailable,
        }),
        ...(ng.updateConfig.maxUnavailablePercentage !== undefined && {
          maxUnavailablePercentage: ng.updateConfig.maxUnavailablePercentage,
        }),
      },
      status: ng.status,
      healthIssues: ng.health.issues.map((h) => ({ code: h.code, message: h.message })),
    });
  }
  for (const name of wanted.filter((n) => !managedNames.has(n))) {
    const asg = byName.get(name);
    if (!asg) continue;
    const spec =
      asg.LaunchTemplate ?? asg.MixedInstancesPolicy?.LaunchTemplate.LaunchTemplateSpecification;
    const lt = await launchTemplateRef(cloud, spec);
    out.push({
      kind: "self-managed",
      name,
      zones: asg.AvailabilityZones,
      min: asg.MinSize,
      max: asg.MaxSize,
      desired: asg.DesiredCapacity,
      instances: instancesOf(asg, times, now),
      ...(lt && { launchTemplate: lt }),
      mixedInstances: asg.MixedInstancesPolicy !== undefined,
    });
  }
  return out;
}

function nodeInfo(n: Node, groupOf: Map<string, string>): NodeInfo {
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
  const owner =
    p.metadata.ownerReferences?.find((o) => o.controller) ?? p.metadata.ownerReferences?.[0];
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

/**
 * Instances an earlier run detached to surge are no longer in their group, but their nodes
 * carry our label: they belong to the group until drained and terminated.
 */
function addDetached(groups: LiveGroup[], nodes: Node[]): void {
  for (const g of groups) {
    if (g.kind !== "self-managed") continue;
    const have = new Set(g.instances.map((i) => i.id));
    for (const n of nodes) {
      const id = instanceIdOf(n);
      if (!id || have.has(id) || n.metadata.labels?.[DETACHED_LABEL] !== g.name) continue;
      g.instances.push({
        id,
        zone: n.metadata.labels?.["topology.kubernetes.io/zone"] ?? "",
        lifecycleState: "Detached",
        launchTime: new Date(n.metadata.creationTimestamp ?? 0),
        detachedForSurge: true,
      });
    }
  }
}

/** Everything but the pods: enough to know which nodes would be replaced. */
export async function readGroupsAndNodes(policy: Policy, ports: ReadPorts): Promise<Snapshot> {
  const now = ports.clock.now();
  const [eksCluster, groups, nodes] = await Promise.all([
    ports.cloud.eks.describeCluster(policy.cluster.name),
    readGroups(policy, ports.cloud, now),
    listAll((cont) => ports.cluster.listNodes(pageOf(cont))).then((r) => r.items),
  ]);
  const latest = (await ports.cloud.eks.latestReleaseVersions?.()) ?? {};
  addDetached(groups, nodes);
  const groupOf = new Map(
    groups.flatMap((g) => g.instances.map((i) => [i.id, g.name] as [string, string])),
  );
  return {
    cluster: {
      name: policy.cluster.name,
      region: policy.cluster.region,
      version: eksCluster.version,
    },
    takenAt: now,
    groups,
    latestReleaseVersions: latest,
    nodes: nodes.map((n) => nodeInfo(n, groupOf)),
    pods: [],
    pdbs: [],
    workloads: [],
    clusterNodeCount: nodes.length,
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

/** Read live state and plan: a first pass finds the nodes to replace, a second reads their pods. */
export async function readAndPlan(
  policy: Policy,
  file: string,
  ports: ReadPorts,
  options: PlanOptions = {},
): Promise<{ plan: Plan; snapshot: Snapshot }> {
  const clock = ports.clock;
  ports = { cloud: resilient(ports.cloud, clock), cluster: resilient(ports.cluster, clock), clock };
  const base = await readGroupsAndNodes(policy, ports);
  const draft = buildPlan(policy, file, base, options);
  const nodes = draft.groups.flatMap((g) =>
    g.replacements.flatMap((r) => (r.node ? [r.node] : [])),
  );
  const snapshot = await addWorkloads(base, nodes, ports.cluster);
  return { plan: buildPlan(policy, file, snapshot, options), snapshot };
}
