// What moves virtual time while the sandbox is served: at `speed` × real time, and by jumps to
// the next timer whenever no request but watches is in flight (every client is idle, or
// waiting for something to happen). Jumps fire one timer batch per event-loop turn, letting
// requests in between; a client's request stops the jumping until it is answered (a call a
// client in this process holds: until the client has the answer, see `hold`).
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

  /**
   * A call made by a client in this same process, in flight from the moment it is made until
   * the client has its answer. The server counts a request only from its arrival to its
   * response's end, and each leg through the TLS front takes a few event-loop turns (more on a
   * new connection): on a loaded machine longer than the quiet period, and a jump then fires the
   * client's own timers early when its clock is the world's (a lock renewal's deadline, with
   * the renewal on its way). No jump happens while a call is held (at speed 0 time stands
   * still), so the call must not wait on the world's clock itself (a retry's backoff).
   */
  hold<T>(call: PromiseLike<T>): Promise<T> {
    this.track(1);
    return Promise.resolve(call).finally(() => this.track(-1));
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
