// Rollback: each group back to what it ran before a roll. What that was is recorded on the
// cluster when the roll begins (roll/before.ts), so a process on another machine can roll back
// after a crash; the rollback itself is an ordinary roll — the policy with each recorded group's
// target set to its `from` — planned and applied with the same budgets, drain rules and gates
// (minus a gate that failed), resumable and one at a time under the cluster's Lease.
// What each kind runs, and what its cloud refuses to go back to, is the kind's
// (kinds/*/rollback.ts).
import type { GroupBefore, Versions } from "../roll/before.js";
import type { Gates, Policy } from "../policy/index.js";
import type { GroupPlan, LiveGroup } from "../plan/index.js";
import { kindOf } from "../kinds/registry.js";

/**
 * The record to write before `plan` rolls: each group that replaces nodes, with what it runs
 * now and where the plan takes it. A group recorded already for the same target keeps its
 * record — a resumed roll must not record its own half-way state as the one to go back to.
 */
export function recordBefore(
  groups: readonly GroupPlan[],
  live: readonly LiveGroup[],
  current: Readonly<Record<string, GroupBefore>>,
  stamp: { runId: string; at: string },
): Record<string, GroupBefore> | undefined {
  const next: Record<string, GroupBefore> = { ...current };
  let changed = false;
  for (const g of groups) {
    const l = live.find((x) => x.name === g.name);
    if (!l || g.kind === "missing" || g.replacements.length === 0 || !g.target) continue;
    const to: Versions = {
      ...(g.target.kubernetesVersion && { kubernetesVersion: g.target.kubernetesVersion }),
      ...(g.target.releaseVersion && { releaseVersion: g.target.releaseVersion }),
      ...(g.target.launchTemplateVersion !== undefined && {
        launchTemplateVersion: g.target.launchTemplateVersion,
      }),
    };
    const had = current[g.name];
    if (had && sameVersions(had.to, to)) continue;
    const from = kindOf(l).versions(l, new Set(g.replacements.map((r) => r.instance)));
    if (!from) continue;
    next[g.name] = { kind: l.kind, from, to, ...stamp };
    changed = true;
  }
  return changed ? next : undefined;
}

const sameVersions = (a: Versions, b: Versions) =>
  a.kubernetesVersion === b.kubernetesVersion &&
  a.releaseVersion === b.releaseVersion &&
  a.launchTemplateVersion === b.launchTemplateVersion;

/** A group the rollback cannot take back, and why. */
export interface RollbackRefusal {
  group: string;
  why: string;
}

/** Why taking `b`'s group back would be refused (its kind knows), if it would. */
export function refusal(b: GroupBefore, now?: Versions): string | undefined {
  return kindOf(b.kind).rollbackRefusal(b.from, now ?? b.to);
}

/** The gates without the one that failed (`without` as a verdict names it: "alarm/x"). */
function gatesWithout(gates: Gates | undefined, without?: string): Gates | undefined {
  if (!gates || !without) return gates;
  const [kind, name] = without.split("/");
  return {
    ...gates,
    ...(kind === "alarm" && { alarms: (gates.alarms ?? []).filter((a) => a !== name) }),
    ...(kind === "prometheus" && {
      prometheus: (gates.prometheus ?? []).filter((p) => p.name !== name),
    }),
    // The built-in gate is not dropped: a rollback's own replacements must turn Ready too.
  };
}

/**
 * The policy that rolls the recorded groups back (those of `only`, when given): each one's
 * target is what it ran before, its other settings as the policy has them, the gate that
 * failed left out. Groups not recorded are left out: they were not changed by a roll.
 */
export function rollbackPolicy(
  policy: Policy,
  record: Readonly<Record<string, GroupBefore>>,
  o: {
    only?: readonly string[];
    withoutGate?: string;
    /** What each group runs now, when read; else the record's `to`. */
    now?: Record<string, Versions>;
  } = {},
): { policy: Policy; refused: RollbackRefusal[] } {
  const refused: RollbackRefusal[] = [];
  const groups = policy.groups.flatMap((g) => {
    const b = record[g.name];
    if (!b || (o.only && !o.only.includes(g.name))) return [];
    const why = refusal(b, o.now?.[g.name]);
    if (why) {
      refused.push({ group: g.name, why });
      return [];
    }
    const { from } = b;
    const target = {
      ...(from.kubernetesVersion && { kubernetesVersion: from.kubernetesVersion }),
      ...(from.releaseVersion && { releaseVersion: from.releaseVersion }),
      ...(from.launchTemplateVersion !== undefined && {
        launchTemplateVersion: from.launchTemplateVersion,
      }),
    };
    const own = g.rollingUpdate?.gates;
    const rollingUpdate = {
      ...g.rollingUpdate,
      ...(own && { gates: gatesWithout(own, o.withoutGate) }),
    };
    return [{ ...g, target, rollingUpdate }];
  });
  const defaults = policy.defaults && {
    ...policy.defaults,
    ...(policy.defaults.gates && { gates: gatesWithout(policy.defaults.gates, o.withoutGate) }),
  };
  return {
    policy: { ...policy, ...(defaults && { defaults }), groups },
    refused,
  };
}
