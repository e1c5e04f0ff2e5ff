// A roll's progress as people follow it — the check run, the pull request's comment — folded
// from its events, and when an update of it goes out: at once when a phase or a group begins or
// ends (each is shown, and a roll has a few per group), otherwise whenever the sender next may
// (the action coalesces them, src/adapters/github/coalesce.ts). The command line's preview of
// the check runs (`apply --out`) and the action's live updates are decided here, once.
import { applyEvent, type Progress } from "../render/index.js";
import type { RollEvent } from "../ports/index.js";

const AT_ONCE: ReadonlySet<RollEvent["type"]> = new Set([
  "phase.start",
  "phase.end",
  "group.start",
  "group.end",
]);

/** Whether the update an event makes goes out at once. */
export function sendsAtOnce(e: RollEvent): boolean {
  return AT_ONCE.has(e.type);
}

/**
 * Folds events into `progress` and offers each state to `send` (a copy: the sender may hold it
 * while the roll goes on). The roll's end is not offered: the caller finishes with the outcome.
 */
export class ProgressFeed {
  constructor(
    readonly progress: Progress,
    private readonly send: (state: Progress, atOnce: boolean) => void,
  ) {}

  readonly event = (e: RollEvent): void => {
    applyEvent(this.progress, e);
    if (e.type !== "roll.end") this.send(structuredClone(this.progress), sendsAtOnce(e));
  };
}
