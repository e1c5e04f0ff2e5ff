// The budgets that select each pod, found through an index built once per snapshot: by
// namespace and by one matchLabels pair of each budget, each labels object answered once.
import { derived } from "../ports/index.js";
import { matchesSelector } from "./selector.js";
import type { PdbInfo, PodInfo } from "./snapshot.js";

/**
 * PDBs by namespace and by one of their matchLabels pairs, so that finding the budgets of a pod
 * looks at a handful of candidates instead of every PDB of the cluster (150,000 pods × 5,000
 * PDBs would be 750 million selector matches).
 */
export class PdbIndex {
  /** namespace → label key → label value → PDBs whose first matchLabels pair it is. */
  private readonly byLabel = new Map<string, Map<string, Map<string, PdbInfo[]>>>();
  private readonly byNamespace = new Map<string, PdbInfo[]>();
  /** namespace → every label key its budgets' selectors read (matchLabels and expressions). */
  private readonly keysRead = new Map<string, Set<string>>();

  constructor(pdbs: PdbInfo[]) {
    const add = <K>(map: Map<K, PdbInfo[]>, key: K, b: PdbInfo) => {
      const list = map.get(key);
      if (list) list.push(b);
      else map.set(key, [b]);
    };
    for (const b of pdbs) {
      this.#read(b);
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

  /** Notes the label keys `b`'s selector reads. */
  #read(b: PdbInfo): void {
    let keys = this.keysRead.get(b.namespace);
    if (!keys) this.keysRead.set(b.namespace, (keys = new Set()));
    for (const k in b.selector?.matchLabels) keys.add(k);
    for (const e of b.selector?.matchExpressions ?? []) keys.add(e.key);
  }

  /**
   * Whether every budget of `namespace` selects `a` and `b` alike: no key the budgets' selectors
   * read differs between them, in value or in whether it is there (matchLabels compares values,
   * Exists and DoesNotExist ask whether it is there, as `matchesSelector` does), so `selects`
   * finds the same budgets for both. A StatefulSet's pods differ by their name label, which
   * budgets seldom read. The labels' own keys are walked, not the keys read: a namespace's
   * budgets may read thousands.
   */
  alike(namespace: string, a: Record<string, string>, b: Record<string, string>): boolean {
    const read = this.keysRead.get(namespace);
    if (!read) return true;
    for (const k in a) if (a[k] !== b[k] && read.has(k)) return false;
    for (const k in b) if (!Object.hasOwn(a, k) && read.has(k)) return false;
    return true;
  }

  /**
   * Per namespace, the answer for each labels object already asked about, for pods that do not
   * carry their budgets (PodInfo.budgets; a read's pods do): the pods of one owner share their
   * labels, so a ReplicaSet's thousand pods cost one match against the budgets instead of a
   * thousand. A Map, not a WeakMap: the labels
   * live as long as the snapshot whose index this is, and half a million weak entries made each
   * full collection during a plan trace them as ephemerons.
   */
  private readonly answers = new Map<string, Map<Record<string, string>, PdbInfo[]>>();

  /** Each node's pods' budgets, by the node's list of pods (see `onNode`). */
  private readonly nodes = new WeakMap<readonly PodInfo[], PdbInfo[][]>();

  /**
   * The budgets of each pod of one node's list, in its order, asked once per group's plan (which
   * makes the list: src/engine/plan.ts): preflight's findings and the turns' order both read
   * them, and each lookup above misses the processor's cache (~0.7 µs a pod, 2 s a pass over 3
   * million pods), where this is one lookup per node. A pod that carries its budgets (read
   * ones) is not looked up at all.
   */
  onNode(pods: readonly PodInfo[]): PdbInfo[][] {
    let out = this.nodes.get(pods);
    if (out) return out;
    out = new Array<PdbInfo[]>(pods.length);
    for (let i = 0; i < pods.length; i++) {
      const pod = pods[i] as PodInfo;
      out[i] = pod.budgets ?? this.answer(pod.namespace, pod.labels);
    }
    this.nodes.set(pods, out);
    return out;
  }

  /** The budgets selecting `labels` (of `namespace`), kept for the same labels object. */
  private answer(namespace: string, labels: Record<string, string>): PdbInfo[] {
    let known = this.answers.get(namespace);
    if (!known) this.answers.set(namespace, (known = new Map()));
    let out = known.get(labels);
    if (!out) known.set(labels, (out = this.selects(namespace, labels)));
    return out;
  }

  /**
   * The budgets of `namespace` that select `labels`: those without matchLabels first, then those
   * found by each label. Asked once per labels object, which is once per pod for a
   * StatefulSet's (each has its own name label): nothing is made unless a budget matches.
   */
  selects(namespace: string, labels: Record<string, string>): PdbInfo[] {
    let out = matching(this.byNamespace.get(namespace), labels, NO_BUDGETS);
    const keys = this.byLabel.get(namespace);
    if (keys)
      for (const k in labels) out = matching(keys.get(k)?.get(labels[k] as string), labels, out);
    return out;
  }
}

/** No budgets: one frozen list for every pod that no budget selects. */
export const NO_BUDGETS: PdbInfo[] = Object.freeze([]) as never;

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
    if (out === NO_BUDGETS) out = [];
    out.push(b);
  }
  return out;
}

const PDB_INDEX = Symbol("pdbIndex");

/**
 * One index per snapshot's list of budgets, kept on the list, however many groups are planned
 * from it: built per group, it made planning a cluster of many groups grow with groups × PDBs.
 */
export function pdbIndexOf(pdbs: PdbInfo[]): PdbIndex {
  return derived(pdbs, PDB_INDEX, (list) => new PdbIndex(list));
}

/**
 * The budgets of the snapshot that select each pod of one node's list, in its order (the index
 * built once per snapshot, each list's answer kept with it: the same list asked again is free).
 */
export function budgetsOnNode(pdbs: PdbInfo[], pods: readonly PodInfo[]): PdbInfo[][] {
  return pdbIndexOf(pdbs).onNode(pods);
}
