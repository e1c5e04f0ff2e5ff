// Drained nodes of a self-managed group terminate in batches. kOps validates the cluster after
// a termination before the next node starts (https://kops.sigs.k8s.io/operations/rolling-update/),
// and validation fails while a registered node is not Ready (kOps' pkg/validation: "node ... is
// not ready"); every termination brings a replacement that registers NotReady for a while. With
// many nodes in flight whose drains end at scattered times (pods' grace periods, disruption
// budgets' turns), terminations trickle, some replacement is nearly always between registering
// and Ready, and the instants at which the cluster validates — the only ones at which the window
// may start nodes — come seldom: freed slots wait. So in the 70 s after a batch goes (window.ts:
// about when half its boots have registered; waiting for the slowest too keeps drained nodes
// from their replacements, on which the capacity budget waits), a drained node waits while
// replacements of the group are still booting unregistered, and the nodes held go together once
// every member has registered its node or the 70 s are up. A drained node with no batch in the
// last 70 s (the first of a roll too) goes at once. A node that has registered turns Ready soon
// after (its network plugin up), sooner than an instance launched now can start, boot and
// register, so the batch let go does not spoil the validation that comes when the boots before
// it are Ready, and its own replacements boot together, giving the next. Holding stops once the
// nodes held are as many as the boots in progress and half again (rounded down): such a batch
// goes at once (a small group, whose few drains end together, seldom waits), and drains ending
// within a validation period of a batch join it. The wait is bounded by a boot's estimate.
// Waiting drained is safe: the node
// stays cordoned, in flight and unavailable, as it was while draining; only its termination
// moves later.
import { BOOT_ESTIMATE_MS } from "../../plan/index.js";
import { VALIDATION_PERIOD_MS } from "../../policy/index.js";

interface Held {
  since: number;
  go: () => void;
}

export class TerminationBatch {
  #held: Held[] = [];
  #wake: () => void = () => undefined;
  #woken: Promise<void>;
  /** When a batch was let go last. */
  #released = -Infinity;

  constructor() {
    this.#woken = this.#next();
  }

  #next(): Promise<void> {
    return new Promise<void>((resolve) => (this.#wake = resolve));
  }

  /** How long since a batch was let go last. */
  sinceRelease(now: number): number {
    return now - this.#released;
  }

  get size(): number {
    return this.#held.length;
  }

  /** Resolves when a drained node starts waiting: the window then looks whether it may go. */
  added(): Promise<void> {
    return this.#woken;
  }

  /** A drained node waits for its turn to be terminated: until the window releases it, or at
   * once within a validation period of the last release — drains that end together (the
   * same pods' grace, no budget between them) go in one batch. */
  wait(now: number): Promise<void> {
    if (now - this.#released <= VALIDATION_PERIOD_MS) return Promise.resolve();
    return new Promise<void>((go) => {
      this.#held.push({ since: now, go });
      const wake = this.#wake;
      this.#woken = this.#next();
      wake();
    });
  }

  /** Let every held node go: the group's replacements have registered, or the window stops. */
  releaseAll(now: number): void {
    this.#released = now;
    this.#let(() => true);
  }

  /** Let go the nodes held a boot's estimate already: the wait is bounded whatever the group
   * does (a replacement that never turns Ready is the window's to report, not to wait on). */
  releaseOverdue(now: number): void {
    this.#let((h) => now - h.since >= BOOT_ESTIMATE_MS);
  }

  #let(which: (h: Held) => boolean): void {
    const go = this.#held.filter(which);
    this.#held = this.#held.filter((h) => !which(h));
    for (const h of go) h.go();
  }
}
