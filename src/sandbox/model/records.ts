// The sandbox's own records: mutable, indexed, richer than the port objects (which are built
// from them on demand, so a 30,000-pod cluster is not copied on every change).
import type { LabelSelector, NodeSelectorTerm, Taint, Toleration } from "../../ports/cluster.js";
import type { LifecycleState, ScalingActivity, Tag, UpdateConfig } from "../../ports/cloud.js";
import { uidOf } from "./uid.js";
import type { PodSet } from "./pod-set.js";

export interface Resources {
  /** millicores */
  cpu: number;
  /** bytes */
  memory: number;
  pods: number;
}

export interface LtVersion {
  number: number;
  imageId: string;
  /** For managed groups: the EKS AMI release version and Kubernetes version this AMI runs. */
  releaseVersion?: string;
  kubernetesVersion: string;
  createdAt: number;
}

export interface LaunchTemplateRec {
  id: string;
  name: string;
  versions: LtVersion[];
  defaultVersion: number;
}

export type InstanceState = "pending" | "running" | "stopped" | "shutting-down" | "terminated";

export interface InstanceRec {
  id: string;
  zone: string;
  instanceType: string;
  /** The group it belongs to; undefined once detached. */
  asg?: string;
  /** The group it was launched by (kept after detaching, for the node's labels). */
  launchedBy: string;
  ltId: string;
  ltVersion: number;
  imageId: string;
  launchTime: number;
  state: InstanceState;
  lifecycle: LifecycleState;
  health: "Healthy" | "Unhealthy";
  nodeName: string;
  /** Fault: the kubelet registers but the node never turns Ready. */
  neverReady: boolean;
  /** Fault: the instance runs, its kubelet never registers a node. */
  neverJoins?: boolean;
  /** Fault: launched from a bad release (the scenario's faults.badRelease entry it matched). */
  badRelease?: BadReleaseMark;
  /** The Kubernetes version of the AMI, when EKS chose it (not the launch template). */
  kubernetesVersion?: string;
  tags: { Key: string; Value: string }[];
}

/** A bad release an instance was launched from, as the scenario names it (faults.badRelease). */
export interface BadReleaseMark {
  effect: "neverReady" | "crashLoop" | "errors";
  /** The share of requests that fail on the workload pods its nodes run. */
  errorRatio: number;
  group?: string;
  launchTemplateVersion?: number;
  releaseVersion?: string;
}

export interface AsgRec {
  name: string;
  min: number;
  max: number;
  desired: number;
  zones: string[];
  ltId: string;
  /** "$Latest", "$Default" or a number as a string. */
  ltVersion: string;
  mixedInstances: boolean;
  instanceType: string;
  instances: Set<string>;
  tags: Tag[];
  suspended: Set<string>;
  activities: ScalingActivity[];
  /** The EKS managed node group behind it, if any. */
  /**
   * The EKS optimized AMI EKS launches the group's instances with, when the group's launch
   * template leaves the AMI to EKS; otherwise the template's version names it.
   */
  eksImage?: { imageId: string; releaseVersion: string; kubernetesVersion: string };
  nodegroup?: string;
  /** Labels and taints every node of the group registers with. */
  labels: Record<string, string>;
  taints: Taint[];
  capacity: Resources;
  createdAt: number;
  /** A reconcile is already scheduled. */
  reconcilePending: boolean;
  /** An AZ rebalance is under way. */
  rebalancing?: boolean;
  /**
   * A warm pool: instances launched ahead and kept stopped (or running), never members of the
   * group; one terminated is replaced from the group's launch template as it is then.
   */
  warmPool?: { size: number; state: "Stopped" | "Running" | "Hibernated"; instances: Set<string> };
}

export interface NodegroupRec {
  name: string;
  asg: string;
  version: string;
  releaseVersion: string;
  ltId: string;
  /** The launch template is the customer's (launchTemplate in the API), not EKS's own. */
  customLaunchTemplate: boolean;
  /** The customer's template names its own AMI (EKS's amiType CUSTOM). */
  customAmi?: boolean;
  updateConfig: UpdateConfig;
  status: "ACTIVE" | "UPDATING" | "DEGRADED";
  issues: { code: string; message: string; resourceIds?: string[] }[];
  createdAt: number;
  modifiedAt: number;
}

export interface NodeRec {
  name: string;
  uid: string;
  rv: number;
  instanceId: string;
  zone: string;
  group: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  taints: Taint[];
  unschedulable: boolean;
  ready: boolean;
  createdAt: number;
  kubeletVersion: string;
  capacity: Resources;
  used: Resources;
  /**
   * Its pods, in the order they were bound. A list, not a Set: a node holds a few dozen, and a
   * world of 3 million pods spent more time hashing them into 100,000 small sets (and growing
   * each four times) than a search of a few dozen entries costs when one leaves.
   */
  pods: PodRec[];
  deleted: boolean;
  /**
   * Fault: its kubelet stopped reporting while the instance runs on (a hung or partitioned
   * host). The node controller shows Ready as Unknown and taints it; nothing it held finishes
   * terminating until the node object goes or a pod is deleted with grace 0.
   */
  unreachable: boolean;
  /** Fault: a bad release's node (crashLoop): its workload pods crash-loop (kubelet.ts). */
  crashLoop?: boolean;
}

