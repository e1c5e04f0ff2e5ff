// The live state a plan is computed from: plain data, read through the ports by
// src/plan/read.ts (or built directly by tests). Only what planning needs, scoped to the
// groups of one policy and the pods on nodes that would be replaced.

import {
  derived,
  isFinished,
  type LabelSelector,
  type NodeSelectorTerm,
  type Taint,
  type Toleration,
} from "../ports/index.js";

export type { LabelSelector, NodeSelectorTerm, Taint, Toleration };

/** How the Kubernetes API read was found to be the cluster's (src/plan/identity.ts). */
export type ClusterProof =
  | { by: "endpoint" | "certificate"; server: string }
  | { by: "nodes"; server?: string; found: number; judged: number }
  /** No endpoint to compare and no instance to judge by: nothing here can be acted on wrongly. */
  | { by: "nothing-to-judge"; server?: string };

/** The cluster a snapshot was read from, and how its API was proven to be that cluster's. */
export interface ClusterInfo {
  name: string;
  region: string;
  version: string;
  /** Absent in a snapshot made without reading the cluster (tests, the rehearsal's twin). */
  verified?: ClusterProof;
}

export interface InstanceInfo {
  id: string;
  zone: string;
  /** The launch template version it was launched from (resolved to a number). */
  launchTemplateVersion?: number;
  /** The launch template (its id) it was launched from, as its Auto Scaling group reports it. */
  launchTemplate?: string;
  lifecycleState: string;
  /**
   * From EC2, only for an instance no node has registered for yet: one that has a node is as
   * old as its node (NodeInfo.createdAt), and a plan does not ask EC2 about it (launchTimes).
   */
  launchTime?: Date;
  /** Set when noderoll (or kOps) detached it to surge: it must be replaced and is drained last. */
  detachedForSurge?: boolean;
  /**
   * A member of its group that carries noderoll's surge mark (DETACHED_LABEL as an EC2 tag): a
   * run died between marking it and detaching it. Cleared when it no longer needs replacing.
   */
  markedForSurge?: true;
}

export interface NodeInfo {
  name: string;
  instanceId?: string;
  group?: string;
  zone?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  taints: Taint[];
  unschedulable: boolean;
  ready: boolean;
  /** Its kubelet stopped reporting (Ready Unknown): see `leftOnUnreachable`. */
  unreachable?: true;
  createdAt: Date;
  kubeletVersion?: string;
}

export interface LaunchTemplateRef {
  id: string;
  name?: string;
  /** What the group is configured with: "$Latest", "$Default" or a number. */
  configured: string;
  /** The configured version resolved to a number. */
  resolved: number;
  latest: number;
  default: number;
}

/** Scaling processes suspended on a group's Auto Scaling group (its SuspendedProcesses). */
export interface SuspendedProcesses {
  /** The Auto Scaling group (a managed node group's is named by EKS, not as the node group). */
  autoScalingGroup: string;
  /** Each with its SuspensionReason: a person's, or Auto Scaling's own ("Administration"). */
  processes: { name: string; reason?: string }[];
}

interface GroupCommon {
  name: string;
  /**
   * The clusters the group says it belongs to: a managed node group, the one EKS lists it under;
   * an Auto Scaling group, those its tags name (kubernetes.io/cluster/NAME and the like).
   */
  clusters: string[];
  /** EKS lists it as a managed node group of the cluster: EKS rolls it, on the right cluster. */
  listedByEks?: true;
  /**
   * The EKS managed node group an Auto Scaling group is behind (its eks:nodegroup-name tag):
   * named in a policy as an Auto Scaling group, it is EKS's, not noderoll's, to roll.
   */
  nodegroup?: string;
  zones: string[];
  min: number;
  max: number;
  desired: number;
  instances: InstanceInfo[];
  /** Absent when none is suspended. */
  suspended?: SuspendedProcesses;
}

