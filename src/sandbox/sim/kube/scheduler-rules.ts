// The scheduler's rules, as pure functions over the sandbox records: which nodes a pod may go
// to (filters) and which it prefers (scores). Only what node rolls exercise: unschedulable
// nodes, NoSchedule / NoExecute taints, PreferNoSchedule as a preference, tolerations
// (including the empty-key Exists that tolerates everything), nodeSelector, required node
// affinity, capacity, and the zone a pod's bound volume pins (`zone`, volumes.ts).
import { derived } from "../../../ports/derived.js";
import type { NodeSelectorTerm, Taint, Toleration } from "../../../ports/cluster.js";
import type { NodeRec, PodTemplate } from "../../model/records.js";
import { ZONE_LABEL } from "./volumes.js";

export const UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

/** Does one toleration tolerate one taint (Kubernetes' ToleratesTaint)? */
export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  // An empty key with operator Exists matches every key (and, without effect, every taint).
  if (!t.key) return t.operator === "Exists";
  if (t.key !== taint.key) return false;
  if (t.operator === "Exists") return true;
  return (t.value ?? "") === (taint.value ?? "");
}

const SELECTOR_ENTRIES = Symbol("selectorEntries");

/** Whether a node's labels meet one of the terms (ORed; a term's expressions ANDed). */
export function meetsAffinity(terms: readonly NodeSelectorTerm[], labels: Record<string, string>) {
  return terms.some((t) =>
    (t.matchExpressions ?? []).every((e) => {
      const has = Object.hasOwn(labels, e.key);
      const inValues = has && (e.values ?? []).includes(labels[e.key] as string);
      if (e.operator === "In") return inValues;
      if (e.operator === "NotIn") return !inValues;
      return e.operator === "Exists" ? has : e.operator === "DoesNotExist" ? !has : false;
    }),
  );
}

/** The node is in the zone the pod's volume pins it to (none: any node). */
const inVolumeZone = (node: NodeRec, zone: string | undefined) =>
  zone === undefined || (node.labels[ZONE_LABEL] ?? node.zone) === zone;

/** The fast form of `unfit` for the scheduler's loop: no allocation, no message. */
export function fits(node: NodeRec, pod: PodTemplate, zone?: string): boolean {
  if (node.deleted || !node.ready) return false;
  if (node.used.pods + 1 > node.capacity.pods) return false;
  if (node.used.cpu + pod.requests.cpu > node.capacity.cpu) return false;
  if (node.used.memory + pod.requests.memory > node.capacity.memory) return false;
  const tols = pod.tolerations;
  if (node.unschedulable) {
    let ok = false;
    for (const t of tols) if (tolerates(t, UNSCHEDULABLE)) ok = true;
    if (!ok) return false;
  }
  for (const taint of node.taints) {
    if (taint.effect === "PreferNoSchedule") continue;
    let ok = false;
    for (const t of tols)
      if (tolerates(t, taint)) {
        ok = true;
        break;
      }
    if (!ok) return false;
  }
  const entries = derived(pod, SELECTOR_ENTRIES, (t) => Object.entries(t.nodeSelector));
  for (const [k, v] of entries) if (node.labels[k] !== v) return false;
  if (pod.nodeAffinity && !meetsAffinity(pod.nodeAffinity, node.labels)) return false;
  return inVolumeZone(node, zone);
}

const UNSCHEDULABLE: Taint = { key: UNSCHEDULABLE_TAINT, effect: "NoSchedule" };

/** Why the pod cannot go to the node, or undefined when it can (kube-scheduler's filter order). */
export function unfit(node: NodeRec, pod: PodTemplate, zone?: string): string | undefined {
  if (node.deleted) return "node deleted";
  if (!node.ready) return "node(s) had untolerated taint {node.kubernetes.io/not-ready: }";
  if (node.unschedulable) {
    const t: Taint = { key: UNSCHEDULABLE_TAINT, effect: "NoSchedule" };
    if (!pod.tolerations.some((tol) => tolerates(tol, t))) return "node(s) were unschedulable";
  }
  for (const taint of node.taints) {
    if (taint.effect === "PreferNoSchedule") continue;
    if (!pod.tolerations.some((t) => tolerates(t, taint)))
      return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ""}}`;
  }
  for (const [k, v] of Object.entries(pod.nodeSelector))
    if (node.labels[k] !== v) return "node(s) didn't match Pod's node affinity/selector";
  if (pod.nodeAffinity && !meetsAffinity(pod.nodeAffinity, node.labels))
    return "node(s) didn't match Pod's node affinity/selector";
  if (node.used.pods + 1 > node.capacity.pods) return "Too many pods";
  if (node.used.cpu + pod.requests.cpu > node.capacity.cpu) return "Insufficient cpu";
  if (node.used.memory + pod.requests.memory > node.capacity.memory) return "Insufficient memory";
  if (!inVolumeZone(node, zone)) return "node(s) had volume node affinity conflict";
  return undefined;
}

/**
 * Lower is better. PreferNoSchedule taints the pod does not tolerate weigh most (the scheduler
 * avoids such nodes unless nothing else fits); then spreading the workload over nodes
 * (`sameWorkload`: its pods on this node) and zones; then the least allocated node.
 */
export function score(
  node: NodeRec,
  pod: PodTemplate,
  spread: { sameWorkload: number; zoneCounts: Map<string, number> | undefined } | undefined,
): number {
  let s = preferPenalty(node, pod);
  if (spread) {
    s += 10_000 * spread.sameWorkload;
    s += 1_000 * (spread.zoneCounts?.get(node.zone) ?? 0);
  }
  s += loadTerm(node);
  return s;
}

/** The score's last term: how allocated the node is, 0 to 100 (CPU and memory alike). */
export function loadTerm(node: NodeRec): number {
  const { used, capacity } = node;
  return loadOf(used.cpu, capacity.cpu, used.memory, capacity.memory);
}

/** loadTerm from the numbers themselves (the placement index keeps them). */
export function loadOf(
  cpu: number,
  cpuCapacity: number,
  memory: number,
  memoryCapacity: number,
): number {
  const c = cpuCapacity ? cpu / cpuCapacity : 0;
  const m = memoryCapacity ? memory / memoryCapacity : 0;
  return Math.round(((c + m) / 2) * 100);
}

/** The score's first term: 1,000,000 per PreferNoSchedule taint the pod does not tolerate. */
export function preferPenalty(node: NodeRec, pod: PodTemplate): number {
  let s = 0;
  for (const taint of node.taints)
    if (taint.effect === "PreferNoSchedule") {
      let ok = false;
      for (const t of pod.tolerations) if (tolerates(t, taint)) ok = true;
      if (!ok) s += 1_000_000;
    }
  return s;
}
