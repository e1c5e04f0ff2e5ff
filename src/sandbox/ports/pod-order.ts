// Every pod in list order (by "namespace/name"), kept from one list to the next instead of sorted
// for each: a cluster-wide list in pages of 500 would otherwise sort the whole cluster once per
// page (150,000 pods, 300 pages), and a namespace's list (validation polls kube-system) would
// sort every pod of the cluster — most of what a big rehearsal or roll cost the sandbox. The
// order holds the records themselves, not their keys: a list of millions of pods looked each one
// up by key again, a cache miss apiece. Each namespace keeps its own order; pods that come and go
// between lists are merged in at the next list of their namespace, in one pass over it. The
// cluster's order is the namespaces' in turn ("a-b/…" before "a/…" before "ab/…", as a sort of
// the whole keys would have them: a name holds no '/').
import type { PodTable } from "../model/pod-table.js";
import type { PodRec } from "../model/records.js";

const before = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** List order: by "namespace/name". */
export const byKey = (a: PodRec, b: PodRec) => before(a.key, b.key);

class NamespaceOrder {
  pods: PodRec[] = [];
  /** Keys created (or created again) since the last list. */
  readonly added = new Set<string>();
  /** Pods gone since the last list: kept in `pods` until then (see PodOrder.changed). */
  removed = 0;

  constructor(private readonly store: PodTable) {}

  get dirty(): boolean {
    return this.added.size > 0 || this.removed > 0;
  }

  current(): PodRec[] {
    if (!this.dirty) return this.pods;
    const store = this.store;
    const added: PodRec[] = [];
    for (const key of this.added) {
      const p = store.get(key);
      if (p) added.push(p);
    }
    added.sort(byKey);
    // A pod that went away is marked gone before it leaves the store; one created again under
    // its key is a new record, among those added.
    const kept = this.pods.filter((p) => !p.gone && !this.added.has(p.key));
    this.added.clear();
    this.removed = 0;
    const out: PodRec[] = [];
    let i = 0;
    let j = 0;
    while (i < kept.length || j < added.length) {
      if (
        j >= added.length ||
        (i < kept.length && (kept[i] as PodRec).key < (added[j] as PodRec).key)
      )
        out.push(kept[i++] as PodRec);
      else out.push(added[j++] as PodRec);
    }
    this.pods = out;
    return out;
  }
}

export class PodOrder {
  #namespaces: Map<string, NamespaceOrder> | undefined;
  #all: PodRec[] | undefined;

  constructor(private readonly store: PodTable) {}

  /** A pod was created or went away. */
  changed(key: string): void {
    if (!this.#namespaces) return;
    this.#all = undefined;
    const ns = key.slice(0, key.indexOf("/"));
    let o = this.#namespaces.get(ns);
    if (!o) this.#namespaces.set(ns, (o = new NamespaceOrder(this.store)));
    if (this.store.has(key)) o.added.add(key);
    // A roll lists pods by node, not by namespace: the gone are let go once they are half the
    // namespace's order, rather than kept until its next list.
    else if (++o.removed > o.pods.length / 2 + 64) o.current();
  }

  /** Every pod in order. */
  all(): PodRec[] {
    const namespaces = this.#built();
    if (!this.#all) {
      const names = [...namespaces.keys()].sort((a, b) => before(`${a}/`, `${b}/`));
      this.#all = joined(names.map((ns) => (namespaces.get(ns) as NamespaceOrder).current()));
    }
    // A safety net, never expected to catch: the order disagrees with the pods.
    if (this.#all.length !== this.store.size) {
      this.#namespaces = undefined;
      return this.all();
    }
    return this.#all;
  }

  /** One namespace's pods in order. */
  inNamespace(namespace: string): PodRec[] {
    return this.#built().get(namespace)?.current() ?? [];
  }

  /** How many records the order holds for a namespace now, the gone not yet let go included. */
  held(namespace: string): number {
    return this.#namespaces?.get(namespace)?.pods.length ?? 0;
  }

  #built(): Map<string, NamespaceOrder> {
    if (this.#namespaces) return this.#namespaces;
    const out = new Map<string, NamespaceOrder>();
    // forEach, not for…of: this loop runs once per order, over every pod, and the iterator's
    // result objects were not optimised away (24 MB at 600,000 pods).
    this.store.forEach((p) => {
      let o = out.get(p.namespace);
      if (!o) out.set(p.namespace, (o = new NamespaceOrder(this.store)));
      o.pods.push(p);
    });
    for (const o of out.values()) o.pods.sort(byKey);
    this.#all = undefined;
    this.#namespaces = out;
    return out;
  }
}

/** The lists one after the other, in one array made at its size (flatMap grows and copies its). */
function joined<T>(lists: readonly (readonly T[])[]): T[] {
  let size = 0;
  for (const list of lists) size += list.length;
  const out = new Array<T>(size);
  let at = 0;
  for (const list of lists) for (let i = 0; i < list.length; i++) out[at++] = list[i] as T;
  return out;
}
