// The Kubernetes side as a port: the few resources a roll reads and writes, as Kubernetes-shaped
// plain objects (metadata / spec / status, the JSON field names) so that an adapter over
// @kubernetes/client-node or raw HTTP maps them 1:1. Lists are scoped (label / field selectors)
// and paginated (limit / continue) and waits are watches, as the Kubernetes API concepts ask of
// clients (https://kubernetes.io/docs/reference/using-api/api-concepts/).
// Errors are KubeApiError (src/ports/errors.ts), 429s carrying retryAfterSeconds.

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: {
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller?: boolean;
  }[];
}

export interface Taint {
  key: string;
  value?: string;
  effect: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
  timeAdded?: string;
}

export interface Toleration {
  key?: string;
  operator?: "Exists" | "Equal";
  value?: string;
  effect?: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
  tolerationSeconds?: number;
}

export interface Condition {
  type: string;
  status: "True" | "False" | "Unknown";
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface Node {
  metadata: ObjectMeta;
  spec: { providerID?: string; unschedulable?: boolean; taints?: Taint[] };
  status: {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    conditions?: Condition[];
    nodeInfo?: { kubeletVersion: string };
  };
}

export interface Container {
  name: string;
  image?: string;
  resources?: { requests?: Record<string, string> };
  readinessProbe?: unknown;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
}

export type PodPhase = "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown";

/** A node selector term's requirement (In, NotIn, Exists, DoesNotExist, Gt, Lt). */
export interface NodeSelectorRequirement {
  key: string;
  operator: "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt";
  values?: string[];
}

/** Terms are ORed, a term's requirements ANDed (core/v1 NodeSelector). */
export interface NodeSelector {
  nodeSelectorTerms: {
    matchExpressions?: NodeSelectorRequirement[];
    matchFields?: NodeSelectorRequirement[];
  }[];
}

export type NodeSelectorTerm = NodeSelector["nodeSelectorTerms"][number];

/** A pod's volume, as far as its node matters: a claim, or a generic ephemeral volume's. */
export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string };
  ephemeral?: unknown;
}

export interface Pod {
  metadata: ObjectMeta;
  spec: {
    nodeName?: string;
    containers: Container[];
    tolerations?: Toleration[];
    nodeSelector?: Record<string, string>;
    affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector } };
    volumes?: Volume[];
    terminationGracePeriodSeconds?: number;
    priorityClassName?: string;
  };
  status: {
    phase: PodPhase;
    conditions?: Condition[];
    startTime?: string;
    /** Read by the replacements gate: a container waiting in CrashLoopBackOff, or restarting. */
    containerStatuses?: ContainerStatus[];
  };
}

/** A container's status (Kubernetes API, core/v1 ContainerStatus): the fields noderoll reads. */
export interface ContainerStatus {
  name: string;
  ready: boolean;
  restartCount: number;
  state?: { waiting?: { reason?: string }; running?: { startedAt?: string } };
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: {
    key: string;
    operator: "In" | "NotIn" | "Exists" | "DoesNotExist";
    values?: string[];
  }[];
}

export interface PodDisruptionBudget {
  metadata: ObjectMeta;
  spec: {
    selector?: LabelSelector;
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    unhealthyPodEvictionPolicy?: "IfHealthyBudget" | "AlwaysAllow";
  };
  status: {
    observedGeneration?: number;
    disruptionsAllowed: number;
    currentHealthy: number;
    desiredHealthy: number;
    expectedPods: number;
    disruptedPods?: Record<string, string>;
    conditions?: Condition[];
  };
}

/** The owner objects a drain or preflight looks up (replicas, to judge single-replica risk). */
export interface Workload {
  apiVersion: string;
  kind: "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet";
  metadata: ObjectMeta;
  spec: { replicas?: number; selector?: LabelSelector };
  status: { replicas?: number; readyReplicas?: number; availableReplicas?: number };
}

/** The claim a pod's volume names; bound to a PersistentVolume once `spec.volumeName` is set. */
export interface PersistentVolumeClaim {
  metadata: ObjectMeta;
  spec: { volumeName?: string; storageClassName?: string };
  status: { phase?: "Pending" | "Bound" | "Lost" };
}

/** A volume; `spec.nodeAffinity.required` limits the nodes that can use it (a zonal disk's zone). */
export interface PersistentVolume {
  metadata: ObjectMeta;
  spec: {
    nodeAffinity?: { required?: NodeSelector };
    claimRef?: { namespace?: string; name?: string };
    storageClassName?: string;
  };
  status: { phase?: string };
}

