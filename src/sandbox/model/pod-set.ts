// The pods of a workload or of a PodDisruptionBudget, visited in the order they joined, as a Set
// keeps them. Not a Set: a world holds each pod in its workload's and its budgets' sets, and
// their hash tables were ~36 MB of what the 20,000-node plan from the command line promoted
// (V8's sampling heap profiler); a list is 8 bytes a pod. A pod leaves one only once it is gone
// (the kubelet's removePod marks it, then takes it out of its workload and budgets), so leaving
// is counted, the gone are skipped, and they are let go once they are half the list. It reads
// nothing of a pod but `gone`: records.ts holds `PodSet<PodRec>`.

export class PodSet<P extends { readonly gone: boolean }> implements Iterable<P> {
  #pods: P[] = [];
  /** The gone still in #pods. */
  #gone = 0;

  get size(): number {
    return this.#pods.length - this.#gone;
  }

  /** `p` joins. Each pod joins a set once: when it is created, or when a new budget selects it. */
  add(p: P): void {
    this.#pods.push(p);
  }

  /** `p` leaves (once). A gone pod is let go later; one that is not (never so far) at once. */
  delete(p: P): void {
    if (!p.gone) {
      const at = this.#pods.indexOf(p);
      if (at >= 0) this.#pods.splice(at, 1);
      return;
    }
    // A new list, not this one changed: a visit under way goes on over the one it started.
    if (++this.#gone * 2 > this.#pods.length + 64) {
      this.#pods = this.#pods.filter((q) => !q.gone);
      this.#gone = 0;
    }
  }

  has(p: P): boolean {
    return !p.gone && this.#pods.includes(p);
  }

  /**
   * The pods that have not left, in the order they joined. A plain iterator over the list as it
   * is: pods joining during the visit are visited, as a Set's iterator visits them (unless a
   * departure let the gone go since, which no visit of a workload's pods makes).
   */
  [Symbol.iterator](): Iterator<P> {
    const list = this.#pods;
    let i = 0;
    return {
      next: (): IteratorResult<P> => {
        while (i < list.length) {
          const p = list[i++] as P;
          if (!p.gone) return { value: p, done: false };
        }
        return { value: undefined, done: true };
      },
    };
  }

  values(): Iterator<P> {
    return this[Symbol.iterator]();
  }
}
