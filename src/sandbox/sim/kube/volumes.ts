// Zonal volumes (a scenario StatefulSet's `volumes: zonal`), as a StatefulSet with a volume
// claim template on an EBS storage class with volumeBindingMode WaitForFirstConsumer behaves: the
// controller makes each ordinal's claim ("data-<pod>") with its pod and keeps it after the pod
// goes; the claim is bound when its first pod is placed, to a new volume in that node's zone; from
// then on the volume's node affinity (topology.kubernetes.io/zone In [zone]) keeps every pod of
// that ordinal in that zone — kube-scheduler's VolumeBinding filter, whose refusal reads
// "node(s) had volume node affinity conflict".
// https://kubernetes.io/docs/concepts/storage/persistent-volumes/#node-affinity
// https://kubernetes.io/docs/concepts/storage/storage-classes/#volume-binding-mode
import type { PersistentVolume, PersistentVolumeClaim, Volume } from "../../../ports/cluster.js";
import type { ClaimRec, NodeRec, PodRec } from "../../model/records.js";

/** The claim template's name: a pod's claim is "data-<pod>". */
export const CLAIM_TEMPLATE = "data";
export const ZONE_LABEL = "topology.kubernetes.io/zone";
const STORAGE_CLASS = "gp3";

/** What the claims need of the cluster's state (KubeState is one): a view, not state.ts itself. */
export interface VolumeView {
  /** Claims by namespace/name, and those bound by their volume's name. */
  readonly claims: Map<string, ClaimRec>;
  readonly volumes: Map<string, ClaimRec>;
  uid(): string;
  nextRv(): number;
}

/** The claim a pod's volume names ("namespace/data-<pod>"), for a pod of a zonal workload. */
export function claimKey(pod: PodRec): string | undefined {
  return pod.workload?.volumes === "zonal"
    ? `${pod.namespace}/${CLAIM_TEMPLATE}-${pod.name}`
    : undefined;
}

/** The pod's volumes as its spec shows them (none for most pods). */
export function podVolumes(pod: PodRec): Volume[] | undefined {
  if (pod.workload?.volumes !== "zonal") return undefined;
  return [
    { name: CLAIM_TEMPLATE, persistentVolumeClaim: { claimName: `${CLAIM_TEMPLATE}-${pod.name}` } },
  ];
}

/** A new pod's claim, made when its ordinal has none yet (the StatefulSet controller's). */
export function claimFor(state: VolumeView, pod: PodRec, now: number): void {
  const key = claimKey(pod);
  if (key === undefined || state.claims.has(key)) return;
  const name = key.slice(pod.namespace.length + 1);
  state.claims.set(key, {
    namespace: pod.namespace,
    name,
    uid: state.uid(),
    rv: state.nextRv(),
    createdAt: now,
  });
}

/** The zone the pod's bound volume pins it to, if it has one. */
export function volumeZone(state: VolumeView, pod: PodRec): string | undefined {
  const key = claimKey(pod);
  return key === undefined ? undefined : state.claims.get(key)?.volume?.zone;
}

/** The pod is placed on `node`: its unbound claim gets a volume in the node's zone. */
export function bindVolume(state: VolumeView, pod: PodRec, node: NodeRec, now: number): void {
  const key = claimKey(pod);
  const claim = key === undefined ? undefined : state.claims.get(key);
  if (!claim || claim.volume) return;
  const name = `pvc-${claim.uid}`;
  claim.volume = {
    name,
    uid: state.uid(),
    zone: node.labels[ZONE_LABEL] ?? node.zone,
    createdAt: now,
  };
  claim.rv = state.nextRv();
  state.volumes.set(name, claim);
}

export function toClaim(c: ClaimRec): PersistentVolumeClaim {
  return {
    metadata: {
      name: c.name,
      namespace: c.namespace,
      uid: c.uid,
      resourceVersion: String(c.rv),
      creationTimestamp: new Date(c.createdAt).toISOString(),
    },
    spec: { storageClassName: STORAGE_CLASS, ...(c.volume && { volumeName: c.volume.name }) },
    status: { phase: c.volume ? "Bound" : "Pending" },
  };
}

/** The volume a claim is bound to (its claim's record), as the API server shows it. */
export function toVolume(
  c: ClaimRec & { volume: NonNullable<ClaimRec["volume"]> },
): PersistentVolume {
  const { name, uid, zone, createdAt } = c.volume;
  return {
    metadata: {
      name,
      uid,
      resourceVersion: String(c.rv),
      creationTimestamp: new Date(createdAt).toISOString(),
    },
    spec: {
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: ZONE_LABEL, operator: "In", values: [zone] }] },
          ],
        },
      },
      claimRef: { namespace: c.namespace, name: c.name },
      storageClassName: STORAGE_CLASS,
    },
    status: { phase: "Bound" },
  };
}
