// PodDisruptionBudgets in the simulated cluster: which pods each budget selects (kept as pods
// come and go), its status on demand, and the eviction subresource that consults them. The
// rules themselves (status, the API server's answer) are in disruption.ts.
import type { EvictionOutcome } from "../../../ports/cluster.js";
import { matchesSelector } from "../../../plan/selector.js";
import type { PdbRec, PodRec, WorkloadRec } from "../../model/records.js";
import { decideEviction, pdbStatus } from "./disruption.js";
import type { Kubelet } from "./kubelet.js";
import type { KubeContext, KubeState } from "./state.js";

/** The label a StatefulSet's controller gives each pod: the one label pods of a workload differ in. */
const POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";

/** Does the selector look at the label `key` at all (matchLabels or an expression)? */
function mentions(selector: PdbRec["selector"] | undefined, key: string): boolean {
  if (!selector) return false;
  if (selector.matchLabels && Object.hasOwn(selector.matchLabels, key)) return true;
  return (selector.matchExpressions ?? []).some((e) => e.key === key);
}

/** A namespace's PDBs, indexed by one matchLabels pair so a workload finds its few candidates. */
interface NamespaceBudgets {
  byLabel: Map<string, PdbRec[]>;
  /** Without matchLabels, or naming the per-pod label: asked for every workload. */
  others: PdbRec[];
}

/** The PDBs that may select a workload's pods (see Budgets' cache). */
interface WorkloadBudgets {
  candidates: { pdb: PdbRec; perPod: boolean }[];
  /** When none is asked pod by pod: the one list every pod of the workload shares. */
  shared?: readonly PdbRec[];
}

export class Budgets {
  /**
   * Per workload, the PDBs that may select its pods, in the order they were added: those that
   * select every pod of it (all its pods carry the template's labels), and — for a StatefulSet,
   * whose pods also carry their own name — those whose selector names that label, asked pod by
   * pod. Finding them goes through #index, not through every PDB of the namespace: matching
   * each workload (or, before, each StatefulSet pod) against every PDB of its namespace was the
   * quadratic step of building a large world.
   */
  #cache = new Map<WorkloadRec, WorkloadBudgets>();
  /** The workload asked last and its entry: a world being built asks for its pods in a row. */
  #last: { w: WorkloadRec; budgets: WorkloadBudgets } | undefined;
  #index = new Map<string, NamespaceBudgets>();
  /** The order PDBs were added in: a pod's budgets keep it. */
  #seq = new Map<PdbRec, number>();

  constructor(
    private readonly state: KubeState,
    private readonly ctx: KubeContext,
    private readonly kubelet: Kubelet,
  ) {}

  add(pdb: PdbRec): void {
    this.#cache.clear();
    this.#last = undefined;
    const list = this.state.pdbs.get(pdb.namespace) ?? [];
    list.push(pdb);
    this.state.pdbs.set(pdb.namespace, list);
    this.#seq.set(pdb, this.#seq.size);
    let ns = this.#index.get(pdb.namespace);
    if (!ns) this.#index.set(pdb.namespace, (ns = { byLabel: new Map(), others: [] }));
    const first = Object.entries(pdb.selector?.matchLabels ?? {})[0];
    if (!first || mentions(pdb.selector, POD_NAME_LABEL)) ns.others.push(pdb);
    else {
      const key = `${first[0]}=${first[1]}`;
      const bucket = ns.byLabel.get(key);
      if (bucket) bucket.push(pdb);
      else ns.byLabel.set(key, [pdb]);
    }
    for (const p of this.state.pods.values())
      if (p.namespace === pdb.namespace && matchesSelector(pdb.selector, p.labels)) {
        pdb.pods.add(p);
        p.pdbs = [...p.pdbs, pdb];
      }
    pdb.dirty = true;
  }

