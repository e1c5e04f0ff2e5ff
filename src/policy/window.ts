// The maintenance window: the days and local hours (in an IANA time zone) in which apply may
// start replacing a node. A window whose end is not after its start runs past midnight and
// belongs to the day it starts on. Local time is computed with Intl, so daylight-saving
// changes are the time zone database's business, not ours.

export const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
export type Day = (typeof DAYS)[number];

export interface Window {
  days: Day[];
  start: string; // "HH:MM"
  end: string; // "HH:MM"
  timeZone: string;
}

export const CLOCK_PATTERN = "^([01][0-9]|2[0-3]):[0-5][0-9]$";

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

interface LocalTime {
  day: number; // 0 = Sunday
  minutes: number; // since local midnight
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function localTime(at: Date, timeZone: string): LocalTime {
  const parts = formatter(timeZone).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    day: DAYS.indexOf(get("weekday") as Day),
    minutes: Number(get("hour")) * 60 + Number(get("minute")),
  };
}

function clockMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Whether the window is open at an instant. */
export function isWindowOpen(window: Window, at: Date): boolean {
  const { day, minutes } = localTime(at, window.timeZone);
  const start = clockMinutes(window.start);
  const end = clockMinutes(window.end);
  const allowed = (d: number) => window.days.includes(DAYS[(d + 7) % 7] as Day);
  if (start < end) return allowed(day) && minutes >= start && minutes < end;
  // Past midnight: open from start today, or until end on the morning after an allowed day.
  return (allowed(day) && minutes >= start) || (allowed(day - 1) && minutes < end);
}

/**
 * The next whole minute at or after `from` when the window is open (or `from` itself when it
 * is open now); undefined when it does not open within 15 days (no days listed). Stepping a
 * minute at a time is simple and exact across daylight-saving changes; it costs at most
 * ~21,600 calls to Intl, once per wait.
 */
export function nextWindowOpening(window: Window, from: Date): Date | undefined {
  if (isWindowOpen(window, from)) return from;
  const minute = 60_000;
  const first = Math.ceil(from.getTime() / minute) * minute;
  for (let t = first; t <= first + 15 * 86_400_000; t += minute) {
    if (isWindowOpen(window, new Date(t))) return new Date(t);
  }
  return undefined;
}
