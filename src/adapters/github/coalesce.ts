// Progress updates to GitHub, coalesced: sent at once when something important changed (a
// phase), otherwise at most every `intervalMs`, with the latest state winning. Keeps a long roll
// far below GitHub's rate limits while the check run still moves with every phase.

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export class Coalescer<T> {
  private last = -Infinity;
  private pending?: T;
  private timer?: unknown;
  private chain: Promise<void> = Promise.resolve();
  sent = 0;

  constructor(
    private readonly send: (value: T) => Promise<void>,
    private readonly intervalMs: number,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Offer the latest state; `urgent` sends it now (after any send in flight). */
  offer(value: T, urgent = false): Promise<void> {
    this.pending = value;
    const due = this.last + this.intervalMs - this.timers.now();
    if (urgent || due <= 0) return this.flush();
    if (this.timer === undefined) this.timer = this.timers.setTimeout(() => void this.flush(), due);
    return this.chain;
  }

  /** Send whatever is pending, and wait for every send to finish. */
  flush(): Promise<void> {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    const value = this.pending;
    this.pending = undefined;
    if (value === undefined) return this.chain;
    this.last = this.timers.now();
    this.chain = this.chain.then(async () => {
      this.sent++;
      await this.send(value);
    });
    return this.chain;
  }
}
