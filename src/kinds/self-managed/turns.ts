// The order of a self-managed group's nodes for its PodDisruptionBudgets' turns. A budget lets
// at most `disruptionsAllowed` of its pods go at a time, and the next only once one that went
// is replaced by a Ready pod (https://kubernetes.io/docs/concepts/workloads/pods/disruptions/):
// a budget with many pods on the group's nodes takes that many turns one after another, which
// no window can shorten — only keep fed. A turn is lost whenever none of the nodes in flight
// holds one of its pods. So each budget's pods get a latest start: the budget with the most
// turns (`longest`) must start one every turn from the first; one with fewer turns may start
// its last pod at `longest` − 1 and each earlier one a turn before the next. Nodes go in order
// of the earliest latest start among their pods not yet placed (earliest deadline first), so
// the longest budgets are never starved and the short ones fill the slack; nodes whose pods no
// budget limits go when the slack is gone, and ties keep the order they came in (zones in turn).
import {
  asksBudgets,
  budgetsOnNode,
  type PdbInfo,
  type PodInfo,
  type Replacement,
} from "../../plan/index.js";

interface Budget {
  /** Its pods on the nodes to replace. */
  pods: number;
  allowed: number;
  /** Of those pods, how many go with the nodes placed so far. */
  placed: number;
  /** The nodes holding its pods, in input order, and the first not placed yet. */
  items: Item[];
  next: number;
}

interface Item {
  r: Replacement;
  index: number;
  /**
   * The budgets of its pods, and how many of its pods each holds (`counts[i]` of `held[i]`):
   * two lists per node rather than a pair per budget, which made ~20 arrays per node planned.
   */
  held: Budget[];
  counts: number[];
  placed: boolean;
}

const NO_PODS: readonly PodInfo[] = Object.freeze([]);

/** Each replacement with the budgets a drain of its node must wait on. */
function budgetsOf(
  rs: Replacement[],
  podsByNode: Map<string, PodInfo[]>,
  pdbs: PdbInfo[],
): { items: Item[]; budgets: Budget[] } {
  const budgets = new Map<PdbInfo, Budget>();
  // A node holds few budgets: a list searched, not a map per node, gathered in lists reused
  // from node to node and copied at their size (a pair per budget in lists grown a push at a
  // time made ~25 MB more garbage per 10,000 nodes planned).
  const held: Budget[] = [];
  const counts: number[] = [];
  const items = rs.map((r, index): Item => {
    let n = 0;
    const pods = (r.node && podsByNode.get(r.node)) || NO_PODS;
    const selected = budgetsOnNode(pdbs, pods);
    for (let i = 0; i < pods.length; i++) {
      const p = pods[i] as PodInfo;
      if (!asksBudgets(p)) continue;
      const selecting = selected[i] as PdbInfo[];
      // Several budgets: the eviction API refuses the pod (preflight's finding), no turns.
      const pdb = selecting.length === 1 ? selecting[0] : undefined;
      if (!pdb || pdb.disruptionsAllowed <= 0) continue;
      let b = budgets.get(pdb);
      if (!b) {
        b = { pods: 0, allowed: pdb.disruptionsAllowed, placed: 0, items: [], next: 0 };
        budgets.set(pdb, b);
      }
      b.pods++;
      let h = 0;
      while (h < n && held[h] !== b) h++;
      if (h < n) counts[h]!++;
      else {
        held[n] = b;
        counts[n++] = 1;
      }
    }
    const item: Item = {
      r,
      index,
      held: held.slice(0, n),
      counts: counts.slice(0, n),
      placed: false,
    };
    for (let h = 0; h < n; h++) (held[h] as Budget).items.push(item);
    return item;
  });
  return { items, budgets: [...budgets.values()] };
}

type Entry = [number, number, Budget];

/**
 * A min-heap of [key, index, budget]. Written without destructuring: a pair swapped or compared
 * through `[a, b] = [b, a]` made an array each time, ~110 MB of garbage per 150,000 pods planned.
 */
class Heap {
  private readonly a: Entry[] = [];
  private less(i: number, j: number): boolean {
    const x = this.a[i] as Entry;
    const y = this.a[j] as Entry;
    return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
  }
  private swap(i: number, j: number): void {
    const t = this.a[i] as Entry;
    this.a[i] = this.a[j] as Entry;
    this.a[j] = t;
  }
  push(e: Entry): void {
    this.a.push(e);
    for (let i = this.a.length - 1; i > 0 && this.less(i, (i - 1) >> 1); i = (i - 1) >> 1)
      this.swap(i, (i - 1) >> 1);
  }
  pop(): Entry | undefined {
    const top = this.a[0];
    const last = this.a.pop();
    if (this.a.length > 0 && last) {
      this.a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.a.length && this.less(l, m)) m = l;
        if (r < this.a.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}

/** The replacements in order for their budgets' turns (the input order when no budget takes
 * more than one turn). */
export function orderForTurns(
  rs: Replacement[],
  podsByNode: Map<string, PodInfo[]>,
  pdbs: PdbInfo[],
): Replacement[] {
  const { items, budgets } = budgetsOf(rs, podsByNode, pdbs);
  let longest = 0;
  for (const b of budgets) longest = Math.max(longest, b.pods / b.allowed);
  if (longest <= 1) return rs;
  // A budget's key: the latest start of its next pod, and where its next node comes in.
  const due = (b: Budget) => longest - (b.pods - b.placed) / b.allowed;
  const nextOf = (b: Budget): Item | undefined => {
    while (b.next < b.items.length && (b.items[b.next] as Item).placed) b.next++;
    return b.items[b.next];
  };
  const heap = new Heap();
  const push = (b: Budget) => {
    const it = nextOf(b);
    if (it) heap.push([due(b), it.index, b]);
  };
  for (const b of budgets) push(b);
  const out: Replacement[] = [];
  // The earliest latest start among the budgets goes first, with its next node; placing a node
  // only moves its budgets' keys later, so a stale entry is pushed back with its new key (a
  // lazy priority queue): the nodes in order of their own earliest deadline.
  for (let e = heap.pop(); e; e = heap.pop()) {
    const b = e[2];
    const it = nextOf(b);
    if (!it) continue;
    if (due(b) > e[0] || it.index > e[1]) {
      heap.push([due(b), it.index, b]);
      continue;
    }
    it.placed = true;
    out.push(it.r);
    for (let h = 0; h < it.held.length; h++)
      (it.held[h] as Budget).placed += it.counts[h] as number;
    push(b);
  }
  // Nodes whose pods no budget limits: after every budget's, in the order they came.
  for (const it of items) if (!it.placed) out.push(it.r);
  return out;
}