  /** The PDBs of the pod's namespace that may select it: those sharing a label with it, and the others. */
  #candidates(w: WorkloadRec, pod: PodRec): { pdb: PdbRec; perPod: boolean }[] {
    const ns = this.#index.get(pod.namespace);
    if (!ns) return [];
    const found = [...ns.others];
    for (const [k, v] of Object.entries(pod.labels))
      found.push(...(ns.byLabel.get(`${k}=${v}`) ?? []));
    found.sort((a, b) => (this.#seq.get(a) as number) - (this.#seq.get(b) as number));
    const stateful = w.kind === "StatefulSet";
    const out: { pdb: PdbRec; perPod: boolean }[] = [];
    for (const pdb of found) {
      if (stateful && mentions(pdb.selector, POD_NAME_LABEL)) out.push({ pdb, perPod: true });
      else if (matchesSelector(pdb.selector, pod.labels)) out.push({ pdb, perPod: false });
    }
    return out;
  }

  /** The budgets that may select `w`'s pods (found with its first pod, then remembered). */
  #budgetsOf(w: WorkloadRec, pod: PodRec): WorkloadBudgets {
    if (this.#last?.w === w) return this.#last.budgets;
    let budgets = this.#cache.get(w);
    if (!budgets) {
      const candidates = this.#candidates(w, pod);
      budgets = candidates.some((c) => c.perPod)
        ? { candidates }
        : { candidates, shared: Object.freeze(candidates.map((c) => c.pdb)) };
      this.#cache.set(w, budgets);
    }
    this.#last = { w, budgets };
    return budgets;
  }

  /** A new pod of `w` joins the budgets that select it. */
  attach(w: WorkloadRec, pod: PodRec): void {
    const { candidates, shared } = this.#budgetsOf(w, pod);
    if (candidates.length === 0) return;
    if (shared && pod.pdbs.length === 0) {
      // The common case, without a list of its own: the pod joins the workload's budgets.
      for (let i = 0; i < shared.length; i++) {
        const pdb = shared[i] as PdbRec;
        pdb.pods.add(pod);
        pdb.dirty = true;
      }
      pod.pdbs = shared;
      return;
    }
    const selected: PdbRec[] = [];
    for (const { pdb, perPod } of candidates) {
      if (perPod && !matchesSelector(pdb.selector, pod.labels)) continue;
      pdb.pods.add(pod);
      selected.push(pdb);
      pdb.dirty = true;
    }
    // Lists are replaced, never changed in place, so the pods of a workload share one.
    pod.pdbs =
      pod.pdbs.length > 0 ? [...pod.pdbs, ...selected] : (shared ?? Object.freeze(selected));
  }

  status(pdb: PdbRec): PdbRec["status"] {
    return pdbStatus(pdb, this.ctx.clock.nowMs());
  }

  /** The eviction subresource: decide as the API server does, then delete. */
  evict(
    namespace: string,
    name: string,
    opts: { dryRun?: boolean; by?: string } = {},
  ): EvictionOutcome {
    const pod = this.state.pods.get(`${namespace}/${name}`);
    const now = this.ctx.clock.nowMs();
    const d = decideEviction(pod, name, now, this.ctx.timings.pdbRetryAfterSeconds);
    if (d.outcome.status === 429 && pod)
      this.ctx.timeline.record("eviction.blocked", {
        pod: `${namespace}/${name}`,
        node: pod.nodeName,
        pdb: d.outcome.pdb,
        by: opts.by ?? "client",
      });
    if (d.delete && pod && !opts.dryRun) {
      if (d.decrement && d.pdb) {
        d.pdb.status.disruptionsAllowed -= 1;
        d.pdb.disrupted.set(pod.name, now);
      }
      if (this.ctx.podEvents)
        this.ctx.timeline.record("pod.evict", { pod: `${namespace}/${name}`, node: pod.nodeName });
      this.kubelet.deletePod(pod, undefined, opts.by ?? "eviction");
    }
    return d.outcome;
  }
}
