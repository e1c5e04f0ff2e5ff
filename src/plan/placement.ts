// Where a pod may run, as far as zones go: what binds it to a zone, and whether a node can take
// it. Kubernetes says it three ways (https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/):
// a nodeSelector on the zone label; required node affinity (nodeSelectorTerms, ORed, each term's
// expressions ANDed); and a PersistentVolumeClaim bound to a PersistentVolume whose
// spec.nodeAffinity.required pins a zone — an EBS volume lives in one Availability Zone, and
// kube-scheduler's VolumeBinding filter keeps the pod on nodes that meet that affinity
// (https://kubernetes.io/docs/concepts/storage/persistent-volumes/#node-affinity).
import type { NodeSelectorRequirement, Pod, Toleration } from "../ports/index.js";
import type { ClaimInfo, NodeInfo, NodeSelectorTerm, PodPlacement, Taint } from "./snapshot.js";

/**
 * The labels that name a node's zone: the well-known one, its deprecated beta form, and the one
 * the EBS CSI driver's volumes pinned zones with (topology.ebs.csi.aws.com/zone).
 */
export const ZONE_LABELS: ReadonlySet<string> = new Set([
  "topology.kubernetes.io/zone",
  "failure-domain.beta.kubernetes.io/zone",
  "topology.ebs.csi.aws.com/zone",
]);

const TERMS_NONE: NodeSelectorTerm[] = [];

const namesZone = (terms: readonly NodeSelectorTerm[]) =>
  terms.some((t) => (t.matchExpressions ?? []).some((e) => ZONE_LABELS.has(e.key)));

/**
 * The claims a pod's volumes name: a persistentVolumeClaim's, and a generic ephemeral volume's,
 * "<pod>-<volume>" (https://kubernetes.io/docs/concepts/storage/ephemeral-volumes/).
 */
function claimsOf(p: Pod): string[] {
  const out: string[] = [];
  for (const v of p.spec.volumes ?? []) {
    if (v.persistentVolumeClaim) out.push(v.persistentVolumeClaim.claimName);
    else if (v.ephemeral) out.push(`${p.metadata.name}-${v.name}`);
  }
  return out;
}

/** What may bind a pod to a zone (PodPlacement), or undefined for a pod nothing may bind. */
export function placementOf(p: Pod): PodPlacement | undefined {
  const selector = p.spec.nodeSelector;
  const zonedSelector =
    selector !== undefined && Object.keys(selector).some((k) => ZONE_LABELS.has(k));
  const affinity =
    p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms ?? TERMS_NONE;
  const claims = p.spec.volumes ? claimsOf(p) : [];
  if (!zonedSelector && !namesZone(affinity) && claims.length === 0) return undefined;
  return {
    ...(selector && Object.keys(selector).length > 0 && { nodeSelector: selector }),
    ...(affinity.length > 0 && { affinity }),
    ...(claims.length > 0 && { claims }),
  };
}

/** What binds a pod to zones: the zones it may run in, and why (each source once). */
export interface ZoneBinding {
  zones: string[];
  why: string[];
  /** Every node selector term list the pod's node must meet (its affinity, its volumes'). */
  terms: readonly (readonly NodeSelectorTerm[])[];
}

/** The zones a term list allows (terms ORed), or undefined when one term allows any zone. */
function zonesOf(terms: readonly NodeSelectorTerm[], known: ReadonlySet<string>) {
  const out = new Set<string>();
  for (const t of terms) {
    let zones: Set<string> | undefined;
    for (const e of t.matchExpressions ?? []) {
      if (!ZONE_LABELS.has(e.key) || (e.operator !== "In" && e.operator !== "NotIn")) continue;
      const values = e.values ?? [];
      const allowed = e.operator === "In" ? values : [...known].filter((z) => !values.includes(z));
      zones = new Set(zones ? allowed.filter((z) => zones?.has(z)) : allowed);
    }
    if (!zones) return undefined;
    for (const z of zones) out.add(z);
  }
  return out;
}

