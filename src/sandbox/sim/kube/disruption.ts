// PodDisruptionBudgets the way the real disruption controller computes their status, and the
// eviction subresource the way the API server answers it (pkg/controller/disruption and
// pkg/registry/core/pod/storage/eviction.go, read to learn the rules):
//
// status — expectedPods and desiredHealthy:
//   minAvailable as a number:   expected = the pods selected, desired = minAvailable;
//   minAvailable as a percent:  expected = the scale of the pods' controllers,
//                               desired = ceil(percent × expected);
//   maxUnavailable (either):    expected = the controllers' scale,
//                               desired = expected − maxUnavailable (a percent rounded up).
//   Pods without a controller that has a scale (bare pods, DaemonSets) make the controller-based
//   forms fail: the controller then allows no disruption.
//   currentHealthy counts selected pods that are Ready, not terminating, and not among the
//   evictions granted in the last two minutes; disruptionsAllowed = max(0, current − desired).
//
// eviction — in this order:
//   pod not found → 404; pod Succeeded, Failed, Pending or already terminating → deleted
//   without looking at budgets (201); no PDB → 201; more than one PDB → 500; the pod not Ready
//   and the budget's unhealthyPodEvictionPolicy is AlwaysAllow, or (IfHealthyBudget, the
//   default) the application is healthy anyway (current ≥ desired > 0) → 201 without using up
//   the budget; more than 2,000 evictions granted and not yet confirmed → 403;
//   disruptionsAllowed 0 → 429 "Cannot evict pod as it would violate the pod's disruption
//   budget." with Retry-After: 10 and a DisruptionBudget cause naming the budget (the eviction
//   handler answers a budget's refusal as a TooManyRequests error asking for 10 s); otherwise
//   decrement disruptionsAllowed, remember the pod as disrupted, delete it → 201.
import type { EvictionOutcome } from "../../../ports/cluster.js";
import type { PdbRec, PodRec } from "../../model/records.js";

/** Pods evicted less than this long ago do not count as healthy (the controller's DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

/** Evictions granted and not yet confirmed beyond which the API server refuses more (403). */
export const MAX_DISRUPTED_PODS = 2000;

export const MULTIPLE_PDBS =
  "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";
export const VIOLATES_PDB = "Cannot evict pod as it would violate the pod's disruption budget.";
/** The Retry-After the API server sends with a budget's refusal. */
export const PDB_RETRY_AFTER_SECONDS = 10;

function scaled(value: number | string, total: number): number {
  if (typeof value === "number") return value;
  const pct = Number(value.replace(/%$/, ""));
  return Math.ceil((pct * total) / 100);
}

export function isPodReady(p: PodRec): boolean {
  return p.phase === "Running" && p.ready && p.deletionAt === undefined;
}

export function computePdbStatus(pdb: PdbRec, now: number): PdbRec["status"] {
  for (const [name, at] of pdb.disrupted)
    if (at + DELETION_TIMEOUT_MS <= now) pdb.disrupted.delete(name);
  const pods = [...pdb.pods];
  let expected: number;
  let desired: number;
  let failed = false;
  const controllerScale = (): number => {
    const seen = new Set<string>();
    let total = 0;
    for (const p of pods) {
      const w = p.workload;
      if (!w || w.kind === "Pod" || w.kind === "DaemonSet") {
        failed = true;
        continue;
      }
      if (seen.has(w.key)) continue;
      seen.add(w.key);
      total += w.replicas;
    }
    return total;
  };
  if (pdb.maxUnavailable !== undefined) {
    expected = controllerScale();
    desired = Math.max(0, expected - scaled(pdb.maxUnavailable, expected));
  } else if (typeof pdb.minAvailable === "string") {
    expected = controllerScale();
    desired = scaled(pdb.minAvailable, expected);
  } else {
    expected = pods.length;
    desired = pdb.minAvailable ?? 1;
  }
  let healthy = 0;
  for (const p of pods) {
    if (p.deletionAt !== undefined) continue;
    if (pdb.disrupted.has(p.name)) continue;
    if (isPodReady(p)) healthy++;
  }
  const allowed = failed || expected <= 0 ? 0 : Math.max(0, healthy - desired);
  pdb.status = {
    disruptionsAllowed: allowed,
    currentHealthy: healthy,
    desiredHealthy: desired,
    expectedPods: expected,
  };
  pdb.dirty = false;
  return pdb.status;
}

export function pdbStatus(pdb: PdbRec, now: number): PdbRec["status"] {
  return pdb.dirty || pdb.disrupted.size > 0 ? computePdbStatus(pdb, now) : pdb.status;
}

export type EvictionDecision =
  | { outcome: EvictionOutcome; delete: false }
  | { outcome: EvictionOutcome; delete: true; pdb?: PdbRec; decrement: boolean };

/** The API server's answer to POST .../pods/NAME/eviction, without side effects. */
export function decideEviction(
  pod: PodRec | undefined,
  name: string,
  now: number,
  retryAfterSeconds = PDB_RETRY_AFTER_SECONDS,
): EvictionDecision {
  if (!pod || pod.gone)
    return { outcome: { status: 404, message: `pods "${name}" not found` }, delete: false };
  if (
    pod.phase === "Succeeded" ||
    pod.phase === "Failed" ||
    pod.phase === "Pending" ||
    pod.deletionAt !== undefined
  )
    return { outcome: { status: 201 }, delete: true, decrement: false };
  const pdbs = pod.pdbs;
  if (pdbs.length === 0) return { outcome: { status: 201 }, delete: true, decrement: false };
  if (pdbs.length > 1) return { outcome: { status: 500, message: MULTIPLE_PDBS }, delete: false };
  const pdb = pdbs[0] as PdbRec;
  const status = pdbStatus(pdb, now);
  if (!isPodReady(pod)) {
    if (pdb.unhealthyPodEvictionPolicy === "AlwaysAllow")
      return { outcome: { status: 201 }, delete: true, pdb, decrement: false };
    if (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0)
      return { outcome: { status: 201 }, delete: true, pdb, decrement: false };
  }
  if (pdb.disrupted.size > MAX_DISRUPTED_PODS)
    return {
      outcome: {
        status: 403,
        message: `poddisruptionbudget.policy "${pdb.name}" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller`,
      },
      delete: false,
    };
  if (status.disruptionsAllowed <= 0) {
    return {
      outcome: {
        status: 429,
        message: VIOLATES_PDB,
        pdb: pdb.name,
        retryAfterSeconds,
        causes: [
          `The disruption budget ${pdb.name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
        ],
      },
      delete: false,
    };
  }
  return { outcome: { status: 201 }, delete: true, pdb, decrement: true };
}
