// The rows a PodStore keeps its pods in: one row per pod in chunks of fixed size, one set of
// chunks per range of nodes (a Bucket), filled as pods are read and placed node by node once all
// are (see pod-store.ts for why rows and not objects).
import type { PodPlacement } from "./snapshot.js";

/** A row's references, at these offsets from its start in its chunk's `refs`. */
export const [NAME, LABELS, OWNER, TOLERATIONS, CONTAINERS] = [0, 1, 2, 3, 4];
export const REFS = 5;
/** Its flags. */
export const READY = 1;
export const MIRROR = 2;
/** Rows per chunk: a chunk's arrays have a fixed size, so nothing grows and is copied. */
const ROWS = 2048;

/**
 * `n` zeros in an ordinary array of doubles (-0 makes it one; they count as 0), in V8's heap and
 * not looked into by its marker. Not a typed array: its memory is outside the heap, and V8
 * starts a major collection each time that grows by 64 MB (kExternalAllocationSoftLimit, in V8's
 * include/v8-internal.h). A 100,000-node read made ~120 MB of them: two major collections instead
 * of one (traced), each marking the sandbox's 2.3 GB world too. Not small integers: the marker
 * reads those at every major collection (over the wire, response buffers start one per 64 MB).
 */
function zeros(n: number): number[] {
  return new Array<number>(n).fill(-0);
}

/**
 * A chunk of rows: the fields that refer to objects in one array, the rest (namespace and phase
 * as numbers standing for their one string, node, grace period, flags) in arrays of numbers
 * (`zeros`): 80 bytes a row where twelve references took 96. Each page of rows is a fault when
 * first written (10–25 µs on the bench's machine) and marked on every major GC.
 */
export class Chunk {
  readonly refs = new Array<unknown>(ROWS * REFS);
  readonly ns = zeros(ROWS);
  /** Let go once its rows are placed: a placed row's node is its range's to say. */
  readonly node = zeros(ROWS);
  readonly phase = zeros(ROWS);
  readonly grace = zeros(ROWS);
  readonly flags = zeros(ROWS);
}

/** Row `r`'s chunk among `chunks` (of a bucket, or a placed range). */
export function chunkOf(chunks: readonly Chunk[], r: number): Chunk {
  return chunks[Math.floor(r / ROWS)] as Chunk;
}

/** Row `r`'s row in its chunk. */
export function rowIn(r: number): number {
  return r % ROWS;
}

/**
 * A range's rows once every pod is read, node by node (each node's in the order read), in the
 * chunks they were read into: `ends[j]` is where the range's `j`th node's rows end and the next
 * one's begin; `deleting`, deletion timestamps by row.
 */
export interface Placed {
  chunks: readonly Chunk[];
  size: number;
  ends: number[];
  deleting: Map<number, string>;
  /** What binds a pod to a zone, by row: few pods have it. */
  placements: Map<number, PodPlacement>;
}

/** A sparse column by row as read, by row as placed (`order[to]`: the row read that goes to `to`). */
function reordered<T>(byRead: Map<number, T>, order: readonly number[]): Map<number, T> {
  const out = new Map<number, T>();
  if (byRead.size > 0)
    for (let to = 0; to < order.length; to++) {
      const v = byRead.get(order[to] as number);
      if (v !== undefined) out.set(to, v);
    }
  byRead.clear();
  return out;
}

/** Row `i` of chunk `a` into row `j` of chunk `b`, every field but the node. */
function move(a: Chunk, i: number, b: Chunk, j: number): void {
  b.ns[j] = a.ns[i] as number;
  b.phase[j] = a.phase[i] as number;
  b.grace[j] = a.grace[i] as number;
  b.flags[j] = a.flags[i] as number;
  for (let r = 0; r < REFS; r++) b.refs[j * REFS + r] = a.refs[i * REFS + r];
}

/**
 * The rows of the pods of one range of nodes, in the order read. Pods are read in list order
 * (namespace, name), and placed node by node once all are read: within one range (a megabyte
 * or so of rows) that jumping about stays in the processor's cache; across all 3 million rows of
 * a 100,000-node cluster it missed the cache on nearly every pod.
 */
export class Bucket {
  readonly chunks: Chunk[] = [];
  /** Deletion timestamps by row: few pods have one. */
  readonly deleting = new Map<number, string>();
  /** What binds a pod to a zone, by row (PodPlacement): few pods have it. */
  readonly placements = new Map<number, PodPlacement>();
  count = 0;

  /** The chunk row `k` goes in, made when it is the first of its chunk. */
  chunk(k: number): Chunk {
    return this.chunks[Math.floor(k / ROWS)] ?? this.#grow();
  }

  #grow(): Chunk {
    const chunk = new Chunk();
    this.chunks.push(chunk);
    return chunk;
  }

  #node(k: number): number {
    return chunkOf(this.chunks, k).node[rowIn(k)] as number;
  }

  /**
   * Its rows node by node (`first`: its first node, of `nodes`), each node's as read: a counting
   * sort, then the rows moved into that order where they are. A plan asks for the pods of a
   * group's nodes, scattered over every range: a node's rows together are a few cache lines
   * where, left as read, each of its pods missed the cache in each of the row's arrays. Moved,
   * not copied: a copy was 72 bytes a pod more to fault in (~43 MB on 20,000 nodes), let go at
   * once.
   */
  place(first: number, nodes: number): Placed {
    const ends = zeros(nodes + 1);
    for (let k = 0; k < this.count; k++) ends[this.#node(k) - first + 1]!++;
    for (let i = 0; i < nodes; i++) ends[i + 1]! += ends[i]!;
    // Row `order[to]` as read goes to row `to`; each node's start moves on as its rows are
    // placed, to end where the next node starts.
    const order = zeros(this.count);
    for (let k = 0; k < this.count; k++) order[ends[this.#node(k) - first]!++] = k;
    const deleting = reordered(this.deleting, order);
    const placements = reordered(this.placements, order);
    this.#permute(order);
    const chunks = this.chunks.splice(0);
    for (const chunk of chunks) chunk.node.length = 0;
    return { chunks, size: this.count, ends, deleting, placements };
  }

  /**
   * Row `order[to]` moved to row `to`, for every row: one cycle of the permutation at a time,
   * its first row held aside in `spare` while the others move up. `order` is used up (-1:
   * placed).
   */
  #permute(order: number[]): void {
    const spare = new Chunk();
    for (let start = 0; start < order.length; start++) {
      if ((order[start] as number) < 0) continue;
      move(this.chunk(start), rowIn(start), spare, 0);
      let to = start;
      for (let from = order[to] as number; from !== start; from = order[to] as number) {
        order[to] = -1;
        move(this.chunk(from), rowIn(from), this.chunk(to), rowIn(to));
        to = from;
      }
      order[to] = -1;
      move(spare, 0, this.chunk(to), rowIn(to));
    }
  }
}