export interface ManagedGroupInfo extends GroupCommon {
  kind: "managed";
  version: string;
  releaseVersion: string;
  launchTemplate?: LaunchTemplateRef;
  /** "CUSTOM" when the launch template names its own AMI (DescribeNodegroup's amiType). */
  amiType?: string;
  updateConfig: {
    maxUnavailable?: number;
    maxUnavailablePercentage?: number;
    updateStrategy?: "DEFAULT" | "MINIMAL";
  };
  status: string;
  healthIssues: { code: string; message: string }[];
  /** The EKS update in progress on the node group (UPDATING), whoever started it. */
  update?: UpdateInProgress;
}

/** An EKS update in progress, and what a version update takes the node group to. */
export interface UpdateInProgress {
  id: string;
  type: string;
  createdAt: Date;
  /** A VersionUpdate's target, from its params (what it names; EKS may fill in the rest). */
  to: { kubernetesVersion?: string; releaseVersion?: string; launchTemplateVersion?: number };
}

export interface SelfManagedGroupInfo extends GroupCommon {
  kind: "self-managed";
  launchTemplate?: LaunchTemplateRef;
  /** Mixed-instances policies name a launch template too; noted for the plan. */
  mixedInstances: boolean;
  /**
   * Processes an earlier run suspended while it rolled the group (AZRebalance), as its mark on
   * the group says (kinds/self-managed/processes.ts): apply resumes them and removes the mark.
   */
  suspendedByNoderoll?: string[];
  /**
   * The instances of the group's warm pool, when it keeps one (DescribeWarmPool): launched ahead
   * and kept stopped, they enter service as they are when the group scales out.
   */
  warmPool?: InstanceInfo[];
}

export type LiveGroup = ManagedGroupInfo | SelfManagedGroupInfo;

export interface ContainerInfo {
  name: string;
  readinessProbe: boolean;
  /** Seconds a preStop hook sleeps (`sleep N` exec or the sleep action), when known. */
  preStopSleepSeconds?: number;
}

export interface PodInfo {
  namespace: string;
  name: string;
  nodeName: string;
  labels: Record<string, string>;
  owner?: { kind: string; name: string };
  /** The workload behind the owner (a ReplicaSet's Deployment), "Kind/namespace/name". */
  workload?: string;
  phase: string;
  ready: boolean;
  tolerations: Toleration[];
  terminationGracePeriodSeconds: number;
  containers: ContainerInfo[];
  mirror?: boolean;
  /**
   * Set when the pod is being deleted (metadata.deletionTimestamp): the time its grace period
   * ends. A pod still there well after it is held by a finalizer or an unreachable kubelet.
   */
  deletionTimestamp?: string;
  /**
   * The snapshot's PodDisruptionBudgets that select it, as the read that made it found them
   * (src/plan/pod-store.ts asks the budgets' index once per owner, and once for a pod whose
   * labels are its own, not once per pod and pass). Absent on a PodInfo made otherwise: the
   * index answers (src/plan/pdb-index.ts).
   */
  budgets?: PdbInfo[] | undefined;
  /** Its workload's replicas, where its workload was read (see `workload`). */
  replicas?: number | undefined;
  /** What may bind it to a zone, where something may (placement.ts). */
  placement?: PodPlacement;
}

/**
 * What a pod asks of its node beyond taints, kept for a pod something may bind to a zone — its
 * nodeSelector names a zone label, its required node affinity does, or it has volume claims
 * (a claim's volume may pin a zone): its nodeSelector, its required node affinity's terms and
 * its claims' names (in its namespace).
 */
export interface PodPlacement {
  nodeSelector?: Record<string, string>;
  affinity?: NodeSelectorTerm[];
  claims?: string[];
}

/** A PersistentVolumeClaim of a pod to move, and its volume's required node affinity. */
export interface ClaimInfo {
  namespace: string;
  name: string;
  /** The PersistentVolume it is bound to. */
  volume?: string;
  /** The volume's spec.nodeAffinity.required terms (a zonal disk's zone). */
  nodeAffinity?: NodeSelectorTerm[];
}

