// Preflight: what the workloads on the nodes a group would replace say about the roll. Blockers
// stop the group unless force; warnings and notes tell reviewers about downtime and risk. The
// rules come from how evictions and PodDisruptionBudgets work
// (https://kubernetes.io/docs/concepts/workloads/pods/disruptions/), from the EKS user guide's
// causes of PodEvictionFailure (managed node group update behaviour), and from EKS's advice on
// control-plane scalability (surge bursts).
import { matchesSelector } from "./selector.js";
import {
  asksBudgets,
  drainMoves,
  heldPastDeletion,
  type LiveGroup,
  type PdbInfo,
  type PodInfo,
  type Snapshot,
} from "./snapshot.js";
import type { Finding, FindingCode } from "./types.js";

export interface PreflightInput {
  group: LiveGroup;
  /** The pods of each node to replace, a list per node (as `podsByNode` holds them). */
  nodes: readonly (readonly PodInfo[])[];
  snapshot: Snapshot;
  force: boolean;
  surge: number;
  /** How this kind of group launches fewer nodes at once. */
  surgeAdvice: string;
  /** What the group's kind finds about the group itself. */
  groupFindings: Finding[];
}

const MAX_LISTED = 10;

/**
 * What force does about each finding that would stop a group; a blocker missing here stops the
 * group whatever force says (EKS starts no update on a node group that is not ACTIVE). With force
 * the finding stays, as a warning that says what will happen.
 */
export const WITH_FORCE: Partial<Record<FindingCode, string>> = {
  "pdb-blocks":
    "after the drain timeout the pods it protects are deleted, past the PodDisruptionBudget",
  "multiple-pdbs":
    "these pods are deleted, not evicted, since the eviction API refuses them (a self-managed group's drain deletes them at once; EKS terminates their node after its 15 minutes)",
  "pdb-closed-now":
    "if it has not opened by the drain timeout, the pods it protects are deleted past it",
  "tolerates-everything":
    "after the drain timeout what is left is deleted and the node terminated; these pods start again elsewhere",
  "unmanaged-pods": "they are evicted like the rest, and never come back",
  "stuck-terminating": "after the drain timeout their node is terminated with them still on it",
};

/** A finding that stops the group, or with force (where force helps) a warning saying what happens. */
export function stopping(
  code: FindingCode,
  force: boolean,
  message: string,
  objects: string[],
): Finding {
  const withForce = WITH_FORCE[code];
  if (force && withForce)
    return { code, severity: "warning", message: `with force: ${withForce}: ${message}`, objects };
  return { code, severity: "blocker", message, objects };
}

const podId = (p: PodInfo) => `${p.namespace}/${p.name}`;
const pdbId = (p: PdbInfo) => `${p.namespace}/${p.name}`;

