// A world's starting state, from its scenario: per node group a launch template (with its
// versions), an Auto Scaling group, for managed groups the EKS node group, and the instances
// already running (nodes Ready); then the PodDisruptionBudgets and the workloads, whose pods are
// placed and Ready from the start. The order of the steps is the order of the seeded random
// draws, so it is part of what makes a scenario replay exactly.
import { freshId, type IssuedIds } from "../model/issued.js";
import type { Availability } from "../model/observers.js";
import type { Random } from "../model/random.js";
import { PodSet } from "../model/pod-set.js";
import type { AsgRec, LtVersion, PdbRec, WorkloadRec } from "../model/records.js";
import { replicasOf, scenarioScale } from "../scenarios/scale.js";
import type { Scenario } from "../scenarios/schema.js";
import type { AutoScalingSim } from "../sim/aws/auto-scaling.js";
import type { Ec2Sim } from "../sim/aws/ec2.js";
import type { EksSim } from "../sim/aws/eks.js";
import type { KubeSim } from "../sim/kube/kube.js";

export interface Simulators {
  now: number;
  random: Random;
  availability: Availability;
  ec2: Ec2Sim;
  autoScaling: AutoScalingSim;
  eks: EksSim;
  kube: KubeSim;
  /** The account's issued ids, when the world shares one with others (model/issued.ts). */
  issued?: IssuedIds;
}

type NodeGroup = Scenario["nodeGroups"][number];
type Workload = Scenario["workloads"][number];

const DAY = 86_400_000;

export function buildWorld(s: Scenario, sims: Simulators): void {
  // The pod store's index at the size the world's pods need, made once (pod-table.ts).
  sims.kube.pods.reserve(scenarioScale(s).pods);
  for (const g of s.nodeGroups) buildGroup(s, g, sims);
  // PDBs before pods, so pods know their budgets from birth.
  for (const w of s.workloads) {
    if (!w.pdb) continue;
    const selector = { matchLabels: w.labels ?? { app: w.name } };
    sims.kube.addPdb(pdbRecord(sims.kube, w.namespace, w.pdb.name ?? w.name, selector, w.pdb));
  }
  for (const p of s.pdbs)
    sims.kube.addPdb(pdbRecord(sims.kube, p.namespace, p.name, p.selector, p));
  const order = ["DaemonSet", "StatefulSet", "Deployment", "Pod"];
  const sorted = [...s.workloads].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  for (const w of sorted) sims.kube.addWorkload(workloadRecord(s, w, sims), { readyNow: true });
  for (const w of sims.kube.workloads.values()) {
    let ready = 0;
    for (const p of w.pods) if (p.ready) ready++;
    sims.availability.track(
      w.key,
      w.kind === "DaemonSet" ? Math.max(1, w.pods.size) : w.replicas,
      ready,
    );
  }
}

/** One node group: its launch template, its Auto Scaling group, its EKS node group, its instances. */
function buildGroup(s: Scenario, g: NodeGroup, sims: Simulators): void {
  const { now, random, ec2, autoScaling, eks, issued } = sims;
  const zones = g.zones ?? s.zones;
  const version = g.version ?? s.cluster.version;
  const managed = g.type === "managed";
  const ltId = freshId(issued, () => `lt-0${random.hex(16)}`);
  const custom = managed && g.launchTemplate !== undefined;
  // A launch template that leaves the AMI to EKS: EKS launches its optimized AMI for the release.
  const eksAmi = custom && g.launchTemplate?.ami === "eks-optimized";
  ec2.templates.set(ltId, {
    id: ltId,
    name:
      g.launchTemplate?.name ??
      (managed && !custom ? freshId(issued, () => `eks-${random.uuid()}`) : g.name),
    versions: templateVersions(g, version, custom, sims, eksAmi),
    defaultVersion: g.launchTemplate?.default ?? 1,
  });
  const use = g.launchTemplate?.use ?? "$Latest";
  const asgName = managed ? freshId(issued, () => `eks-${g.name}-${random.uuid()}`) : g.name;
  const asg = groupRecord(s, g, { asgName, zones, ltId, use: String(use), now });
  if (eksAmi) {
    const releaseVersion = g.releaseVersion as string;
    asg.eksImage = {
      imageId: eks.amiFor(releaseVersion),
      releaseVersion,
      kubernetesVersion: version,
    };
  }
  autoScaling.groups.set(asgName, asg);
  if (managed)
    eks.nodegroups.set(g.name, {
      name: g.name,
      asg: asgName,
      version,
      releaseVersion: g.releaseVersion as string,
      ltId,
      customLaunchTemplate: custom,
      customAmi: custom && !eksAmi,
      updateConfig: g.updateConfig ?? { maxUnavailable: 1 },
      status: "ACTIVE",
      issues: [],
      createdAt: now - 30 * DAY,
      modifiedAt: now - 30 * DAY,
    });
  const configured = ec2.resolveVersion(ec2.templates.get(ltId)!, String(use)).number;
  launchInitial(g, asg, zones, configured, sims);
  if (g.warmPool) {
    asg.warmPool = { size: g.warmPool.size, state: g.warmPool.state, instances: new Set() };
    for (let k = 0; k < g.warmPool.size; k++)
      autoScaling.launchWarm(asg, zones[k % zones.length]!, g.warmPool.version ?? configured);
  }
}

