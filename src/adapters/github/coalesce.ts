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
 * One send in flight at a time. Behind it, every urgent state in order (a phase that began or
 * ended: each is shown, and a roll has a few per group) and the latest of the others, replaced
 * by each newer one: a send held up by a rate limit (a minute or more, src/adapters/github/
 * client.ts) must not queue a send per offer, each a stale state asking GitHub again while it
 * is limiting.
 */
export class Coalescer<T> {
  private last = -Infinity;
  private readonly urgent: T[] = [];
  private pending?: T;
  private timer?: unknown;
  private inFlight?: Promise<void>;
  sent = 0;

  constructor(
    private readonly send: (value: T) => Promise<void>,
    private readonly intervalMs: number,
    private readonly timers: Timers = realTimers,
  ) {}

  /**
   * Offer the latest state; an `urgent` one is sent as soon as no send is in flight. The promise
   * is the send in flight's, which need not carry this state (flush waits for that).
   */
  offer(value: T, urgent = false): Promise<void> {
    if (urgent) {
      this.urgent.push(value);
      this.pending = undefined;
    } else this.pending = value;
    this.schedule();
    return this.inFlight ?? Promise.resolve();
  }

  /** Send whatever is waiting, and return once nothing is in flight or waiting. */
  async flush(): Promise<void> {
    this.clearTimer();
    while (this.inFlight || this.urgent.length > 0 || this.pending !== undefined) {
      if (this.inFlight) await this.inFlight;
      else this.sendNext(this.urgent.shift() ?? (this.pending as T));
    }
  }

  /** Sends what is due now, or sets a timer for when it will be (a send in flight: after it). */
  private schedule(): void {
    if (this.inFlight) return;
    if (this.urgent.length > 0) return this.sendNext(this.urgent.shift() as T);
    if (this.pending === undefined) return;
    const due = this.last + this.intervalMs - this.timers.now();
    if (due <= 0) this.sendNext(this.pending);
    else if (this.timer === undefined)
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        this.schedule();
      }, due);
  }

  private sendNext(value: T): void {
    this.clearTimer();
    if (value === this.pending) this.pending = undefined;
    this.last = this.timers.now();
    this.sent++;
    // Started from a microtask, as the roll's event that offered the state has been handled
    // (the sender reads what the event set). A send that fails is the sender's to report
    // (GitHubOut's writes never throw): a rejection here would end the process (unhandled) or
    // replace the roll's result (in flush).
    this.inFlight = Promise.resolve()
      .then(() => this.send(value))
      .catch(() => {})
      .finally(() => {
        this.inFlight = undefined;
        // The interval counts from a send's end: one held up by a limit is not followed at once.
        this.last = this.timers.now();
        this.schedule();
      });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
