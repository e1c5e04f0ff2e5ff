// The pace of a roll, each rule in one place: disruption budgets (maxUnavailable, maxSurge) as an
// integer or a percentage of the group, their rounding and defaults, the other settings' kOps
// defaults, the validation period, and the window of nodes in flight. The rules follow kOps'
// rolling update (https://kops.sigs.k8s.io/operations/rolling-update/ and kOps' source,
// pkg/instancegroups/rollingupdate.go): maxUnavailable rounds down, maxSurge rounds up.

export type Budget = number | `${number}%`;

export const PERCENT_PATTERN = "^(100|[1-9]?[0-9])%$";
const PERCENT = new RegExp(PERCENT_PATTERN);

/** kOps' defaults for the settings a policy may leave out (self-managed groups). */
export const KOPS_DEFAULTS = {
  maxSurge: 1,
  deleteAfterDrainTimeout: false,
  /** kOps drains with kubectl's Force (pkg/instancegroups, drainNode: drain.Helper{Force: true}). */
  unmanagedPods: "evict",
  postDrainDelay: "5s",
  drainTimeout: "15m",
  interval: "15s",
  validation: { timeout: "15m", count: 2 },
  drainAndTerminate: true,
  spreadAcrossZones: true,
} as const;

/** Validation is retried this often until `count` successes in a row (kOps: 10 s). */
export const VALIDATION_PERIOD_MS = 10_000;

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

/** maxSurge before the cap: a percentage of the group size, rounded up. */
export function surgeOf(value: Budget, groupSize: number): number {
  return isPercent(value) ? Math.ceil((percentOf(value) * groupSize) / 100) : value;
}

/**
 * maxSurge as a node count: percentages of the group size round up; never more than the
 * nodes that need update (surging past them would only launch nodes to throw away).
 */
export function resolveSurge(value: Budget, groupSize: number, needUpdate: number): number {
  return Math.max(0, Math.min(surgeOf(value, groupSize), needUpdate));
}

/** A percentage of the group, rounded down (before the at-least-one rule). */
export function roundedDown(value: `${number}%`, groupSize: number): number {
  return Math.floor((percentOf(value) * groupSize) / 100);
}

/**
 * maxUnavailable as a node count: percentages round down, and resolve to at least 1 whatever
 * the surge — kOps' pkg/instancegroups/settings.go ("While we round down, percentages should
 * resolve to a minimum of 1"), "0%" included. An integer is taken as written.
 */
export function resolveUnavailable(value: Budget, groupSize: number): number {
  if (!isPercent(value)) return value;
  return Math.max(1, roundedDown(value, groupSize));
}

/** Whether a maxSurge value can only ever resolve to zero. */
export function surgesNever(value: Budget): boolean {
  return value === 0 || value === "0%";
}

/** kOps' maxUnavailable default: 1 when maxSurge is 0, else 0. */
export function defaultUnavailable(surgeIsZero: boolean): number {
  return surgeIsZero ? 1 : 0;
}

/** The nodes a sliding window keeps in flight: maxSurge + maxUnavailable, at least one. */
export function rollWindow(budgets: { maxSurge: number; maxUnavailable: number }): number {
  return Math.max(1, budgets.maxSurge + budgets.maxUnavailable);
}

/** How a budget's number was derived, for the plan: "25% of 10 nodes, rounded down = 2". */
export function describeBudget(
  value: Budget,
  size: number,
  rounding: "down" | "up",
  result: number,
): string {
  if (!isPercent(value)) return `${value}`;
  return `${value} of ${size} node${size === 1 ? "" : "s"}, rounded ${rounding} = ${result}`;
}
