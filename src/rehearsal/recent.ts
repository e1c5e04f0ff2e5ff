// Which observations a rehearsal trusts: recent ones. Shared by the live read (live.ts reads the
// launch times of recent nodes only) and the timings taken from them (timings.ts).
import type { Node } from "../ports/index.js";

/** Observations older than this say more about the past than about the next roll. */
export const RECENT_MS = 7 * 86_400_000;

/** A node registered within RECENT_MS of `now`: one whose boot says something about the next roll. */
export function isRecentNode(n: Node, now: number): boolean {
  const created = Date.parse(n.metadata.creationTimestamp ?? "");
  return Number.isFinite(created) && now - created <= RECENT_MS;
}
