// The maintenance window as a plan reports it: open or closed at the plan's moment, when this
// opening ends or the next one starts, and how long one opening lasts — the facts a reader
// needs to tell whether a merge now would start anything and whether the estimate fits.
import { windowClock, type Window, type WindowClock } from "../policy/index.js";
import type { PlanWindow } from "./types.js";

const MINUTE = 60_000;
const DAY = 86_400_000;

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** One opening's length: start to end, past midnight when end is not after start. */
export function openingMs(window: Window): number {
  const span = minutesOf(window.end) - minutesOf(window.start);
  return (span > 0 ? span : span + 24 * 60) * MINUTE;
}

/** The first whole minute after `from` at which the window is closed (within a day). */
function closingAfter(clock: WindowClock, from: Date): Date | undefined {
  const first = Math.floor(from.getTime() / MINUTE) * MINUTE + MINUTE;
  for (let t = first; t <= first + DAY; t += MINUTE)
    if (!clock.isOpen(new Date(t))) return new Date(t);
  return undefined;
}

export function planWindow(window: Window, at: Date): PlanWindow {
  const clock = windowClock(window);
  const open = clock.isOpen(at);
  const base = {
    days: [...window.days],
    start: window.start,
    end: window.end,
    timeZone: window.timeZone,
    openAtPlan: open,
    openingMs: openingMs(window),
  };
  if (open) {
    const closes = closingAfter(clock, at);
    return { ...base, ...(closes && { closesAt: closes.toISOString() }) };
  }
  const next = clock.nextOpening(at);
  return { ...base, ...(next && { nextOpening: next.toISOString() }) };
}
