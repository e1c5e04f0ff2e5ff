// Virtual time: a discrete-event clock that async code written against the Clock port runs on
// unchanged. Timers fire in (time, insertion) order; time jumps to the next timer only when
// nothing else can run, i.e. after the microtask queue has drained. A 15-minute drain timeout
// therefore costs microseconds, and a run is exactly reproducible.
//
// Two kinds of timers: `sleep` (resolves a promise: async code resumes, so the runner drains
// the microtask queue before going on) and `at`/`after` (a synchronous callback of a sandbox
// actor: no drain needed unless the callback wakes async code, which it reports with notify()).
import { abortError, type Clock } from "../../ports/clock.js";

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export interface TimerHandle {
  cancel(): void;
}

export class DeadlockError extends Error {
  override name = "DeadlockError";
}

const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));

export class VirtualClock implements Clock {
  #now: number;
  #seq = 0;
  #heap: Timer[] = [];
  #wake = false;
  /** Timers fired so far (a cost figure for the benchmark). */
  fired = 0;

  constructor(start: Date | number = Date.UTC(2026, 0, 1, 9, 0, 0)) {
    this.#now = typeof start === "number" ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }
  /** Virtual time does not step: it is its own monotonic clock. */
  monotonic(): number {
    return this.nowMs();
  }
  nowMs(): number {
    return this.#now;
  }
  iso(): string {
    return new Date(this.#now).toISOString();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortError(signal));
      const onAbort = () => {
        handle.cancel();
        this.#wake = true;
        reject(abortError(signal));
      };
      const handle = this.after(ms, () => {
        signal?.removeEventListener("abort", onAbort);
        this.#wake = true;
        resolve();
      });
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Run `fn` at virtual time `at` (ms since the epoch); never earlier than now. */
  at(at: number, fn: () => void): TimerHandle {
    const timer: Timer = { at: Math.max(at, this.#now), seq: this.#seq++, fn, cancelled: false };
    this.#push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }
  after(ms: number, fn: () => void): TimerHandle {
    return this.at(this.#now + Math.max(0, ms), fn);
  }

  /** Say that synchronous code just resolved a promise some async code awaits. */
  notify(): void {
    this.#wake = true;
  }

  /** Milliseconds to the next pending timer, or undefined when none is pending. */
  nextAt(): number | undefined {
    this.#dropCancelled();
    return this.#heap[0]?.at;
  }

  /**
   * Drive virtual time until `task` settles, and return (or throw) its result. Throws a
   * DeadlockError when the task waits for something and no timer is left to fire, or when
   * `limitMs` of virtual time pass first.
   */
  async run<T>(task: Promise<T> | (() => Promise<T>), limitMs = 30 * 24 * 3600_000): Promise<T> {
    const promise = typeof task === "function" ? task() : task;
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    const deadline = this.#now + limitMs;
    await immediate();
    while (!settled) {
      const timer = this.#pop();
      if (!timer) throw new DeadlockError("the task waits, and nothing is left to happen");
      if (timer.at > deadline) {
        this.#push(timer);
        throw new DeadlockError(`the task did not finish within ${limitMs / 1000} virtual seconds`);
      }
      this.#fire(timer);
      if (this.#wake) {
        this.#wake = false;
        await immediate();
      }
    }
    return promise;
  }

  /** Let `ms` of virtual time pass, firing every timer due meanwhile. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.#now + ms);
  }

  async advanceTo(at: number): Promise<void> {
    await immediate();
    for (;;) {
      this.#dropCancelled();
      const next = this.#heap[0];
      if (!next || next.at > at) break;
      this.#fire(this.#pop() as Timer);
      if (this.#wake) {
        this.#wake = false;
        await immediate();
      }
    }
    this.#now = Math.max(this.#now, at);
    await immediate();
  }

  /** Advance until `predicate` holds (checked after every timer); false if `limitMs` passes. */
  async until(predicate: () => boolean, limitMs: number): Promise<boolean> {
    const deadline = this.#now + limitMs;
    await immediate();
    while (!predicate()) {
      this.#dropCancelled();
      const next = this.#heap[0];
      if (!next || next.at > deadline) {
        this.#now = Math.max(this.#now, deadline);
        return predicate();
      }
      this.#fire(this.#pop() as Timer);
      if (this.#wake) {
        this.#wake = false;
        await immediate();
      }
    }
    return true;
  }

  #fire(timer: Timer): void {
    this.#now = Math.max(this.#now, timer.at);
    this.fired++;
    timer.fn();
  }

  // ---- binary heap on (at, seq) ----
  #less(a: Timer, b: Timer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
  #push(t: Timer): void {
    const h = this.#heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p] as Timer;
      if (!this.#less(t, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = t;
  }
  #popRaw(): Timer | undefined {
    const h = this.#heap;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && this.#less(h[r] as Timer, h[l] as Timer) ? r : l;
      if (!this.#less(h[c] as Timer, last)) break;
      h[i] = h[c] as Timer;
      i = c;
    }
    h[i] = last;
    return top;
  }
  #dropCancelled(): void {
    while (this.#heap[0]?.cancelled) this.#popRaw();
  }
  #pop(): Timer | undefined {
    this.#dropCancelled();
    return this.#popRaw();
  }
}
