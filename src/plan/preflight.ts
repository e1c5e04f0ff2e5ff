// Preflight: what the workloads on the nodes a group would replace say about the roll. Blockers
// stop the group unless deleteAfterDrainTimeout (EKS's force); warnings and notes tell reviewers about downtime and risk. The
// rules come from how evictions and PodDisruptionBudgets work
// (https://kubernetes.io/docs/concepts/workloads/pods/disruptions/), from the EKS user guide's
// causes of PodEvictionFailure (managed node group update behaviour), and from EKS's advice on
// control-plane scalability (surge bursts).
import { derived } from "../ports/index.js";
import { NO_BUDGETS, pdbIndexOf } from "./pdb-index.js";
import {
  asksBudgets,
  drainMoves,
  drainWaitsFor,
  heldPastDeletion,
  type PdbInfo,
  type PodInfo,
  type Snapshot,
  workloadReplicas,
} from "./snapshot.js";
import {
  disruptedFindings,
  leftUnreachable,
  noNodeFindings,
  unreachableFindings,
} from "./down-findings.js";
import { list, podId, stopping, AT_DRAIN_TIMEOUT } from "./finding.js";
import { graceFindings } from "./grace-findings.js";
import { zoneFindings } from "./zone-findings.js";
import type { UnmanagedPods } from "../policy/index.js";
import type { PreflightInput } from "./preflight-input.js";
import type { Finding } from "./types.js";
import type { DrainHolds, HoldingCode } from "./waves.js";

export type { PreflightInput } from "./preflight-input.js";

const pdbId = (p: PdbInfo) => `${p.namespace}/${p.name}`;

/**
 * The pods of the nodes replaced that a drain moves (drainMoves), in node order, each with the
 * budgets its eviction asks (none for a pod already being deleted, see asksBudgets): two lists
 * made at the most they can hold and cut to size (no list grown a push at a time). `leaving`:
 * per budget, the pods it selects that leave its expected pods for good (`leaves`). `deleting`:
 * every pod being deleted, gathered in the same pass (another over 3 million pods costs ~1 s).
 */
function movable(nodes: readonly (readonly PodInfo[])[], snapshot: Snapshot): Movable {
  let total = 0;
  for (const run of nodes) total += run.length;
  const pods = new Array<PodInfo>(total);
  const budgets = new Array<PdbInfo[]>(total);
  let n = 0;
  const leaving = new Map<PdbInfo, Leaving>();
  const deleting: PodInfo[] = [];
  const index = pdbIndexOf(snapshot.pdbs);
  const replicas = workloadReplicas(snapshot.workloads);
  for (const run of nodes) {
    const selected = index.onNode(run);
    for (let i = 0; i < run.length; i++) {
      const pod = run[i] as PodInfo;
      if (pod.deletionTimestamp !== undefined) deleting.push(pod);
      if (!drainMoves(pod)) continue;
      pods[n] = pod;
      const selecting = selected[i] as PdbInfo[];
      budgets[n++] = asksBudgets(pod) ? selecting : NO_BUDGETS;
      const floor = leaves(pod, replicas);
      if (floor !== undefined) for (const b of selecting) leave(leaving, b, pod, floor);
    }
  }
  pods.length = n;
  budgets.length = n;
  return { pods, budgets, leaving, deleting, snapshot };
}

interface Movable {
  pods: PodInfo[];
  budgets: PdbInfo[][];
  leaving: Map<PdbInfo, Leaving>;
  deleting: PodInfo[];
  /** The snapshot they were read from. */
  snapshot: Snapshot;
}

const MOVABLE = Symbol("movable");

/**
 * `movable`, kept on the list of nodes: a forced plan reads it for the schedule (drainHolds)
 * before the findings, and the pass over every pod of the nodes is made once.
 */
function movableOf(nodes: readonly (readonly PodInfo[])[], snapshot: Snapshot): Movable {
  return derived(
    nodes,
    MOVABLE,
    (list) => movable(list, snapshot),
    (m) => m.snapshot === snapshot,
  );
}

/** Pods leaving a budget's expected pods for good, and the fewest it will still expect. */
interface Leaving {
  count: number;
  floor: number;
  /** The workloads whose replicas `floor` adds up (each once). */
  workloads: Set<string>;
}