/**
 * A pod a drain moves: not a mirror pod, not a DaemonSet's (kubectl drain leaves both), and not
 * one that has finished (Succeeded, Failed: its containers have stopped for good; nothing to
 * wait for, bring back or ask a budget about). Preflight's findings and a drain's estimate count
 * these pods, and only these; those about budgets count the ones that ask them (asksBudgets). A
 * Pending pod counts for both: the eviction API would let it go without asking its budget
 * (canIgnorePDB in the Kubernetes source, pkg/registry/core/pod/storage/eviction.go), but what
 * matters is its phase when its node is drained, by which time a pod pulling images or running
 * init containers is usually Running.
 */
export function drainMoves(p: PodInfo): boolean {
  return drainWaitsFor(p) && !isFinished(p.phase);
}

/**
 * A pod a drain evicts and waits to see gone: every pod but mirror pods and a DaemonSet's, which
 * kubectl drain leaves (finished ones too: they go at once, unless held).
 */
export function drainWaitsFor(p: PodInfo): boolean {
  return !drainLeaves(p.mirror, p.owner?.kind);
}

/**
 * kubectl drain leaves mirror pods and the running pods a DaemonSet controls on their node (its
 * mirror-pod and daemonSet filters, k8s.io/kubectl/pkg/drain): the one rule for the plan's pods
 * and the roll's (src/roll/drain-filters.ts). kubectl also deletes a finished DaemonSet pod, and
 * with --force one whose DaemonSet is gone; noderoll leaves those too: neither holds anything up,
 * and the node's termination takes them.
 */
export function drainLeaves(
  mirror: boolean | undefined,
  controllerKind: string | undefined,
): boolean {
  return mirror || controllerKind === "DaemonSet";
}

/**
 * Whether a pod being deleted is held: still there over a minute after its deletion was due
 * (metadata.deletionTimestamp: the deletion's time plus its grace period). Otherwise its kubelet
 * removes it within seconds of the grace's end; a finalizer or an unreachable kubelet holds it.
 * The minute also absorbs some skew between the API server's clock and `now`.
 */
export function heldPastDeletion(p: { deletionTimestamp?: string }, now: Date): boolean {
  if (p.deletionTimestamp === undefined) return false;
  return Date.parse(p.deletionTimestamp) + 60_000 < now.getTime();
}

/**
 * How long past a pod's deletion due time the drain of an unreachable node waits for the pod to
 * go: kubectl drain's --skip-wait-for-delete-timeout, which Cluster API sets to 5 minutes for a
 * node whose Ready condition is Unknown (its machine controller's drain). No kubelet will confirm
 * the pod's end; its node's termination takes it (pod garbage collection deletes the pods of a
 * node that is gone).
 */
export const UNREACHABLE_WAIT_MS = 5 * 60_000;

/**
 * From when (ms) the drain of an unreachable node leaves a pod behind rather than wait for it:
 * once its deletion, due at `dueMs`, was due over UNREACHABLE_WAIT_MS before.
 */
export const unreachableLeaveAt = (dueMs: number) => dueMs + UNREACHABLE_WAIT_MS + 1;

/** Whether that moment has come for a pod being deleted (its deletionTimestamp), at `now`. */
export function leftOnUnreachable(deletionTimestamp: string | undefined, now: number): boolean {
  return (
    deletionTimestamp !== undefined && now >= unreachableLeaveAt(Date.parse(deletionTimestamp))
  );
}

/**
 * A pod whose eviction asks its budgets: one a drain moves (drainMoves) that is not already being
 * deleted. The eviction API lets a pod with a deletionTimestamp go without asking (canIgnorePDB,
 * as above), and the disruption controller no longer counts it healthy, though a budget with a
 * whole-number minAvailable still counts it among its expected pods; the drain still waits for
 * it to go. Budget findings and the turns' order count these pods, and only these.
 */
export function asksBudgets(p: PodInfo): boolean {
  return drainMoves(p) && p.deletionTimestamp === undefined;
}

