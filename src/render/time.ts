// Times as a reader reads them: wall-clock times in a named IANA time zone (the maintenance
// window's, or UTC), rounded durations, and "≈ N windows / runs" for long rolls. Pure; local
// time comes from Intl, so daylight-saving rules are the time zone database's business.
import { formatDuration } from "../policy/index.js";

const formatters = new Map<string, Intl.DateTimeFormat>();

function parts(at: Date, timeZone: string): Record<string, string> {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
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
    formatters.set(timeZone, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(at)) out[p.type] = p.value;
  return out;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Mon 5 Jan 2026 09:00 UTC": a timestamp for a person, in a named zone. */
export function readableTime(at: Date | string | number, timeZone = "UTC"): string {
  const p = parts(new Date(at), timeZone);
  return `${p.weekday} ${p.day} ${p.month} ${p.year} ${p.hour}:${p.minute} ${timeZone}`;
}

/** "Mon 09:00": a time within the next days, in a zone the caller names nearby. */
export function shortTime(at: Date | string | number, timeZone = "UTC"): string {
  const p = parts(new Date(at), timeZone);
  return `${p.weekday} ${p.day} ${p.month} ${p.hour}:${p.minute}`;
}

/** "2026-01-05 09:02:30": local wall-clock time in a zone, as Mermaid's dateFormat reads it. */
export function localStamp(at: Date | number, timeZone: string): string {
  const p = parts(new Date(at), timeZone);
  const month = String(MONTHS.indexOf(p.month ?? "") + 1).padStart(2, "0");
  return `${p.year}-${month}-${(p.day ?? "").padStart(2, "0")} ${p.hour}:${p.minute}:${p.second}`;
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
