// The labels of the pods a read keeps, each labels object once and known by its number, and the
// budgets that select each: asked of the budgets' index once per labels object, where each pass
// of a plan looked up every pod's labels in a map of them (half a million labels objects on
// 100,000 nodes: ~1 µs a pod, a miss of the processor's cache each, 3 s of the plan).
import type { Pod } from "../ports/index.js";
import type { KnownOwner } from "./owners.js";
import { pdbIndexOf, type PdbIndex } from "./pdb-index.js";
import type { PdbInfo } from "./snapshot.js";

/** The same keys and values (no array of keys made: this runs for every pod read). */
function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  let n = 0;
  for (const k in b) {
    if (!Object.hasOwn(a, k) || a[k] !== b[k]) return false;
    n++;
  }
  for (const _ in a) n--;
  return n === 0;
}

/**
 * Each labels object kept, by number: an owner's pods share one (its last pod's labels when
 * equal, see KnownOwner); a pod with labels of its own, or with no owner, has one to itself.
 * So a set belongs to one namespace, as an owner's pods do.
 */
export class LabelSets {
  readonly list: Record<string, string>[] = [];
  #index: PdbIndex | undefined;
  /** The index's answer for each set, as first asked. */
  #bySet: (PdbInfo[] | undefined)[] = [];

  /** The pod's set: its owner's last pod's when the labels are equal, else a new one. */
  of(p: Pod, known: KnownOwner | undefined): number {
    const labels = p.metadata.labels ?? {};
    if (known?.labels && sameLabels(known.labels, labels)) return known.labelSet;
    const set = this.list.push(labels) - 1;
    if (known) {
      known.labels = labels;
      known.labelSet = set;
    }
    return set;
  }

  /** From now on, the budgets asked for are those of `pdbs` (none when not given). */
  selectFrom(pdbs: PdbInfo[] | undefined): void {
    this.#index = pdbs && pdbIndexOf(pdbs);
    this.#bySet = new Array<PdbInfo[] | undefined>(this.list.length);
  }

  /** The budgets selecting set `set` (of `namespace`), or undefined when none were given. */
  budgets(set: number, namespace: string): PdbInfo[] | undefined {
    if (!this.#index) return undefined;
    return (this.#bySet[set] ??= this.#index.selects(
      namespace,
      this.list[set] as Record<string, string>,
    ));
  }
}