export interface PdbInfo {
  namespace: string;
  name: string;
  /** Absent: the PDB selects nothing (policy/v1), as the disruption controller reads it. */
  selector?: LabelSelector;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
}

export interface WorkloadInfo {
  /** "Deployment/namespace/name" */
  id: string;
  replicas: number;
}

const REPLICAS = Symbol("replicas");

/**
 * Each workload's replicas, by id: one map per list of workloads, kept on the list and made once
 * however many ask (the read's store, for the pods it makes, and preflight, for each group
 * planned from the snapshot).
 */
export function workloadReplicas(workloads: readonly WorkloadInfo[]): ReadonlyMap<string, number> {
  return derived(
    workloads,
    REPLICAS,
    (list): ReadonlyMap<string, number> => new Map(list.map((w) => [w.id, w.replicas])),
  );
}

/**
 * The pods of a snapshot, node by node. A plan asks for the pods of one group's nodes at a time
 * and lets them go with the group: kept for the whole snapshot, 3 million PodInfo at 100,000
 * nodes were ~400 MB that lived through the read and the plan, every page of it a fault when
 * first written and marked by every major collection. A read keeps the pods in compact rows
 * (src/plan/pod-store.ts) and makes PodInfo from them when asked.
 */
export interface NodePods {
  /**
   * The pods on `node`, in the order listed (none for a node not read). Each call may give new
   * objects: ask once per node and plan, and change nothing in the list.
   */
  on(node: string): PodInfo[];
  /** Every pod, made at once, in the order read (node by node from a cluster): for tests. */
  all(): PodInfo[];
}

/** Pods already made, as NodePods: for a snapshot built in memory (tests, a draft snapshot). */
export function nodePods(pods: readonly PodInfo[]): NodePods {
  let byNode: Map<string, PodInfo[]> | undefined;
  return {
    on(node) {
      if (!byNode) {
        byNode = new Map();
        for (const p of pods) {
          const list = byNode.get(p.nodeName);
          if (list) list.push(p);
          else byNode.set(p.nodeName, [p]);
        }
      }
      return byNode.get(node) ?? [];
    },
    all: () => [...pods],
  };
}

export interface Snapshot {
  cluster: ClusterInfo;
  takenAt: Date;
  /** Live groups by name; a policy group missing here does not exist. */
  groups: LiveGroup[];
  /**
   * The groups the cluster has, by name, read only when the policy names one it lacks (EKS's
   * node groups, and those the nodes' labels name): what the plan suggests instead.
   */
  knownGroups?: string[];
  /** Latest EKS AMI release version per Kubernetes minor version, for `releaseVersion: latest`. */
  latestReleaseVersions: Record<string, string>;
  nodes: NodeInfo[];
  /** The pods of the nodes read (those a plan would replace), asked for node by node. */
  pods: NodePods;
  pdbs: PdbInfo[];
  workloads: WorkloadInfo[];
  /** The claims the pods to move name, and their volumes' node affinity (claims.ts). */
  claims?: ClaimInfo[];
  /** Why claims or volumes could not be read (forbidden), when they could not. */
  claimsUnread?: string;
  /** Nodes in the whole cluster, for surge-burst warnings. */
  clusterNodeCount: number;
  /**
   * Pods the cluster's nodes may hold (the sum of their allocatable pods): a bound on what a
   * cluster-wide pod list costs, for choosing how to read pods (src/plan/read.ts, readPath).
   */
  clusterPodCapacity?: number;
}

export const NEEDS_UPDATE_ANNOTATION = "noderoll.io/needs-update";
export const KOPS_NEEDS_UPDATE_ANNOTATION = "kops.k8s.io/needs-update";

/**
 * On a node whose instance noderoll detached to surge, and as a tag on the instance itself: the
 * group it came from. The tag finds the instance again if its node object goes first.
 */
export const DETACHED_LABEL = "noderoll.io/detached-from";