/**
 * One more pod leaving budget `b`. The floor adds up the replicas of every workload with a pod
 * leaving: a budget over several workloads expects all of their replicas again, not the largest.
 */
function leave(leaving: Map<PdbInfo, Leaving>, b: PdbInfo, pod: PodInfo, floor: number): void {
  let l = leaving.get(b);
  if (!l) leaving.set(b, (l = { count: 0, floor: 0, workloads: new Set() }));
  l.count++;
  if (pod.workload === undefined || l.workloads.has(pod.workload)) return;
  l.workloads.add(pod.workload);
  l.floor += floor;
}

/**
 * Whether a pod being deleted takes its place among a budget's expected pods with it, and if so
 * the fewest pods the budget still expects: a pod with no controller (none), or a ReplicaSet's or
 * ReplicationController's, whose replacement comes at once (its workload's replicas: however the
 * budget's status and the pods read meet, it expects those). A StatefulSet makes its pod again,
 * under the same name, only once the old one is gone: until then the budget expects one pod
 * fewer than it will, so its pod does not leave; nor one whose workload was not read.
 */
function leaves(pod: PodInfo, replicas: ReadonlyMap<string, number>): number | undefined {
  if (pod.deletionTimestamp === undefined) return undefined;
  if (!pod.owner) return 0;
  const kind = pod.owner.kind;
  if (kind !== "ReplicaSet" && kind !== "ReplicationController") return undefined;
  return pod.workload === undefined ? undefined : replicas.get(pod.workload);
}

/** The pods a budget expects once those leaving are gone (see neverAllows). */
function expectedOnceGone(pdb: PdbInfo, leaving: Leaving | undefined): number {
  if (!leaving || typeof pdb.minAvailable !== "number" || pdb.maxUnavailable !== undefined)
    return pdb.expectedPods;
  return Math.max(pdb.expectedPods - leaving.count, leaving.floor);
}

/**
 * A PDB that cannot allow a disruption whatever happens (not only right now). `leaving`: pods
 * it selects that are leaving (`leaves`). The disruption controller counts those among the
 * expected pods of a whole-number minAvailable (getExpectedPodCount, pkg/controller/disruption
 * in the Kubernetes source: every pod the budget selects), but not once they are gone.
 */
function neverAllows(pdb: PdbInfo, leaving: Leaving | undefined): boolean {
  const expected = expectedOnceGone(pdb, leaving);
  // Percentages scale and round up, as the disruption controller reads them
  // (GetScaledValueFromIntOrPercent with roundUp): minAvailable "80%" of 3 pods is all 3.
  if (pdb.maxUnavailable !== undefined)
    return expected > 0 && scaled(pdb.maxUnavailable, expected) === 0;
  if (pdb.minAvailable === "100%") return true;
  return (
    pdb.minAvailable !== undefined && expected > 0 && scaled(pdb.minAvailable, expected) >= expected
  );
}

function scaled(v: number | string, expected: number): number {
  return typeof v === "number" ? v : Math.ceil((Number(v.replace("%", "")) * expected) / 100);
}

/**
 * Whether a pod's workload runs one replica: as its read found (PodInfo.replicas: no lookup; the
 * lookup of its workload's name missed the processor's cache twice a pod, ~1.4 s of a
 * 100,000-node plan), else by the snapshot's workloads (a pod made otherwise than by a read).
 */
function isSingle(pod: PodInfo, workload: string, replicas: ReadonlyMap<string, number>): boolean {
  return (pod.replicas ?? replicas.get(workload)) === 1;
}

