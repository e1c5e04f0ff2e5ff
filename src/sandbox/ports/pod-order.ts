// Every pod's "namespace/name" in list order, kept from one list to the next instead of sorted
// for each: a cluster-wide list in pages of 500 would otherwise sort the whole cluster once per
// page (150,000 pods, 300 pages), and a namespace's list (validation polls kube-system) would
// sort every pod of the cluster — most of what a big rehearsal or roll cost the sandbox. Each
// namespace keeps its own order; pods that come and go between lists are merged in at the next
// list of their namespace, in one pass over it. The cluster's order is the namespaces' in turn
// ("a/…" before "a-b/…" before "ab/…", as a sort of the whole keys would have them: a name holds
// no '/').
import type { PodRec } from "../model/records.js";

const before = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

class NamespaceOrder {
  keys: string[] = [];
  /** Keys created (or created again) since the last list. */
  readonly added = new Set<string>();
  removed = false;

  constructor(private readonly pods: ReadonlyMap<string, PodRec>) {}

  get dirty(): boolean {
    return this.added.size > 0 || this.removed;
  }

  current(): string[] {
    if (!this.dirty) return this.keys;
    const pods = this.pods;
    const added = [...this.added].filter((k) => pods.has(k)).sort(before);
    const kept = this.keys.filter((k) => pods.has(k) && !this.added.has(k));
    this.added.clear();
    this.removed = false;
    const out: string[] = [];
    let i = 0;
    let j = 0;
    while (i < kept.length || j < added.length) {
      if (j >= added.length || (i < kept.length && (kept[i] as string) < (added[j] as string)))
        out.push(kept[i++] as string);
      else out.push(added[j++] as string);
    }
    this.keys = out;
    return out;
  }
}

export class PodOrder {
  #namespaces: Map<string, NamespaceOrder> | undefined;
  #all: string[] | undefined;

  constructor(private readonly pods: ReadonlyMap<string, PodRec>) {}

  /** A pod was created or went away. */
  changed(key: string): void {
    if (!this.#namespaces) return;
    this.#all = undefined;
    const ns = key.slice(0, key.indexOf("/"));
    let o = this.#namespaces.get(ns);
    if (!o) this.#namespaces.set(ns, (o = new NamespaceOrder(this.pods)));
    if (this.pods.has(key)) o.added.add(key);
    else o.removed = true;
  }

  /** Every key in order. */
  keys(): string[] {
    const namespaces = this.#built();
    if (!this.#all) {
      const names = [...namespaces.keys()].sort((a, b) => before(`${a}/`, `${b}/`));
      this.#all = names.flatMap((ns) => (namespaces.get(ns) as NamespaceOrder).current());
    }
    // A safety net, never expected to catch: the order disagrees with the pods.
    if (this.#all.length !== this.pods.size) {
      this.#namespaces = undefined;
      return this.keys();
    }
    return this.#all;
  }

  /** One namespace's keys in order. */
  inNamespace(namespace: string): string[] {
    return this.#built().get(namespace)?.current() ?? [];
  }

  #built(): Map<string, NamespaceOrder> {
    if (this.#namespaces) return this.#namespaces;
    const out = new Map<string, NamespaceOrder>();
    for (const [key, p] of this.pods) {
      let o = out.get(p.namespace);
      if (!o) out.set(p.namespace, (o = new NamespaceOrder(this.pods)));
      o.keys.push(key);
    }
    for (const o of out.values()) o.keys.sort(before);
    this.#all = undefined;
    this.#namespaces = out;
    return out;
  }
}
