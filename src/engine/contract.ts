// What apply checks of the plan it carries out (plan/decisions.ts says what a decision is):
// that it covers the policy's groups, that each group's decisions still hold against fresh state
// just before the group rolls, and that the group may be rolled at all.
import { orderGroups, type Policy } from "../policy/index.js";
import {
  staleDecisions,
  type FindingCode,
  type GroupPlan,
  type LiveGroup,
  type Plan,
  type Stale,
} from "../plan/index.js";
import type { ReadyPlan } from "../kinds/kind.js";
import { RollError, StalePlan } from "../roll/context.js";

/**
 * The groups the plan carries out, in its order — checked against the policy first: a group the
 * policy names that the plan does not (and the plan's options do not leave out), or one the plan
 * names that the policy no longer does, is a decision that no longer holds.
 */
export function checkCovers(policy: Policy, plan: Plan): void {
  const order = plan.groups.map((g) => g.name);
  const wanted = plan.options.groups ? new Set(plan.options.groups) : undefined;
  const named = orderGroups(
    policy.groups.map((g) => ({ ...g, role: g.role ?? ("node" as const) })),
    policy.order,
  )
    .map((g) => g.name)
    .filter((n) => !wanted || wanted.has(n));
  const stale: Stale[] = [
    ...(plan.cluster.name !== policy.cluster.name
      ? [
          {
            decision: "group" as const,
            detail: `the plan is cluster ${plan.cluster.name}'s, the policy ${policy.cluster.name}'s`,
          },
        ]
      : []),
    ...named
      .filter((n) => !order.includes(n))
      .map((n) => ({
        decision: "group" as const,
        detail: `${n} is in the policy, not in the plan`,
      })),
    ...order
      .filter((n) => !named.includes(n))
      .map((n) => ({
        decision: "group" as const,
        detail: `${n} is in the plan, not in the policy`,
      })),
  ];
  if (named.join() !== order.join() && stale.length === 0)
    stale.push({
      decision: "group",
      detail: `the plan's order ${order.join(", ")} is not the policy's ${named.join(", ")}`,
    });
  if (stale.length > 0) throw new StalePlan(undefined, stale);
}

/**
 * The group as the plan decided it, against the same group planned from fresh state: refused
 * (StalePlan) where a decision no longer holds; otherwise the fresh group — its nodes as they are
 * now, the roll's own progress included — with the replacements in the plan's order, and any the
 * plan did not know (nodes joined since) after them.
 */
export function carriedOut(plan: Plan, fresh: GroupPlan): GroupPlan {
  const planned = plan.groups.find((g) => g.name === fresh.name) as GroupPlan;
  const stale = staleDecisions(planned, fresh);
  if (stale.length > 0) throw new StalePlan(fresh.name, stale);
  const now = new Map(fresh.replacements.map((r) => [r.instance, r]));
  const inPlan = planned.replacements.flatMap((r) => now.get(r.instance) ?? []);
  const known = new Set(planned.replacements.map((r) => r.instance));
  const joined = fresh.replacements.filter((r) => !known.has(r.instance));
  return { ...fresh, replacements: [...inPlan, ...joined] };
}

/** Blockers whose roll would fail in a drain (the drain's and EKS's PodEvictionFailure). */
const EVICTION_BLOCKERS: ReadonlySet<FindingCode> = new Set<FindingCode>([
  "pdb-blocks",
  "multiple-pdbs",
  "tolerates-everything",
  "stuck-terminating",
  "unmanaged-pods",
  "grace-exceeds-drain-timeout",
]);

/** A group apply may roll: planned complete, not in error, not blocked. */
export function readyPlan(plan: GroupPlan, live: LiveGroup | undefined): ReadyPlan {
  if (!live || !plan.settings || !plan.target || plan.status === "error")
    throw new RollError("UpdateFailed", plan.errors.join("; ") || `group ${plan.name} not found`);
  if (plan.status === "blocked") {
    const blockers = plan.findings.filter((f) => f.severity === "blocker").map((f) => f.message);
    const evictions = plan.findings.some(
      (f) => f.severity === "blocker" && EVICTION_BLOCKERS.has(f.code),
    );
    throw new RollError(
      evictions ? "PodEvictionFailure" : "UpdateFailed",
      `not started, it would fail: ${blockers.join("; ")}`,
    );
  }
  return plan as ReadyPlan;
}