/** `budgets[i]`: the budgets that select `pods[i]`; `leaving` as movable gives it. */
function pdbFindings(
  pods: PodInfo[],
  budgets: PdbInfo[][],
  leaving: ReadonlyMap<PdbInfo, Leaving>,
  deleteAfterDrainTimeout: boolean,
): Finding[] {
  const out: Finding[] = [];
  const blocking = new Map<PdbInfo, string[]>();
  const closed = new Map<PdbInfo, string[]>();
  const multiple: string[] = [];
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i] as PodInfo;
    const selecting = budgets[i] as PdbInfo[];
    if (selecting.length > 1) multiple.push(`${podId(pod)} (${selecting.map(pdbId).join(", ")})`);
    for (let j = 0; j < selecting.length; j++) {
      const b = selecting[j] as PdbInfo;
      const never = neverAllows(b, leaving.get(b));
      const bucket = never ? blocking : b.disruptionsAllowed === 0 ? closed : undefined;
      if (!bucket) continue;
      const on = bucket.get(b);
      if (on) on.push(podId(pod));
      else bucket.set(b, [podId(pod)]);
    }
  }
  for (const [b, on] of blocking) {
    out.push(
      stopping(
        "pdb-blocks",
        deleteAfterDrainTimeout,
        `PodDisruptionBudget ${pdbId(b)} never allows a disruption (${describePdb(b, leaving.get(b))}): draining ${list(on)} would fail with PodEvictionFailure; scale the workload up, relax the PDB, or set deleteAfterDrainTimeout`,
        [`PodDisruptionBudget/${pdbId(b)}`, ...on],
      ),
    );
  }
  for (const [b, on] of closed) {
    out.push({
      code: "pdb-closed-now",
      severity: "warning",
      message: `${deleteAfterDrainTimeout ? `with deleteAfterDrainTimeout: ${AT_DRAIN_TIMEOUT["pdb-closed-now"]}: ` : ""}PodDisruptionBudget ${pdbId(b)} allows no disruption right now (${b.currentHealthy} healthy, ${b.desiredHealthy} required): the drain of ${list(on)} waits until it does`,
      objects: [`PodDisruptionBudget/${pdbId(b)}`, ...on],
    });
  }
  if (multiple.length > 0) {
    out.push(
      stopping(
        "multiple-pdbs",
        deleteAfterDrainTimeout,
        `more than one PodDisruptionBudget selects ${list(multiple)}: the eviction API refuses such pods (HTTP 500), so their drain would fail`,
        multiple,
      ),
    );
  }
  return out;
}

/** `leaving`: the pods it expects that are leaving for good (see neverAllows). */
function describePdb(b: PdbInfo, leaving: Leaving | undefined): string {
  if (b.maxUnavailable !== undefined) return `maxUnavailable ${b.maxUnavailable}`;
  const n = expectedOnceGone(b, leaving);
  const counted = b.expectedPods - n;
  const gone =
    counted > 0 ? ` once the ${counted} being deleted ${counted === 1 ? "is" : "are"} gone` : "";
  return `minAvailable ${b.minAvailable} of ${n} pod${n === 1 ? "" : "s"}${gone}`;
}

/**
 * Whether a pod tolerates the taint a cordon puts on a node (node.kubernetes.io/unschedulable,
 * NoSchedule), so the scheduler may put it back: every taint tolerated (Exists, no key), or that
 * key tolerated, for NoSchedule or for every effect
 * (https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/).
 */
export function toleratesCordon(tolerations: PodInfo["tolerations"]): boolean {
  return tolerations.length > 0 && tolerations.some(toleratesUnschedulable);
}

function toleratesUnschedulable(t: PodInfo["tolerations"][number]): boolean {
  if (t.effect && t.effect !== "NoSchedule") return false;
  if (!t.key) return t.operator === "Exists";
  return (
    t.key === "node.kubernetes.io/unschedulable" &&
    (t.operator === "Exists" || (t.value ?? "") === "")
  );
}

const lacksProbe = (c: PodInfo["containers"][number]) => !c.readinessProbe;

