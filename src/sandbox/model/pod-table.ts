// The pod store: every pod by its key ("namespace/name"), visited in the order pods were added,
// as a Map would keep them. Not a Map: a Map of 600,000 pods (a 20,000-node world) grows by
// doubling its hash table, and each outgrown table — large objects, kept until a full
// collection — added up to twice the final one: ~59 MB of the 20,000-node plan's memory
// (V8's sampling heap profiler). Here the pods sit in fixed-size blocks that never move and the
// index is a typed array of block positions: 13 to 16 bytes a pod, and what a doubling leaves
// behind is one small typed array.
import type { PodRec } from "./records.js";

/** Pods per block of the order (2^SHIFT): a block never grows, so none is ever copied. */
const SHIFT = 12;
const BLOCK = 1 << SHIFT;
const EMPTY = 0;
const DELETED = -1;

export class PodTable {
  /** Open addressing, linear probing: EMPTY, DELETED, or 1 + the pod's place in the order. */
  #slots = new Int32Array(1024);
  /** Slots not EMPTY (live and DELETED): the index grows when they are three quarters. */
  #used = 0;
  #blocks: (PodRec | undefined)[][] = [];
  /** Places taken in the order (holes left by deletions included). */
  #end = 0;
  #size = 0;
  /** Visits under way: the order is not compacted under one (a Map's iterators allow deletes). */
  #iterating = 0;

  get size(): number {
    return this.#size;
  }

  get(key: string): PodRec | undefined {
    const s = this.#slots[this.#find(key)] as number;
    return s > 0 ? this.#at(s - 1) : undefined;
  }

  has(key: string): boolean {
    return (this.#slots[this.#find(key)] as number) > 0;
  }

  /** Store `pod` under its key; one already there is replaced in its place, as Map.set does. */
  set(pod: PodRec): void {
    const i = this.#find(pod.key);
    const s = this.#slots[i] as number;
    if (s > 0) {
      this.#put(s - 1, pod);
      return;
    }
    if (this.#end === this.#blocks.length * BLOCK) this.#blocks.push(new Array(BLOCK));
    this.#put(this.#end, pod);
    this.#slots[i] = ++this.#end;
    this.#size++;
    if (++this.#used * 4 > this.#slots.length * 3) this.#reindex();
  }

  delete(key: string): boolean {
    const i = this.#find(key);
    const s = this.#slots[i] as number;
    if (s <= 0) return false;
    this.#put(s - 1, undefined);
    this.#slots[i] = DELETED;
    this.#size--;
    if (this.#iterating === 0 && this.#end - this.#size > Math.max(BLOCK, this.#size))
      this.#compact();
    return true;
  }

  /** The pods in the order they were added. */
  *values(): IterableIterator<PodRec> {
    this.#iterating++;
    try {
      for (let at = 0; at < this.#end; at++) {
        const p = this.#at(at);
        if (p) yield p;
      }
    } finally {
      this.#iterating--;
    }
  }

  /** As values(), without an iterator's result object per pod (this runs over every pod). */
  forEach(fn: (p: PodRec) => void): void {
    this.#iterating++;
    try {
      for (let at = 0; at < this.#end; at++) {
        const p = this.#at(at);
        if (p) fn(p);
      }
    } finally {
      this.#iterating--;
    }
  }

  #at(at: number): PodRec | undefined {
    return (this.#blocks[at >>> SHIFT] as (PodRec | undefined)[])[at & (BLOCK - 1)];
  }

  #put(at: number, pod: PodRec | undefined): void {
    (this.#blocks[at >>> SHIFT] as (PodRec | undefined)[])[at & (BLOCK - 1)] = pod;
  }

  /** The slot holding `key`, else the EMPTY slot where it would go. */
  #find(key: string): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let i = hashOf(key) & mask;
    let free = -1;
    for (;;) {
      const s = slots[i] as number;
      if (s === EMPTY) return free >= 0 ? free : i;
      if (s === DELETED) {
        if (free < 0) free = i;
      } else if ((this.#at(s - 1) as PodRec).key === key) return i;
      i = (i + 1) & mask;
    }
  }

  /** A new index, twice the size when the live fill it (else the same size, its DELETED gone). */
  #reindex(): void {
    const size = this.#size * 2 > this.#slots.length ? this.#slots.length * 2 : this.#slots.length;
    this.#slots = new Int32Array(size);
    this.#used = 0;
    const mask = size - 1;
    for (let at = 0; at < this.#end; at++) {
      const p = this.#at(at);
      if (!p) continue;
      let i = hashOf(p.key) & mask;
      while (this.#slots[i] !== EMPTY) i = (i + 1) & mask;
      this.#slots[i] = at + 1;
      this.#used++;
    }
  }

  /** Close the order's holes (once they outnumber the pods), then index it again. */
  #compact(): void {
    const blocks: (PodRec | undefined)[][] = [];
    let end = 0;
    for (let at = 0; at < this.#end; at++) {
      const p = this.#at(at);
      if (!p) continue;
      if (end === blocks.length * BLOCK) blocks.push(new Array(BLOCK));
      (blocks[end >>> SHIFT] as (PodRec | undefined)[])[end & (BLOCK - 1)] = p;
      end++;
    }
    this.#blocks = blocks;
    this.#end = end;
    this.#reindex();
  }
}

/** FNV-1a over the key's UTF-16 code units: keys differ in their last characters, all mixed. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
