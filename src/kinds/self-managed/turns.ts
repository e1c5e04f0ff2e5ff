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
import { budgetsOfPod, type PdbInfo, type PodInfo, type Replacement } from "../../plan/index.js";

interface Budget {
  /** Its pods on the nodes to replace. */
  pods: number;
  allowed: number;
  /** Of those pods, how many go with the nodes placed so far. */
  placed: number;
}

interface Item {
  r: Replacement;
  index: number;
  /** The budgets of its pods, with how many of its pods each holds. */
  holds: [Budget, number][];
}

/** Budget id → budget, with each node's holdings; only budgets a drain must wait on. */
function budgetsOf(rs: Replacement[], podsByNode: Map<string, PodInfo[]>, pdbs: PdbInfo[]): Item[] {
  const budgets = new Map<PdbInfo, Budget>();
  return rs.map((r, index) => {
    const held = new Map<Budget, number>();
    for (const p of r.node ? (podsByNode.get(r.node) ?? []) : []) {
      if (p.mirror || p.owner?.kind === "DaemonSet") continue;
      const selecting = budgetsOfPod(pdbs, p);
      // Several budgets: the eviction API refuses the pod (preflight's finding), no turns.
      const pdb = selecting.length === 1 ? selecting[0] : undefined;
      if (!pdb || pdb.disruptionsAllowed <= 0) continue;
      let b = budgets.get(pdb);
      if (!b) budgets.set(pdb, (b = { pods: 0, allowed: pdb.disruptionsAllowed, placed: 0 }));
      b.pods++;
      held.set(b, (held.get(b) ?? 0) + 1);
    }
    return { r, index, holds: [...held] };
  });
}

/** A min-heap of [key, index, item]. */
class Heap {
  private a: [number, number, Item][] = [];
  get size() {
    return this.a.length;
  }
  private less(i: number, j: number) {
    const [x, y] = [this.a[i], this.a[j]] as [[number, number, Item], [number, number, Item]];
    return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
  }
  private swap(i: number, j: number) {
    [this.a[i], this.a[j]] = [this.a[j], this.a[i]] as [
      [number, number, Item],
      [number, number, Item],
    ];
  }
  push(e: [number, number, Item]) {
    this.a.push(e);
    for (let i = this.a.length - 1; i > 0 && this.less(i, (i - 1) >> 1); i = (i - 1) >> 1)
      this.swap(i, (i - 1) >> 1);
  }
  pop(): [number, number, Item] | undefined {
    const top = this.a[0];
    const last = this.a.pop();
    if (this.a.length > 0 && last) {
      this.a[0] = last;
      for (let i = 0; ;) {
        const [l, r] = [2 * i + 1, 2 * i + 2];
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
  const items = budgetsOf(rs, podsByNode, pdbs);
  const turns = (b: Budget) => b.pods / b.allowed;
  let longest = 0;
  for (const it of items) for (const [b] of it.holds) longest = Math.max(longest, turns(b));
  if (longest <= 1) return rs;
  // The latest start of a node: that of the first of its budgets' pods still to go.
  const due = (it: Item) => {
    let d = longest;
    for (const [b] of it.holds) d = Math.min(d, longest - (b.pods - b.placed) / b.allowed);
    return d;
  };
  const heap = new Heap();
  for (const it of items) heap.push([due(it), it.index, it]);
  const out: Replacement[] = [];
  // Placing a node only moves its budgets' deadlines later: an item whose key is stale is
  // pushed back with its new one (a lazy priority queue).
  for (let e = heap.pop(); e; e = heap.pop()) {
    const [key, index, it] = e;
    const now = due(it);
    if (now > key) {
      heap.push([now, index, it]);
      continue;
    }
    out.push(it.r);
    for (const [b, n] of it.holds) b.placed += n;
  }
  return out;
}
