// The pod store: every pod by its key ("namespace/name"), visited in the order pods were added,
// as a Map would keep them. Not a Map: a Map of 600,000 pods (a 20,000-node world) grows by
// doubling its hash table, and each outgrown table — large objects, kept until a full
// collection — added up to twice the final one: ~59 MB of the 20,000-node plan's memory
// (V8's sampling heap profiler). Here the pods sit in fixed-size blocks that never move and the
// index is a typed array of block positions and key hashes: 19 to 29 bytes a pod, sized once
// when the world knows how many pods it will build (`reserve`), so that nothing is outgrown.
import type { PodRec } from "./records.js";

/** Pods per block of the order (2^SHIFT): a block never grows, so none is ever copied. */
const SHIFT = 12;
const BLOCK = 1 << SHIFT;
const EMPTY = 0;
const DELETED = -1;

export class PodTable {
  /**
   * Open addressing, linear probing, two numbers a slot: at 2i EMPTY, DELETED or 1 + the pod's
   * place in the order; at 2i + 1 its key's hash, compared before the key, so that probing past
   * other pods' slots reads none of their records.
   */
  #slots = new Int32Array(2 * 1024);
  #mask = 1023;
  /** Slots not EMPTY (live and DELETED): the index is rebuilt when they are three quarters. */
  #used = 0;
  #blocks: (PodRec | undefined)[][] = [];
  /** Places taken in the order (holes left by deletions included). */
  #end = 0;
  #size = 0;
  /**
   * Visits under way: the order is not compacted under one (a Map's iterators allow deletes). A
   * visit left half-way without its iterator's return() (for…of calls it; a dropped `values()`
   * does not) holds compaction off for good: the holes then stay, nothing else changes.
   */
  #iterating = 0;

  get size(): number {
    return this.#size;
  }

  get(key: string): PodRec | undefined {
    const s = this.#slots[2 * this.#find(key, hashOf(key))] as number;
    return s > 0 ? this.#at(s - 1) : undefined;
  }

  has(key: string): boolean {
    return (this.#slots[2 * this.#find(key, hashOf(key))] as number) > 0;
  }

  /** Make the index room for `pods` pods at once, rather than growing it as they come. */
  reserve(pods: number): void {
    let capacity = this.#mask + 1;
    while (capacity * 3 < pods * 4) capacity *= 2;
    if (capacity > this.#mask + 1) this.#rebuild(capacity);
  }

  /** Store `pod` under its key; one already there is replaced in its place, as Map.set does. */
  set(pod: PodRec): void {
    const h = hashOf(pod.key);
    const i = this.#find(pod.key, h);
    const s = this.#slots[2 * i] as number;
    if (s > 0) {
      this.#put(s - 1, pod);
      return;
    }
    if (this.#end === this.#blocks.length * BLOCK) this.#blocks.push(new Array(BLOCK));
    this.#put(this.#end, pod);
    this.#slots[2 * i] = ++this.#end;
    this.#slots[2 * i + 1] = h;
    this.#size++;
    // Rebuilt at twice the size once the live are half of it, else as it is, DELETED gone.
    const capacity = this.#mask + 1;
    if (++this.#used * 4 > capacity * 3)
      this.#rebuild(this.#size * 2 > capacity ? capacity * 2 : capacity);
  }

  delete(key: string): boolean {
    const i = this.#find(key, hashOf(key));
    const s = this.#slots[2 * i] as number;
    if (s <= 0) return false;
    this.#put(s - 1, undefined);
    this.#slots[2 * i] = DELETED;
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

  /** The slot holding `key` (of hash `h`), else the slot where it would go. */
  #find(key: string, h: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    let i = h & mask;
    let free = -1;
    for (;;) {
      const s = slots[2 * i] as number;
      if (s === EMPTY) return free >= 0 ? free : i;
      if (s === DELETED) {
        if (free < 0) free = i;
      } else if (slots[2 * i + 1] === h && (this.#at(s - 1) as PodRec).key === key) return i;
      i = (i + 1) & mask;
    }
  }

  /** The index again at `capacity` slots, from the live slots of the one it replaces. */
  #rebuild(capacity: number): void {
    const old = this.#slots;
    const slots = new Int32Array(2 * capacity);
    const mask = capacity - 1;
    for (let j = 0; j < old.length; j += 2) {
      const s = old[j] as number;
      if (s <= 0) continue;
      const h = old[j + 1] as number;
      let i = h & mask;
      while (slots[2 * i] !== EMPTY) i = (i + 1) & mask;
      slots[2 * i] = s;
      slots[2 * i + 1] = h;
    }
    this.#slots = slots;
    this.#mask = mask;
    this.#used = this.#size;
  }

  /** Close the order's holes (once they outnumber the pods), then index it again. */
  #compact(): void {
    const blocks: (PodRec | undefined)[][] = [];
    /** 1 + each pod's new place, by its old one. */
    const moved = new Int32Array(this.#end);
    let end = 0;
    for (let at = 0; at < this.#end; at++) {
      const p = this.#at(at);
      if (!p) continue;
      if (end === blocks.length * BLOCK) blocks.push(new Array(BLOCK));
      (blocks[end >>> SHIFT] as (PodRec | undefined)[])[end & (BLOCK - 1)] = p;
      moved[at] = ++end;
    }
    this.#blocks = blocks;
    this.#end = end;
    // The slots keep their keys' hashes: point them at the new places, then drop the DELETED.
    const slots = this.#slots;
    for (let j = 0; j < slots.length; j += 2) {
      const s = slots[j] as number;
      if (s > 0) slots[j] = moved[s - 1] as number;
    }
    this.#rebuild(this.#mask + 1);
  }
}

/** FNV-1a over the key's UTF-16 code units: keys differ in their last characters, all mixed. */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  // As an Int32Array holds it.
  return h | 0;
}