/** Keep only the zones both allow (`into` undefined: none said yet). */
const narrowed = (into: Set<string> | undefined, zones: Iterable<string>) =>
  new Set([...zones].filter((z) => into === undefined || into.has(z)));

/**
 * What binds the pod to zones, or undefined when nothing does. `claims`: the snapshot's, by
 * "namespace/name"; `known`: the cluster's zones (a NotIn allows the others).
 */
export function zoneBinding(
  p: { namespace: string; placement?: PodPlacement },
  claims: ReadonlyMap<string, ClaimInfo>,
  known: ReadonlySet<string>,
): ZoneBinding | undefined {
  const pl = p.placement;
  if (!pl) return undefined;
  let zones: Set<string> | undefined;
  const why: string[] = [];
  const terms: (readonly NodeSelectorTerm[])[] = [];
  for (const [k, v] of Object.entries(pl.nodeSelector ?? {}))
    if (ZONE_LABELS.has(k)) {
      zones = narrowed(zones, [v]);
      why.push(`nodeSelector ${k}=${v}`);
    }
  const affinityZones = pl.affinity && zonesOf(pl.affinity, known);
  if (pl.affinity) terms.push(pl.affinity);
  if (affinityZones) {
    zones = narrowed(zones, affinityZones);
    why.push("required node affinity");
  }
  for (const name of pl.claims ?? []) {
    const c = claims.get(`${p.namespace}/${name}`);
    if (!c?.nodeAffinity) continue;
    terms.push(c.nodeAffinity);
    const z = zonesOf(c.nodeAffinity, known);
    if (!z) continue;
    zones = narrowed(zones, z);
    why.push(`volume ${c.volume ?? "?"} of claim ${name}`);
  }
  if (!zones || zones.size === 0) return undefined;
  return { zones: [...zones].sort(), why, terms };
}

function meetsRequirement(e: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = e.values ?? [];
  switch (e.operator) {
    case "In":
      return value !== undefined && values.includes(value);
    case "NotIn":
      return value === undefined || !values.includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
    case "Gt":
    case "Lt": {
      const n = Number(value);
      const bound = Number(values[0]);
      if (value === undefined || !Number.isInteger(n) || !Number.isInteger(bound)) return false;
      return e.operator === "Gt" ? n > bound : n < bound;
    }
  }
}

/** Whether a node meets one of the terms (the scheduler's node affinity; matchFields by name). */
export function meetsTerms(terms: readonly NodeSelectorTerm[], node: NodeInfo): boolean {
  return terms.some(
    (t) =>
      (t.matchExpressions ?? []).every((e) => meetsRequirement(e, node.labels[e.key])) &&
      (t.matchFields ?? []).every((e) =>
        meetsRequirement(e, e.key === "metadata.name" ? node.name : undefined),
      ),
  );
}

/** Whether a toleration tolerates a taint (Kubernetes' ToleratesTaint). */
function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (!t.key) return t.operator === "Exists";
  if (t.key !== taint.key) return false;
  return t.operator === "Exists" || (t.value ?? "") === (taint.value ?? "");
}

/**
 * Whether the scheduler could put the pod on the node as far as labels and taints go (its
 * capacity is not known here): Ready, schedulable, its NoSchedule and NoExecute taints
 * tolerated, its labels meeting the pod's nodeSelector and every term list of `binding`.
 */
export function couldTake(
  node: NodeInfo,
  pod: { tolerations: readonly Toleration[]; placement?: PodPlacement },
  binding: ZoneBinding,
): boolean {
  if (!node.ready || node.unschedulable || node.unreachable) return false;
  for (const taint of node.taints)
    if (taint.effect !== "PreferNoSchedule" && !pod.tolerations.some((t) => tolerates(t, taint)))
      return false;
  for (const [k, v] of Object.entries(pod.placement?.nodeSelector ?? {}))
    if (node.labels[k] !== v) return false;
  return binding.terms.every((terms) => meetsTerms(terms, node));
}
