// A watch stream: events pushed by the sandbox as they happen, pulled by an async iterator.
// Pushing wakes the consumer through the virtual clock (notify), so a watcher resumes at the
// virtual instant the change happened, not later.
import type { WatchEvent } from "../../ports/cluster.js";
import type { VirtualClock } from "../model/clock.js";

export class WatchStream<T> implements AsyncIterable<WatchEvent<T>> {
  #queue: WatchEvent<T>[] = [];
  #waiting: ((r: IteratorResult<WatchEvent<T>>) => void) | undefined;
  #closed = false;

  constructor(
    private readonly clock: VirtualClock,
    private readonly onClose: () => void,
    signal?: AbortSignal,
  ) {
    signal?.addEventListener("abort", () => this.close(), { once: true });
  }

  push(event: WatchEvent<T>): void {
    if (this.#closed) return;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      this.clock.notify();
      waiting({ value: event, done: false });
    } else this.#queue.push(event);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onClose();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) {
      this.clock.notify();
      waiting({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return {
      next: () => {
        const event = this.#queue.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.#closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.#waiting = resolve));
      },
      return: () => {
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