function workloadFindings(
  pods: PodInfo[],
  snapshot: Snapshot,
  deleteAfterDrainTimeout: boolean,
): Finding[] {
  const out: Finding[] = [];
  // The map the read's store used already (one per list of workloads).
  const replicas = workloadReplicas(snapshot.workloads);
  const single = new Set<string>();
  const noProbe = new Set<string>();
  const everything: string[] = [];
  const preStop: string[] = [];
  // Indexed, not for-of: this loop runs a few times over many pods, often before it is
  // optimized, and an unoptimized for-of makes an iterator result per pod.
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i] as PodInfo;
    const workload =
      pod.workload ??
      (pod.owner ? `${pod.owner.kind}/${pod.namespace}/${pod.owner.name}` : `Pod/${podId(pod)}`);
    if (!pod.owner || isSingle(pod, workload, replicas)) single.add(workload);
    // The containers first: a few lists shared by all pods, where the owner is one per workload.
    if (pod.containers.some(lacksProbe) && pod.owner && pod.owner.kind !== "Job")
      noProbe.add(workload);
    if (toleratesCordon(pod.tolerations)) everything.push(podId(pod));
    let sleep = 0;
    for (let c = 0; c < pod.containers.length; c++)
      sleep = Math.max(sleep, pod.containers[c]?.preStopSleepSeconds ?? 0);
    if (sleep > 0 && sleep >= pod.terminationGracePeriodSeconds)
      preStop.push(
        `${podId(pod)} (preStop ${sleep}s, grace ${pod.terminationGracePeriodSeconds}s)`,
      );
  }
  if (single.size > 0)
    out.push({
      code: "single-replica",
      severity: "warning",
      message: `single-replica workloads go down while their node drains: ${list([...single])}; run 2 or more replicas with a PodDisruptionBudget (minAvailable: 1)`,
      objects: [...single],
    });
  if (everything.length > 0)
    out.push(
      stopping(
        "tolerates-everything",
        deleteAfterDrainTimeout,
        `pods that tolerate every taint, or the cordon's (node.kubernetes.io/unschedulable), return to the cordoned node, so the drain cannot empty it (EKS: PodEvictionFailure): ${list(everything)}`,
        everything,
      ),
    );
  if (preStop.length > 0)
    out.push({
      code: "prestop-exceeds-grace",
      severity: "warning",
      message: `preStop sleeps not shorter than terminationGracePeriodSeconds are cut off by SIGKILL: ${list(preStop)}`,
      objects: preStop,
    });
  if (noProbe.size > 0)
    out.push({
      code: "no-readiness-probe",
      severity: "info",
      message: `no readiness probe, so traffic may reach replacement pods before they are ready: ${list([...noProbe])}`,
      objects: [...noProbe],
    });
  return out;
}

/** One node at a time is the least any roll can do; beyond that, ask for a smaller burst. */
function surgeBurst(input: PreflightInput): Finding[] {
  const { group, snapshot, surge } = input;
  const total = Math.max(1, snapshot.clusterNodeCount);
  if (surge <= 1 || surge / total < 0.1) return [];
  return [
    {
      code: "surge-burst",
      severity: "warning",
      message: `${group.name} launches ${surge} node${surge === 1 ? "" : "s"} at once, ${Math.round((100 * surge) / total)}% of the cluster's ${total}: bursts of 10% or more strain the API server (DaemonSet pods, watches); ${input.surgeAdvice}`,
      objects: [group.name],
    },
  ];
}

/**
 * Pods with no controller: nothing recreates them once drained. kOps drains as kubectl drain
 * --force does — evicted like the rest (pkg/instancegroups, drainNode) — which is the default
 * (`unmanagedPods: evict`), said as a warning; `refuse` blocks the group, as a plain kubectl
 * drain refuses them (k8s.io/kubectl/pkg/drain, its unreplicated-pods filter).
 */
function unmanagedFindings(pods: PodInfo[], unmanaged: UnmanagedPods): Finding[] {
  const orphans = pods.filter((p) => !p.owner && !p.mirror);
  if (orphans.length === 0) return [];
  const staying = orphans.filter((p) => p.deletionTimestamp === undefined).map(podId);
  const going = orphans.filter((p) => p.deletionTimestamp !== undefined).map(podId);
  const objects = orphans.map(podId);
  if (unmanaged === "evict") {
    const what = [
      ...(staying.length > 0
        ? [
            `pods with no controller are evicted like the rest, and nothing brings them back: ${list(staying)}`,
          ]
        : []),
      ...(going.length > 0
        ? [`pods with no controller already being deleted are waited for: ${list(going)}`]
        : []),
    ];
    const message = `${what.join("; ")}; run them under a controller (a Deployment, a StatefulSet), or set unmanagedPods: refuse to stop the group instead`;
    return [{ code: "unmanaged-pods", severity: "warning", message, objects }];
  }
  const why = [
    ...(staying.length > 0
      ? [
          `pods with no controller would not come back once their node is drained: ${list(staying)}; delete them or run them under a controller (a Deployment, a StatefulSet)`,
        ]
      : []),
    // Deleting them is done already: the drain refuses them all the same until they are gone.
    ...(going.length > 0
      ? [`pods with no controller, already being deleted: ${list(going)}; wait until they are gone`]
      : []),
  ];
  const message = `${why.join("; ")}; or set unmanagedPods: evict, as kOps drains (unmanagedPods: refuse is kubectl drain without --force)`;
  return [{ code: "unmanaged-pods", severity: "blocker", message, objects }];
}

