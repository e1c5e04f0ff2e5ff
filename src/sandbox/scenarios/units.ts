// Units scenario files share: durations as seconds, CPU and memory quantities, shares of calls.
import { z } from "zod";
import { parseDuration } from "../../policy/duration.js";
import { parseCpu, parseMemory } from "../model/quantities.js";

/**
 * A non-negative number, or a string `fromText` reads as one (undefined: it does not; `message`
 * says what to write), given as a number either way. Checked and converted by zod checks (a
 * refinement, then an overwrite), not by a transform: a scenario of 49,000 workloads has six of
 * these each, and zod's transform makes a closure and a property on its payload for every value
 * it converts. The same values pass and fail with the same messages; the static type is
 * declared here, since an overwrite keeps its input's.
 */
function quantity(
  fromNumber: (n: number) => number,
  fromText: (text: string) => number | undefined,
  message: (text: string) => string,
): z.ZodType<number, number | string> {
  const schema = z
    .union([
      z.number().nonnegative(),
      z.string().refine((text) => fromText(text) !== undefined, {
        error: (issue) => message(String(issue.input)),
      }),
    ])
    .overwrite((v) => (typeof v === "number" ? fromNumber(v) : (fromText(v) as number)));
  return schema as unknown as z.ZodType<number, number | string>;
}

const orUndefined = (n: number) => (Number.isNaN(n) ? undefined : n);

/** Seconds, from a number of seconds or a Go-style duration ("90s", "15m", "1h30m"). */
export const seconds = quantity(
  (n) => n,
  (text) => {
    const ms = parseDuration(text);
    return ms === undefined ? undefined : ms / 1000;
  },
  (text) => `"${text}" is not a duration (write 90s, 15m, 1h30m)`,
);
/** CPU in millicores, from cores (2, 1.5) or a quantity ("2", "500m"). */
export const cpu = quantity(
  parseCpu,
  (text) => orUndefined(parseCpu(text)),
  (text) => `"${text}" is not a CPU quantity (write 2, 1.5 or 500m)`,
);
/** Memory in bytes, from a number of bytes or a quantity ("512Mi", "8Gi"). */
export const memory = quantity(
  (n) => n,
  (text) => orUndefined(parseMemory(text)),
  (text) => `"${text}" is not a memory quantity (write 512Mi, 8Gi)`,
);
/** A share of calls, 0 to 1. */
export const share = z.number().min(0).max(1).default(0);
