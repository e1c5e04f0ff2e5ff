// Disruption budgets (maxUnavailable, maxSurge): an integer or a percentage of the group.
// Rounding follows kOps (reference 004): maxUnavailable rounds down, maxSurge rounds up.

export type Budget = number | `${number}%`;

export const PERCENT_PATTERN = "^(100|[1-9]?[0-9])%$";
const PERCENT = new RegExp(PERCENT_PATTERN);

export function isPercent(value: Budget): value is `${number}%` {
  return typeof value === "string";
}

export function percentOf(value: `${number}%`): number {
  return Number(value.slice(0, -1));
}

/** Why a budget value is wrong, or undefined when it is a valid one. */
export function budgetProblem(value: unknown): string | undefined {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return "a whole number of nodes";
    if (value < 0) return 'an integer >= 0 or a percentage such as "25%"';
    return undefined;
  }
  if (typeof value === "string") {
    if (PERCENT.test(value)) return undefined;
    if (/^\d+\s+%$/.test(value)) return 'a percentage written without a space, such as "25%"';
    const m = /^(-?\d+(?:\.\d+)?)\s*%$/.exec(value);
    if (m) return "a whole percentage from 0% to 100%";
    if (/^\d+$/.test(value)) return "a number, not a string (write it without quotes)";
    return 'an integer >= 0 or a percentage such as "25%"';
  }
  return 'an integer >= 0 or a percentage such as "25%"';
}

/**
 * maxSurge as a node count: percentages of the group size round up; never more than the
 * nodes that need update (surging past them would only launch nodes to throw away).
 */
export function resolveSurge(value: Budget, groupSize: number, needUpdate: number): number {
  const raw = isPercent(value) ? Math.ceil((percentOf(value) * groupSize) / 100) : value;
  return Math.max(0, Math.min(raw, needUpdate));
}

/**
 * maxUnavailable as a node count: percentages round down, but a percentage never rounds to
 * zero when there is no surge, or the roll could never make progress.
 */
export function resolveUnavailable(value: Budget, groupSize: number, surge: number): number {
  if (!isPercent(value)) return value;
  const down = Math.floor((percentOf(value) * groupSize) / 100);
  return surge === 0 ? Math.max(1, down) : down;
}
