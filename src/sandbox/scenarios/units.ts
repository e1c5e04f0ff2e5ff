// Units scenario files share: durations as seconds, shares of calls.
import { z } from "zod";
import { parseDuration } from "../../policy/duration.js";

/** Seconds, from a number of seconds or a Go-style duration ("90s", "15m", "1h30m"). */
export const seconds = z.union([z.number().nonnegative(), z.string()]).transform((v, ctx) => {
  if (typeof v === "number") return v;
  const ms = parseDuration(v);
  if (ms === undefined) {
    ctx.addIssue({ code: "custom", message: `"${v}" is not a duration (write 90s, 15m, 1h30m)` });
    return z.NEVER;
  }
  return ms / 1000;
});
/** A share of calls, 0 to 1. */
export const share = z.number().min(0).max(1).default(0);
