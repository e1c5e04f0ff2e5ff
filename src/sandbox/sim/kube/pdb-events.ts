// The disruption controller's writes of PodDisruptionBudget status, as watch events: when a pod a
// budget selects changes (created, Ready or not, terminating, gone — an eviction's decrement
// comes with the pod turning terminating), the budget's status is computed again, and when it
// differs from the last one written the budget takes a new resourceVersion and watchers see it
// MODIFIED. Changes in one turn of the event loop are gathered, so a burst of pod events costs
// each budget one computation (the real controller also works from a queue of budgets).
// A pod the eviction API let go is terminating or gone, never counted healthy, so the time-out
// of status.disruptedPods changes no count here and needs no timer of its own.
import type { PodDisruptionBudget } from "../../../ports/cluster.js";
import type { VirtualClock } from "../../model/clock.js";
import type { PdbRec } from "../../model/records.js";
import { toPdb } from "./convert.js";
import { pdbStatus } from "./disruption.js";
import type { KubeState, Watcher } from "./state.js";

const signature = (s: PdbRec["status"]) =>
  `${s.disruptionsAllowed}/${s.currentHealthy}/${s.desiredHealthy}/${s.expectedPods}`;

export class PdbEvents {
  #watchers: Watcher<PodDisruptionBudget>[] = [];
  readonly #touched = new Set<PdbRec>();
  /** Touched while nobody watched: their status is computed when a watch comes. */
  readonly #unseen = new Set<PdbRec>();
  /** The status each budget's last event showed. */
  readonly #shown = new WeakMap<PdbRec, string>();
  #queued = false;

  constructor(
    private readonly state: KubeState,
    private readonly clock: VirtualClock,
  ) {
    state.podListeners.push((_, p) => {
      const pdbs = p.pdbs;
      if (pdbs.length === 0) return;
      // Indexed: the list is frozen (shared by a workload's pods), and for-of over a frozen
      // array made an iterator per pod event in V8 — three per pod as a world is built.
      for (let i = 0; i < pdbs.length; i++) this.#touched.add(pdbs[i] as PdbRec);
      if (this.#queued) return;
      this.#queued = true;
      queueMicrotask(() => this.#flush());
    });
  }

  add(w: Watcher<PodDisruptionBudget>): void {
    this.#watchers.push(w);
  }
  remove(w: Watcher<PodDisruptionBudget>): void {
    this.#watchers = this.#watchers.filter((x) => x !== w);
  }

  /**
   * What a watch from `rv` must be told first: the budgets changed since, as they are now (a
   * budget's events carry its whole status, so the last one stands for all of them — the API
   * server's watch cache would replay each).
   */
  since(rv: number): PodDisruptionBudget[] {
    this.#flush(true);
    const now = this.clock.nowMs();
    const out: PodDisruptionBudget[] = [];
    for (const list of this.state.pdbs.values())
      for (const pdb of list) if (pdb.rv > rv) out.push(toPdb(pdb, now));
    return out;
  }

  /** Compute the touched budgets' status; a change takes a new resourceVersion and is told. */
  #flush(watchComing = false): void {
    this.#queued = false;
    const now = this.clock.nowMs();
    const touched = [...this.#touched];
    this.#touched.clear();
    // Nobody watches: no status is computed for events nobody reads, until a watch comes.
    if (this.#watchers.length === 0 && !watchComing) {
      for (const pdb of touched) this.#unseen.add(pdb);
      return;
    }
    for (const pdb of this.#unseen) touched.push(pdb);
    this.#unseen.clear();
    for (const pdb of touched) {
      const sig = signature(pdbStatus(pdb, now));
      if (this.#shown.get(pdb) === sig) continue;
      this.#shown.set(pdb, sig);
      pdb.rv = this.state.nextRv();
      const object = toPdb(pdb, now);
      for (const w of this.#watchers)
        if (w.filter(object)) w.stream.push({ type: "MODIFIED", object });
    }
  }
}