export interface Lease {
  metadata: ObjectMeta;
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

export interface ListOptions {
  /** "app=web,tier!=db,env in (a,b)" — equality, inequality, set-based and existence. */
  labelSelector?: string;
  /** "spec.nodeName=ip-10-0-1-2..." (pods); "metadata.name=..." */
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  /** "0": served from the API server's watch cache (any version, no pagination; see "resource
   * versions" in https://kubernetes.io/docs/reference/using-api/api-concepts/). */
  resourceVersion?: string;
}

export interface List<T> {
  items: T[];
  metadata: { resourceVersion: string; continue?: string };
}

export interface WatchEvent<T> {
  type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK";
  object: T;
}

export interface WatchOptions {
  labelSelector?: string;
  fieldSelector?: string;
  /** Events after this version; absent = the current state as ADDED events first. */
  resourceVersion?: string;
  /** The server ends the watch after this long (the API's timeoutSeconds). */
  timeoutSeconds?: number;
  /** BOOKMARK events keep a quiet watch visibly alive (the API's allowWatchBookmarks). */
  allowWatchBookmarks?: boolean;
  signal?: AbortSignal;
}

/** The answer to an eviction (POST pods/NAME/eviction), mirroring the HTTP status. */
export type EvictionOutcome =
  | { status: 201; message?: string }
  /** A PodDisruptionBudget refused (the API server sends Retry-After: 10); API throttling is
   * never an outcome: it is a KubeApiError(429), retried like any throttled call. */
  | { status: 429; message: string; pdb?: string; causes: string[]; retryAfterSeconds?: number }
  | { status: 500; message: string }
  | { status: 404; message: string }
  /** Forbidden: fatal to the drain (kubectl's), unless the pod's namespace is being deleted. */
  | { status: 403; message: string; namespaceTerminating?: true };

/** A strategic-ish patch: only the fields given change; `null` removes a label/annotation. */
export interface NodePatch {
  labels?: Record<string, string | null>;
  annotations?: Record<string, string | null>;
  /** Replaces the taint list (read, modify, write with resourceVersion to avoid races). */
  taints?: Taint[];
  unschedulable?: boolean;
  /** Precondition: fail with 409 Conflict when the node has changed since. */
  resourceVersion?: string;
}

/**
 * Where the Kubernetes API a Cluster talks to is, as its kubeconfig says: the server's URL and the
 * certificate authority TLS verified it with (base64 PEM, kubeconfig's
 * certificate-authority-data). Compared with EKS's DescribeCluster to prove that the API belongs
 * to the cluster a policy names (src/plan/identity.ts).
 */
export interface ApiEndpoint {
  server: string;
  caData?: string;
  /** TLS did not verify the server (insecure-skip-tls-verify, or plain http): nothing proven. */
  insecure?: boolean;
}

export interface Cluster {
  /**
   * Where this API is, as its kubeconfig says: a fact the client holds, not a call (no retry, no
   * fault, no cancellation applies). Absent when the implementation cannot say.
   */
  readonly endpoint?: ApiEndpoint | undefined;
  listNodes(opts?: ListOptions): Promise<List<Node>>;
  getNode(name: string): Promise<Node>;
  watchNodes(opts?: WatchOptions): AsyncIterable<WatchEvent<Node>>;
  patchNode(name: string, patch: NodePatch): Promise<Node>;

  /** All namespaces when namespace is undefined. */
  listPods(namespace: string | undefined, opts?: ListOptions): Promise<List<Pod>>;
  deletePod(namespace: string, name: string, opts?: { gracePeriodSeconds?: number }): Promise<void>;
  evictPod(namespace: string, name: string, opts?: { dryRun?: boolean }): Promise<EvictionOutcome>;
  watchPods(namespace: string | undefined, opts?: WatchOptions): AsyncIterable<WatchEvent<Pod>>;

  listPodDisruptionBudgets(
    namespace: string | undefined,
    opts?: ListOptions,
  ): Promise<List<PodDisruptionBudget>>;
  /** Status changes (disruptionsAllowed) as they happen: drains wait on it instead of asking for
   * evictions a budget is sure to refuse. All namespaces when namespace is undefined. */
  watchPodDisruptionBudgets(
    namespace: string | undefined,
    opts?: WatchOptions,
  ): AsyncIterable<WatchEvent<PodDisruptionBudget>>;
  /** ReplicaSets, Deployments, StatefulSets, DaemonSets: the owners behind pods. */
  getWorkload(kind: Workload["kind"], namespace: string, name: string): Promise<Workload>;
  /** Owners of one kind in a namespace (all namespaces when undefined), by "namespace/name". */
  listWorkloads(
    kind: Workload["kind"],
    namespace: string | undefined,
    opts?: ListOptions,
  ): Promise<List<Workload>>;

  /** The claims and volumes of the pods on the nodes to replace, one by one (their zones). */
  getPersistentVolumeClaim(namespace: string, name: string): Promise<PersistentVolumeClaim>;
  getPersistentVolume(name: string): Promise<PersistentVolume>;

  getLease(namespace: string, name: string): Promise<Lease>;
  /** 409 AlreadyExists when it exists. */
  createLease(namespace: string, lease: Lease): Promise<Lease>;
  /** 409 Conflict when metadata.resourceVersion is not the current one. */
  updateLease(namespace: string, lease: Lease): Promise<Lease>;
}