/** Versions 1..n, a day apart; managed groups without their own template run EKS's AMI. */
function templateVersions(
  g: NodeGroup,
  version: string,
  custom: boolean,
  sims: Simulators,
  /** The customer's template names no AMI: EKS supplies its own (the group's eksImage). */
  eksAmi = false,
): LtVersion[] {
  const managed = g.type === "managed";
  const nVersions = g.launchTemplate?.versions ?? 1;
  const versions: LtVersion[] = [];
  for (let k = 1; k <= nVersions; k++) {
    const release = managed ? (g.releaseVersion as string) : undefined;
    versions.push({
      number: k,
      imageId: eksAmi
        ? ""
        : managed && !custom
          ? sims.eks.amiFor(release as string)
          : (g.launchTemplate?.images?.[k - 1] ?? sims.eks.amiFor(`${g.name}-v${k}`)),
      ...(release ? { releaseVersion: release } : {}),
      kubernetesVersion: version,
      createdAt: sims.now - (nVersions - k + 1) * DAY,
    });
  }
  return versions;
}

function groupRecord(
  s: Scenario,
  g: NodeGroup,
  at: { asgName: string; zones: string[]; ltId: string; use: string; now: number },
): AsgRec {
  const { asgName } = at;
  const tag = (Key: string, Value: string) => ({
    Key,
    Value,
    ResourceId: asgName,
    ResourceType: "auto-scaling-group" as const,
    PropagateAtLaunch: true,
  });
  return {
    name: asgName,
    min: g.size.min,
    max: g.size.max,
    desired: g.size.desired,
    zones: at.zones,
    ltId: at.ltId,
    ltVersion: at.use,
    mixedInstances: g.mixedInstances,
    instanceType: g.instanceType,
    instances: new Set(),
    tags: [
      ...(g.clusterTag && !Object.keys(g.tags).some((k) => k.startsWith("kubernetes.io/cluster/"))
        ? [tag(`kubernetes.io/cluster/${s.cluster.name}`, "owned")]
        : []),
      ...(g.type === "managed" ? [tag("eks:nodegroup-name", g.name)] : []),
      ...Object.entries(g.tags).map(([Key, Value]) => tag(Key, Value)),
    ],
    suspended: new Set(g.suspendedProcesses),
    activities: [],
    labels: g.labels,
    taints: g.taints,
    capacity: g.capacity,
    createdAt: at.now - 30 * DAY,
    reconcilePending: false,
    ...(g.type === "managed" ? { nodegroup: g.name } : {}),
  };
}

/** The instances running at the start: those listed with their version, the rest at `configured`. */
function launchInitial(
  g: NodeGroup,
  asg: AsgRec,
  zones: string[],
  configured: number,
  sims: Simulators,
): void {
  const plan: { version: number; zone?: string }[] = [];
  for (const i of g.instances ?? [])
    for (let k = 0; k < i.count; k++)
      plan.push({ version: i.version, ...(i.zone ? { zone: i.zone } : {}) });
  while (plan.length < g.size.desired) plan.push({ version: configured });
  const counts = new Map(zones.map((z) => [z, 0]));
  for (const p of plan) {
    const zone =
      p.zone ??
      [...zones].sort(
        (a, b) =>
          (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || zones.indexOf(a) - zones.indexOf(b),
      )[0]!;
    counts.set(zone, (counts.get(zone) ?? 0) + 1);
    const inst = sims.autoScaling.launch(asg, zone, { ltVersion: p.version, initial: true });
    // Instances launched over the past weeks, oldest first.
    inst.launchTime = sims.now - 20 * DAY + asg.instances.size * 60_000;
    const node = sims.kube.nodes.get(inst.nodeName);
    if (node) node.createdAt = inst.launchTime + 90_000;
  }
}

function workloadRecord(s: Scenario, w: Workload, sims: Simulators): WorkloadRec {
  return {
    kind: w.kind,
    namespace: w.namespace,
    name: w.name,
    key: `${w.kind}/${w.namespace}/${w.name}`,
    uid: sims.kube.uid(),
    ...(w.kind === "Deployment" ? { replicaSet: `${w.name}-${sims.random.hex(10)}` } : {}),
    replicas: replicasOf(w),
    template: {
      labels: w.labels ?? { app: w.name },
      tolerations: w.tolerations,
      nodeSelector: w.nodeSelector,
      ...(w.nodeAffinity && { nodeAffinity: w.nodeAffinity }),
      requests: w.requests,
      terminationGracePeriodSeconds: w.terminationGracePeriod,
      preStopSeconds: w.preStop,
      startSeconds: w.start,
      readySeconds: w.ready,
      readinessProbe: w.readinessProbe,
      ...(w.priorityClassName && { priorityClassName: w.priorityClassName }),
    },
    pods: new PodSet(),
    stuckTerminating:
      w.stuckTerminating ||
      s.faults.stuckTerminating.some((n) => n === w.name || n === `${w.namespace}/${w.name}`),
    podSeq: 0,
    zoneCounts: new Map(),
    ...(w.volumes && { volumes: w.volumes }),
  };
}

/** A PodDisruptionBudget record as the scenario makes one (also for a test adding one mid-run). */
export function pdbRecord(
  kube: KubeSim,
  namespace: string,
  name: string,
  selector: PdbRec["selector"],
  b: {
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    unhealthyPodEvictionPolicy?: "IfHealthyBudget" | "AlwaysAllow";
  },
): PdbRec {
  return {
    namespace,
    name,
    uid: kube.uid(),
    rv: kube.nextRv(),
    generation: 1,
    selector,
    ...(b.minAvailable !== undefined ? { minAvailable: b.minAvailable } : {}),
    ...(b.maxUnavailable !== undefined ? { maxUnavailable: b.maxUnavailable } : {}),
    ...(b.unhealthyPodEvictionPolicy
      ? { unhealthyPodEvictionPolicy: b.unhealthyPodEvictionPolicy }
      : {}),
    pods: new PodSet(),
    disrupted: new Map(),
    dirty: true,
    status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
  };
}