export type WorkloadKind = "Deployment" | "StatefulSet" | "DaemonSet" | "Pod";

export interface PodTemplate {
  labels: Record<string, string>;
  tolerations: Toleration[];
  nodeSelector: Record<string, string>;
  /** Required node affinity's terms (ORed); absent: none. */
  nodeAffinity?: NodeSelectorTerm[];
  requests: { cpu: number; memory: number };
  terminationGracePeriodSeconds: number;
  preStopSeconds: number;
  startSeconds: number;
  readySeconds: number;
  readinessProbe: boolean;
  priorityClassName?: string;
}

export interface WorkloadRec {
  kind: WorkloadKind;
  namespace: string;
  name: string;
  /** "Deployment/default/web" */
  key: string;
  uid: string;
  /** The ReplicaSet a Deployment's pods belong to. */
  replicaSet?: string;
  replicas: number;
  template: PodTemplate;
  pods: PodSet<PodRec>;
  /** Fault: pods of this workload never finish terminating (a stuck finalizer). */
  stuckTerminating: boolean;
  /** A StatefulSet's volume claim template: each ordinal's claim bound to a zonal volume. */
  volumes?: "zonal";
  podSeq: number;
  /**
   * For the scheduler's spreading, kept as the kubelet binds and releases pods: per zone, its
   * pods bound there. On the workload itself, not in maps by workload key: a large world made
   * two lookups in maps of every workload per pod placed. Its pods per node are counted from
   * `pods` when the scheduler asks (placement.ts): a map per workload kept pod by pod was ~10%
   * of what building a large world allocated, for an answer asked once per workload there.
   */
  zoneCounts: Map<string, number>;
}

export interface PodRec {
  namespace: string;
  name: string;
  /** "namespace/name": its key in the pod store, and the order lists are sorted in. */
  key: string;
  /** Its uid as the numbers it is made from (uidOf in uid.ts spells it out; podUid here). */
  uidSeq: number;
  uidState: number;
  rv: number;
  /** Read-only: the pods of a workload share their template's (a StatefulSet's have their own). */
  labels: Record<string, string>;
  workload?: WorkloadRec;
  ordinal?: number;
  /** DaemonSet pods are bound to this node at creation. */
  nodeName?: string;
  phase: "Pending" | "Running" | "Succeeded" | "Failed";
  /** Containers started (kubelet) — Running. */
  ready: boolean;
  /**
   * Set once it is being deleted: when its grace period ends, as the API server sets a pod's
   * metadata.deletionTimestamp (the deletion's time plus its grace period).
   */
  deletionAt?: number;
  createdAt: number;
  startedAt?: number;
  template: PodTemplate;
  /** Replaced, never changed in place: the pods of a workload may share one list. */
  pdbs: readonly PdbRec[];
  /** Timers of the kubelet for this pod, so a deletion can cancel them (NO_TIMERS: none yet). */
  timers: { cancel(): void }[];
  gone: boolean;
}

/** A pod's uid, spelled out. */
export function podUid(p: PodRec): string {
  return uidOf(p.uidSeq, p.uidState);
}

/** The budgets of a pod that none selects: one shared list (lists are replaced, never changed). */
export const NO_PDBS: readonly PdbRec[] = Object.freeze([]);

/** The timers of a pod that has none: shared, frozen; the kubelet replaces it on the first. */
export const NO_TIMERS: { cancel(): void }[] = Object.freeze([]) as never;

export interface PdbRec {
  namespace: string;
  name: string;
  uid: string;
  rv: number;
  generation: number;
  selector: LabelSelector;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  unhealthyPodEvictionPolicy?: "IfHealthyBudget" | "AlwaysAllow";
  pods: PodSet<PodRec>;
  /** Evictions granted but not yet seen deleted (status.disruptedPods). */
  disrupted: Map<string, number>;
  dirty: boolean;
  status: {
    disruptionsAllowed: number;
    currentHealthy: number;
    desiredHealthy: number;
    expectedPods: number;
  };
}

/**
 * A StatefulSet pod's PersistentVolumeClaim (`volumes: zonal`), kept after its pods as a real
 * claim is, and the volume it is bound to once its first pod is placed (WaitForFirstConsumer):
 * a zonal disk, whose node affinity pins the zone of that node.
 */
export interface ClaimRec {
  namespace: string;
  name: string;
  uid: string;
  rv: number;
  createdAt: number;
  volume?: { name: string; uid: string; zone: string; createdAt: number };
}

export interface LeaseRec {
  namespace: string;
  name: string;
  uid: string;
  rv: number;
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
  createdAt: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