function list(items: string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(", ");
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

/**
 * The pods of the nodes replaced that a drain moves (drainMoves), in node order, each with the
 * budgets its eviction asks (none for a pod already being deleted, see asksBudgets): two lists
 * made at the most they can hold and cut to size (no list grown a push at a time). `leaving`:
 * per budget, the pods it selects that leave its expected pods for good (`leaves`).
 */
function movable(
  nodes: readonly (readonly PodInfo[])[],
  pdbs: PdbInfo[],
): { pods: PodInfo[]; budgets: PdbInfo[][]; leaving: Map<PdbInfo, number> } {
  let total = 0;
  for (const run of nodes) total += run.length;
  const pods = new Array<PodInfo>(total);
  const budgets = new Array<PdbInfo[]>(total);
  let n = 0;
  const leaving = new Map<PdbInfo, number>();
  const index = pdbIndexOf(pdbs);
  for (const run of nodes) {
    const selected = index.onNode(run);
    for (let i = 0; i < run.length; i++) {
      const pod = run[i] as PodInfo;
      if (!drainMoves(pod)) continue;
      pods[n] = pod;
      const selecting = selected[i] as PdbInfo[];
      budgets[n++] = asksBudgets(pod) ? selecting : NONE;
      if (!leaves(pod)) continue;
      for (const b of selecting) leaving.set(b, (leaving.get(b) ?? 0) + 1);
    }
  }
  pods.length = n;
  budgets.length = n;
  return { pods, budgets, leaving };
}

/**
 * A pod being deleted that takes its place among a budget's expected pods with it: one with no
 * controller, or a ReplicaSet's, whose replacement the ReplicaSet makes at once (so it is among
 * the expected pods already). A StatefulSet makes its pod again, under the same name, only once
 * the old one is gone: until then the budget expects one pod fewer than it will.
 */
function leaves(pod: PodInfo): boolean {
  if (pod.deletionTimestamp === undefined) return false;
  return !pod.owner || pod.owner.kind === "ReplicaSet";
}

/**
 * A PDB that cannot allow a disruption whatever happens (not only right now). `leaving`: pods
 * it selects that are leaving (`leaves`). The disruption controller counts those among the
 * expected pods of a whole-number minAvailable (getExpectedPodCount, pkg/controller/disruption
 * in the Kubernetes source: every pod the budget selects), but not once they are gone.
 */
function neverAllows(pdb: PdbInfo, leaving: number): boolean {
  const expected =
    typeof pdb.minAvailable === "number" && pdb.maxUnavailable === undefined
      ? pdb.expectedPods - leaving
      : pdb.expectedPods;
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
 * PDBs by namespace and by one of their matchLabels pairs, so that finding the budgets of a pod
 * looks at a handful of candidates instead of every PDB of the cluster (150,000 pods × 5,000
 * PDBs would be 750 million selector matches).
 */
class PdbIndex {
  /** namespace → label key → label value → PDBs whose first matchLabels pair it is. */
  private readonly byLabel = new Map<string, Map<string, Map<string, PdbInfo[]>>>();
  private readonly byNamespace = new Map<string, PdbInfo[]>();

  constructor(pdbs: PdbInfo[]) {
    const add = <K>(map: Map<K, PdbInfo[]>, key: K, b: PdbInfo) => {
      const list = map.get(key);
      if (list) list.push(b);
      else map.set(key, [b]);
    };
    for (const b of pdbs) {
      const first = Object.entries(b.selector?.matchLabels ?? {})[0];
      if (!first) {
        add(this.byNamespace, b.namespace, b);
        continue;
      }
      let keys = this.byLabel.get(b.namespace);
      if (!keys) this.byLabel.set(b.namespace, (keys = new Map()));
      let values = keys.get(first[0]);
      if (!values) keys.set(first[0], (values = new Map()));
      add(values, first[1], b);
    }
  }

  /**
   * Per namespace, the answer for each labels object already asked about: the pods of one
   * owner share theirs (src/plan/pod-store.ts keeps them once), so a ReplicaSet's thousand pods
   * cost one match against the budgets instead of a thousand.
   */
  private readonly answers = new Map<string, WeakMap<Record<string, string>, PdbInfo[]>>();

  /** Each node's pods' budgets, by the node's list of pods (see `onNode`). */
  private readonly nodes = new WeakMap<readonly PodInfo[], PdbInfo[][]>();

  /**
   * The budgets of each pod of one node's list, in its order, asked once per plan: preflight's
   * findings and the turns' order both read them, and each lookup above misses the processor's
   * cache (~0.7 µs a pod, 2 s a pass over 3 million pods), where this is one lookup per node.
   */
  onNode(pods: readonly PodInfo[]): PdbInfo[][] {
    let out = this.nodes.get(pods);
    if (out) return out;
    out = new Array<PdbInfo[]>(pods.length);
    for (let i = 0; i < pods.length; i++) out[i] = this.selecting(pods[i] as PodInfo);
    this.nodes.set(pods, out);
    return out;
  }

  private selecting(pod: PodInfo): PdbInfo[] {
    let known = this.answers.get(pod.namespace);
    if (!known) this.answers.set(pod.namespace, (known = new WeakMap()));
    let out = known.get(pod.labels);
    if (!out) known.set(pod.labels, (out = this.match(pod)));
    return out;
  }

  /**
   * Those of the namespace without matchLabels first, then those found by each label. Asked
   * once per labels object, which is once per pod for a StatefulSet's (each has its own name
   * label): nothing is made unless a budget matches.
   */
  private match(pod: PodInfo): PdbInfo[] {
    const labels = pod.labels;
    let out = matching(this.byNamespace.get(pod.namespace), labels, NONE);
    const keys = this.byLabel.get(pod.namespace);
    if (keys)
      for (const k in labels) out = matching(keys.get(k)?.get(labels[k] as string), labels, out);
    return out;
  }
}

/** No budgets: one frozen list for every pod that no budget selects. */
const NONE: PdbInfo[] = Object.freeze([]) as never;

/** `out` with those of `list` that select `labels` added (a new list only when one does). */
function matching(
  list: PdbInfo[] | undefined,
  labels: Record<string, string>,
  out: PdbInfo[],
): PdbInfo[] {
  if (!list) return out;
  for (let i = 0; i < list.length; i++) {
    const b = list[i] as PdbInfo;
    if (!matchesSelector(b.selector, labels)) continue;
    if (out === NONE) out = [];
    out.push(b);
  }
  return out;
}

/**
 * One index and one set of single-replica workloads per snapshot, however many groups are
 * planned from it: built per group, they made planning a cluster of many groups grow with
 * groups × PDBs.
 */
const pdbIndexes = new WeakMap<PdbInfo[], PdbIndex>();
const singleReplicaSets = new WeakMap<Snapshot["workloads"], ReadonlySet<string>>();

function pdbIndexOf(pdbs: PdbInfo[]): PdbIndex {
  let index = pdbIndexes.get(pdbs);
  if (!index) pdbIndexes.set(pdbs, (index = new PdbIndex(pdbs)));
  return index;
}

/**
 * The budgets of the snapshot that select each pod of one node's list, in its order (the index
 * built once per snapshot, each list's answer kept with it: the same list asked again is free).
 */
export function budgetsOnNode(pdbs: PdbInfo[], pods: readonly PodInfo[]): PdbInfo[][] {
  return pdbIndexOf(pdbs).onNode(pods);
}

/**
 * The workloads that run one replica. Kept apart from the others because it is asked of every
 * pod: a lookup among all the cluster's workloads (half a million at 100,000 nodes) misses the
 * processor's cache each time (~70 % of the workload findings' time at 20,000 nodes). These are
 * usually far fewer (an eighth of a generated cluster's), and none is asked when there are none.
 */
function singleReplica(workloads: Snapshot["workloads"]): ReadonlySet<string> {
  let set = singleReplicaSets.get(workloads);
  if (!set) {
    set = new Set(workloads.filter((w) => w.replicas === 1).map((w) => w.id));
    singleReplicaSets.set(workloads, set);
  }
  return set;
}

/** `budgets[i]`: the budgets that select `pods[i]`; `leaving` as movable gives it. */
function pdbFindings(
  pods: PodInfo[],
  budgets: PdbInfo[][],
  leaving: ReadonlyMap<PdbInfo, number>,
  force: boolean,
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
      const never = neverAllows(b, leaving.get(b) ?? 0);
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
        force,
        `PodDisruptionBudget ${pdbId(b)} never allows a disruption (${describePdb(b, leaving.get(b) ?? 0)}): draining ${list(on)} would fail with PodEvictionFailure; scale the workload up, relax the PDB, or use force`,
        [`PodDisruptionBudget/${pdbId(b)}`, ...on],
      ),
    );
  }
  for (const [b, on] of closed) {
    out.push({
      code: "pdb-closed-now",
      severity: "warning",
      message: `${force ? `with force: ${WITH_FORCE["pdb-closed-now"]}: ` : ""}PodDisruptionBudget ${pdbId(b)} allows no disruption right now (${b.currentHealthy} healthy, ${b.desiredHealthy} required): the drain of ${list(on)} waits until it does`,
      objects: [`PodDisruptionBudget/${pdbId(b)}`, ...on],
    });
  }
  if (multiple.length > 0) {
    out.push(
      stopping(
        "multiple-pdbs",
        force,
        `more than one PodDisruptionBudget selects ${list(multiple)}: the eviction API refuses such pods (HTTP 500), so their drain would fail`,
        multiple,
      ),
    );
  }
  return out;
}

