// Go-style durations ("90s", "15m", "1h30m", "250ms") plus days ("30d"), as kOps and
// kubectl write them. Values are milliseconds.

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g;

export const DURATION_PATTERN = "^(0|(\\d+(\\.\\d+)?(ms|s|m|h|d))+)$";

/** Milliseconds for a duration string, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  if (text === "0") return 0;
  if (!DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) {
    total += Number(amount) * (UNIT_MS[unit as string] as number);
  }
  return Math.round(total);
}

/** The shortest readable form: 5400000 → "1h30m", 90000 → "1m30s". */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const parts: string[] = [];
  let rest = ms;
  for (const unit of ["d", "h", "m", "s"] as const) {
    const size = UNIT_MS[unit] as number;
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  if (rest > 0) parts.push(`${rest}ms`);
  return parts.join("");
}
