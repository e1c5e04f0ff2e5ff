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

function clockMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/**
 * The window read against a clock: whether it is open at an instant, and when it next opens.
 * Its Intl formatter is made once (about 0.1 ms; a read with it, about 0.01 ms): whoever asks
 * often — a run at every start, a search minute by minute — keeps one.
 */
export interface WindowClock {
  isOpen(at: Date): boolean;
  /**
   * The next whole minute at or after `from` when the window is open (or `from` itself when it
   * is open now); undefined when it does not open within 15 days (no days listed). Stepping a
   * minute at a time is simple and exact across daylight-saving changes; it costs at most
   * ~21,600 reads, once per wait.
   */
  nextOpening(from: Date): Date | undefined;
}

export function windowClock(window: Window): WindowClock {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone: window.timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const localTime = (at: Date): LocalTime => {
    const parts = format.formatToParts(at);
    const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
    return {
      day: DAYS.indexOf(get("weekday") as Day),
      minutes: Number(get("hour")) * 60 + Number(get("minute")),
    };
  };
  const start = clockMinutes(window.start);
  const end = clockMinutes(window.end);
  const allowed = (d: number) => window.days.includes(DAYS[(d + 7) % 7] as Day);
  const isOpen = (at: Date) => {
    const { day, minutes } = localTime(at);
    if (start < end) return allowed(day) && minutes >= start && minutes < end;
    // Past midnight: open from start today, or until end on the morning after an allowed day.
    return (allowed(day) && minutes >= start) || (allowed(day - 1) && minutes < end);
  };
  return {
    isOpen,
    nextOpening(from) {
      if (isOpen(from)) return from;
      const minute = 60_000;
      const first = Math.ceil(from.getTime() / minute) * minute;
      for (let t = first; t <= first + 15 * 86_400_000; t += minute) {
        if (isOpen(new Date(t))) return new Date(t);
      }
      return undefined;
    },
  };
}

/** Whether the window is open at an instant (asking often: keep a windowClock). */
export function isWindowOpen(window: Window, at: Date): boolean {
  return windowClock(window).isOpen(at);
}

/** The window's next opening at or after `from` (WindowClock.nextOpening). */
export function nextWindowOpening(window: Window, from: Date): Date | undefined {
  return windowClock(window).nextOpening(from);
}

/**
 * "Tue 13 Jan 15:00 Europe/Berlin": a moment as the window's own clock shows it, the zone named —
 * what a person planning around the window reads (UTC beside it is for logs).
 */
export function wallClock(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
  return `${p.weekday} ${p.day} ${p.month} ${p.hour}:${p.minute} ${timeZone}`;
}