/** `leaving`: the pods it expects that are leaving for good (see neverAllows). */
function describePdb(b: PdbInfo, leaving: number): string {
  if (b.maxUnavailable !== undefined) return `maxUnavailable ${b.maxUnavailable}`;
  const counted = typeof b.minAvailable === "number" ? leaving : 0;
  const n = b.expectedPods - counted;
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

function workloadFindings(pods: PodInfo[], snapshot: Snapshot, force: boolean): Finding[] {
  const out: Finding[] = [];
  const singles = singleReplica(snapshot.workloads);
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
    if (!pod.owner || (singles.size > 0 && singles.has(workload))) single.add(workload);
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
        force,
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
 * Pods with no controller: nothing recreates them once drained, so — as kubectl drain does —
 * they stop the roll unless force (k8s.io/kubectl/pkg/drain, its unreplicated-pods filter).
 */
function unmanagedFindings(pods: PodInfo[], force: boolean): Finding[] {
  const orphans = pods.filter((p) => !p.owner && !p.mirror).map(podId);
  if (orphans.length === 0) return [];
  return [
    stopping(
      "unmanaged-pods",
      force,
      `pods with no controller would not come back once their node is drained: ${list(orphans)}; delete them or run them under a controller (a Deployment, a StatefulSet), or roll with force (kubectl drain refuses them the same way)`,
      orphans,
    ),
  ];
}

/**
 * Pods being deleted and held past their deletion's due time (heldPastDeletion): a finalizer or
 * an unreachable kubelet keeps them. The drain evicts them (the API accepts, asking no budget)
 * and then waits for them to go, which they will not do by themselves: it fails at its timeout,
 * as kubectl drain would, unless force.
 */
function stuckFindings(pods: PodInfo[], takenAt: Date, force: boolean): Finding[] {
  const stuck = pods
    .filter((p) => heldPastDeletion(p, takenAt))
    .map((p) => `${podId(p)} (deletion due ${p.deletionTimestamp})`);
  if (stuck.length === 0) return [];
  return [
    stopping(
      "stuck-terminating",
      force,
      `pods still there after their deletion was due, held by a finalizer or an unreachable kubelet, keep their node's drain waiting until it times out: ${list(stuck)}; remove the finalizer (kubectl patch … -p '{"metadata":{"finalizers":null}}') or, for a lost node, delete them with --grace-period=0 --force, or roll with force`,
      stuck,
    ),
  ];
}

export function preflight(input: PreflightInput): Finding[] {
  const { pods, budgets, leaving } = movable(input.nodes, input.snapshot.pdbs);
  return [
    ...surgeBurst(input),
    ...input.groupFindings,
    ...unmanagedFindings(pods, input.force),
    ...stuckFindings(pods, input.snapshot.takenAt, input.force),
    ...pdbFindings(pods, budgets, leaving, input.force),
    ...workloadFindings(pods, input.snapshot, input.force),
  ];
}
