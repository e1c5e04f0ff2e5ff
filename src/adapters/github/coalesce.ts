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

/**
 * One send in flight at a time, and one state waiting behind it, replaced by each newer one: a
 * send held up by a rate limit (a minute or more, src/adapters/github/client.ts) must not queue
 * a send per offer behind it, each a stale state that asks GitHub again while it is limiting.
 */
export class Coalescer<T> {
  private last = -Infinity;
  private pending?: T;
  private urgent = false;
  private timer?: unknown;
  private inFlight?: Promise<void>;
  sent = 0;

  constructor(
    private readonly send: (value: T) => Promise<void>,
    private readonly intervalMs: number,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Offer the latest state; `urgent` sends it as soon as no send is in flight. */
  offer(value: T, urgent = false): Promise<void> {
    this.pending = value;
    this.urgent ||= urgent;
    this.schedule();
    return this.inFlight ?? Promise.resolve();
  }

  /** Send whatever is pending, and wait until nothing is in flight or pending. */
  async flush(): Promise<void> {
    this.clearTimer();
    while (this.inFlight || this.pending !== undefined) {
      if (this.inFlight) await this.inFlight;
      else this.sendPending();
    }
  }

  /** Sends the pending state now if it is due, else when it will be (a send in flight: after it). */
  private schedule(): void {
    if (this.inFlight || this.pending === undefined) return;
    const due = this.last + this.intervalMs - this.timers.now();
    if (this.urgent || due <= 0) this.sendPending();
    else if (this.timer === undefined)
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, due);
  }

  private sendPending(): void {
    this.clearTimer();
    const value = this.pending as T;
    this.pending = undefined;
    this.urgent = false;
    this.last = this.timers.now();
    this.sent++;
    this.inFlight = this.send(value).finally(() => {
      this.inFlight = undefined;
      this.schedule();
    });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
