// PodDisruptionBudgets in the simulated cluster: which pods each budget selects (kept as pods
// come and go), its status on demand, and the eviction subresource that consults them. The
// rules themselves (status, the API server's answer) are in disruption.ts.
import type { EvictionOutcome } from "../../../ports/cluster.js";
import { matchesSelector } from "../../../plan/selector.js";
import type { PdbRec, PodRec, WorkloadRec } from "../../model/records.js";
import { decideEviction, pdbStatus } from "./disruption.js";
import type { Kubelet } from "./kubelet.js";
import type { KubeContext, KubeState } from "./state.js";

export class Budgets {
  /** PDBs per workload whose pods all carry the template's labels (not StatefulSets). */
  #cache = new Map<WorkloadRec, PdbRec[]>();

  constructor(
    private readonly state: KubeState,
    private readonly ctx: KubeContext,
    private readonly kubelet: Kubelet,
  ) {}

  add(pdb: PdbRec): void {
    this.#cache.clear();
    const list = this.state.pdbs.get(pdb.namespace) ?? [];
    list.push(pdb);
    this.state.pdbs.set(pdb.namespace, list);
    for (const p of this.state.pods.values())
      if (p.namespace === pdb.namespace && matchesSelector(pdb.selector, p.labels)) {
        pdb.pods.add(p);
        p.pdbs.push(pdb);
      }
    pdb.dirty = true;
  }

  /** A new pod of `w` joins the budgets that select it. */
  attach(w: WorkloadRec, pod: PodRec): void {
    let budgets = w.kind === "StatefulSet" ? undefined : this.#cache.get(w);
    if (!budgets) {
      budgets = (this.state.pdbs.get(pod.namespace) ?? []).filter((b) =>
        matchesSelector(b.selector, pod.labels),
      );
      if (w.kind !== "StatefulSet") this.#cache.set(w, budgets);
    }
    for (const pdb of budgets) {
      pdb.pods.add(pod);
      pod.pdbs.push(pdb);
      pdb.dirty = true;
    }
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
    const d = decideEviction(pod, name, now);
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
