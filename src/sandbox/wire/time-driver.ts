// What moves virtual time while the sandbox is served: at `speed` × real time, and by jumps to
// the next timer whenever no request but watches is in flight (every client is idle, or
// waiting for something to happen). Jumps fire one timer batch per event-loop turn, letting
// requests in between; a client's request stops the jumping until it is answered.
import type { VirtualClock } from "../model/clock.js";

/** Moves virtual time: at `speed`, and by jumps while every client is idle or watching. */
export class TimeDriver {
  #inFlight = 0;
  #lastActivity = performance.now();
  #lastActivityVirtual: number;
  #stopped = false;
  #last = performance.now();
  #timeout: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;

  constructor(
    private readonly clock: VirtualClock,
    private readonly speed: number,
    private readonly instant: boolean,
    private readonly quietMs: number,
    private readonly horizonMs: number,
  ) {
    this.#lastActivityVirtual = clock.nowMs();
  }

  /** A request other than a watch started (+1) or ended (-1). */
  track(delta: 1 | -1): void {
    this.#inFlight += delta;
    this.#lastActivity = performance.now();
    this.#lastActivityVirtual = this.clock.nowMs();
  }

  start(): void {
    this.#schedule(false);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timeout);
    if (this.#immediate) clearImmediate(this.#immediate);
  }

  #schedule(soon: boolean, ms = 10): void {
    if (this.#stopped) return;
    if (soon) this.#immediate = setImmediate(() => void this.#tick());
    else this.#timeout = setTimeout(() => void this.#tick(), ms);
  }

  async #tick(): Promise<void> {
    const clock = this.clock;
    const now = performance.now();
    const elapsed = now - this.#last;
    this.#last = now;
    const next = clock.nextAt();
    const idle = this.#inFlight === 0;
    const near = next !== undefined && next - this.#lastActivityVirtual <= this.horizonMs;
    if (this.instant && idle && next !== undefined && near) {
      if (now - this.#lastActivity < this.quietMs) return this.#schedule(false, 1);
      await clock.advanceTo(Math.max(next, clock.nowMs()));
      return this.#schedule(true);
    }
    if (this.speed > 0) await clock.advance(elapsed * this.speed);
    this.#schedule(false);
  }
}
