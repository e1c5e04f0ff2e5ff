// Times as a reader reads them: wall-clock times in a named IANA time zone (the maintenance
// window's, or UTC), rounded durations, and "≈ N windows / runs" for long rolls. Pure; local
// time comes from Intl, so daylight-saving rules are the time zone database's business.
import { formatDuration } from "../policy/index.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Wall-clock times in one zone, from one Intl formatter (making one costs about ten times
 * formatting with it): a chart makes one for its bars; a single time makes its own.
 */
export class ZoneTime {
  private readonly format: Intl.DateTimeFormat;

  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "short",
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
  }

  private parts(at: Date | string | number): Record<string, string> {
    const out: Record<string, string> = {};
    for (const p of this.format.formatToParts(new Date(at))) out[p.type] = p.value;
    return out;
  }

  /** "Mon 5 Jan 2026 09:00 UTC". */
  readable(at: Date | string | number): string {
    const p = this.parts(at);
    return `${p.weekday} ${p.day} ${p.month} ${p.year} ${p.hour}:${p.minute} ${this.timeZone}`;
  }

  /** "Mon 5 Jan 09:00". */
  short(at: Date | string | number): string {
    const p = this.parts(at);
    return `${p.weekday} ${p.day} ${p.month} ${p.hour}:${p.minute}`;
  }

  /** "2026-01-05 09:02:30", as Mermaid's dateFormat reads it. */
  stamp(at: Date | number): string {
    const p = this.parts(at);
    const month = String(MONTHS.indexOf(p.month ?? "") + 1).padStart(2, "0");
    return `${p.year}-${month}-${(p.day ?? "").padStart(2, "0")} ${p.hour}:${p.minute}:${p.second}`;
  }
}

/** "Mon 5 Jan 2026 09:00 UTC": a timestamp for a person, in a named zone. */
export function readableTime(at: Date | string | number, timeZone = "UTC"): string {
  return new ZoneTime(timeZone).readable(at);
}

/** "Mon 09:00": a time within the next days, in a zone the caller names nearby. */
export function shortTime(at: Date | string | number, timeZone = "UTC"): string {
  return new ZoneTime(timeZone).short(at);
}

/** "~38h", "~12m30s": rounded to what a reader can use (minutes above an hour). */
export function roughly(ms: number): string {
  if (ms <= 0) return "-";
  const unit = ms >= 3_600_000 ? 60_000 : 1000;
  return `~${formatDuration(Math.max(unit, Math.round(ms / unit) * unit))}`;
}

/** How many spans of `each` it takes to cover `total`: "≈ 7 runs of 5h30m". */
export function spansOf(total: number, each: number): number {
  return each > 0 ? Math.max(1, Math.ceil(total / each)) : 1;
}