/**
 * Pods being deleted and held past their deletion's due time (heldPastDeletion): a finalizer or
 * an unreachable kubelet keeps them. The drain evicts them (the API accepts, asking no budget)
 * and then waits for them to go, which they will not do by themselves: it fails at its timeout,
 * as kubectl drain would, unless deleteAfterDrainTimeout.
 */
function stuckFindings(
  deleting: PodInfo[],
  input: PreflightInput,
  unreachable: ReadonlySet<string>,
): Finding[] {
  const stuck = deleting
    .filter((p) => !unreachable.has(p.nodeName))
    .filter((p) => drainWaitsFor(p) && heldPastDeletion(p, input.snapshot.takenAt))
    .map((p) => `${podId(p)} (deletion due ${p.deletionTimestamp})`);
  if (stuck.length === 0) return [];
  return [
    stopping(
      "stuck-terminating",
      input.deleteAfterDrainTimeout,
      `pods still there after their deletion was due, held by a finalizer or an unreachable kubelet, keep their node's drain waiting until it times out: ${list(stuck)}; remove the finalizer (kubectl patch … -p '{"metadata":{"finalizers":null}}') or, for a lost node, delete them with --grace-period=0 --force, or set deleteAfterDrainTimeout`,
      stuck,
    ),
  ];
}

/**
 * The nodes of the pods that the findings of each HoldingCode name (pdbFindings, workloadFindings:
 * the same tests), for the schedule to know which drains wait until their timeout under
 * deleteAfterDrainTimeout: a budget that never allows refuses its pods' evictions until then.
 * Whether several budgets or a pod tolerating the cordon hold a drain is the kind's to say
 * (src/kinds/<kind>/schedule.ts).
 */
export function drainHolds(nodes: readonly (readonly PodInfo[])[], snapshot: Snapshot): DrainHolds {
  const { pods, budgets, leaving } = movableOf(nodes, snapshot);
  const holds = new Map<HoldingCode, Set<string>>();
  const hold = (code: HoldingCode, pod: PodInfo) => {
    const on = holds.get(code);
    if (on) on.add(pod.nodeName);
    else holds.set(code, new Set([pod.nodeName]));
  };
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i] as PodInfo;
    const selecting = budgets[i] as PdbInfo[];
    if (selecting.length > 1) hold("multiple-pdbs", pod);
    if (selecting.some((b) => neverAllows(b, leaving.get(b)))) hold("pdb-blocks", pod);
    if (toleratesCordon(pod.tolerations)) hold("tolerates-everything", pod);
  }
  return holds;
}

export function preflight(input: PreflightInput): Finding[] {
  const { pods, budgets, leaving, deleting } = movableOf(input.nodes, input.snapshot);
  const unreachable = leftUnreachable(input);
  return [
    ...surgeBurst(input),
    ...input.groupFindings,
    ...disruptedFindings(input),
    ...noNodeFindings(input),
    ...unreachableFindings(deleting, input, unreachable),
    ...unmanagedFindings(pods, input.unmanagedPods),
    ...stuckFindings(deleting, input, unreachable),
    ...pdbFindings(pods, budgets, leaving, input.deleteAfterDrainTimeout),
    ...workloadFindings(pods, input.snapshot, input.deleteAfterDrainTimeout),
    ...zoneFindings(pods, input),
    ...graceFindings(pods, {
      drainTimeoutMs: input.drainTimeoutMs,
      deleteAfterDrainTimeout: input.deleteAfterDrainTimeout,
      advice: input.drainTimeoutAdvice,
      unreachable,
    }),
  ];
}
