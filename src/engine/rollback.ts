// Rollback: each group back to what it ran before a roll. What that was is recorded on the
// cluster when the roll begins (roll/before.ts), so a process on another machine can roll back
// after a crash; the rollback itself is an ordinary roll — the policy with each recorded group's
// target set to its `from` — planned and applied with the same budgets, drain rules and gates
// (minus a gate that failed), resumable and one at a time under the cluster's Lease.
// What each kind runs, and what its cloud refuses to go back to, is the kind's
// (kinds/*/rollback.ts).
import { updateBefore, type GroupBefore, type Versions } from "../roll/before.js";
import type { RollContext } from "../roll/context.js";
import { describeFailure } from "../ports/index.js";
import { mergeGates, type Gates, type Policy } from "../policy/index.js";
import type { GroupPlan, LiveGroup } from "../plan/index.js";
import { kindOf } from "../kinds/registry.js";

/**
 * The record to write before `groups` roll: each group that replaces nodes, with what it runs
 * now and where the plan takes it. A record of a roll not yet done keeps its `from` — a resumed
 * roll, or one sent somewhere else after a halt (fixing forward), must not record a half-rolled
 * group as the state to go back to; only a done roll's record (or none) is written afresh.
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
    const to = targetOf(g) as Versions;
    const had = current[g.name];
    if (had && !had.done && sameVersions(had.to, to)) continue;
    const from = had && !had.done ? had.from : kindOf(l).versions(l, replacedOf(g));
    if (!from) continue;
    next[g.name] = { kind: l.kind, from, to, ...stamp };
    changed = true;
  }
  return changed ? next : undefined;
}

const replacedOf = (g: GroupPlan) => new Set(g.replacements.map((r) => r.instance));

/** The versions a group plan rolls to, in the record's terms. */
function targetOf(g: GroupPlan): Versions | undefined {
  if (!g.target) return undefined;
  return {
    ...(g.target.kubernetesVersion && { kubernetesVersion: g.target.kubernetesVersion }),
    ...(g.target.releaseVersion && { releaseVersion: g.target.releaseVersion }),
    ...(g.target.launchTemplateVersion !== undefined && {
      launchTemplateVersion: g.target.launchTemplateVersion,
    }),
  };
}

/** The record of `g` marked done by `stamp.runId`: a roll not yet done, to this plan's target. */
export function recordDone(
  current: Readonly<Record<string, GroupBefore>>,
  g: GroupPlan,
  stamp: { runId: string; at: string },
): Record<string, GroupBefore> | undefined {
  const had = current[g.name];
  const to = targetOf(g);
  if (!had || had.done || !to || !sameVersions(had.to, to)) return undefined;
  return { ...current, [g.name]: { ...had, done: stamp } };
}

/**
 * Before a group rolls, what it runs is recorded on the cluster (roll/before.ts), so that a
 * rollback — after a failed gate, or asked for later from anywhere — knows where to go back to;
 * once it is rolled, its record is marked done. A rollback's own run writes neither.
 */
export async function noteBefore(
  ctx: RollContext,
  cluster: string,
  runId: string,
  g: GroupPlan,
  l: LiveGroup,
): Promise<void> {
  const stamp = { runId, at: ctx.clock.now().toISOString() };
  await updateBefore(ctx.cluster, cluster, (c) => recordBefore([g], [l], c, stamp));
}

/** The group rolled: its record marked done. The roll is done either way; a mark that could
 * not be written is said — a later halt's rollback may then take this group back too. */
export async function noteDone(
  ctx: RollContext,
  cluster: string,
  runId: string,
  g: GroupPlan,
): Promise<void> {
  const stamp = { runId, at: ctx.clock.now().toISOString() };
  try {
    await updateBefore(ctx.cluster, cluster, (c) => recordDone(c, g, stamp));
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    ctx.emit({
      type: "note",
      group: g.name,
      message: `${g.name}: its rollback record could not be marked done (${describeFailure(e)}); a rollback after a later halt of this roll may take it back too`,
    });
  }
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

/**
 * A group's gates for its rollback: the merged ones (defaults < its own), without the one that
 * failed (`without` as a verdict names it: "alarm/NAME", the name itself may hold a "/"), halting
 * on a failure — a rollback is not rolled back.
 */
function rollbackGates(defaults: Gates | undefined, own: Gates | undefined, without?: string) {
  const gates: Gates = { ...mergeGates(defaults, own), onFailure: "halt" };
  if (!without) return gates;
  const cut = without.indexOf("/");
  const [kind, name] = [without.slice(0, cut), without.slice(cut + 1)];
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
    /**
     * A rollback that follows this run (a halt, an abort): only groups whose roll is not done,
     * or that this run finished — not one a roll long ago left on its target.
     */
    ofRun?: string;
    withoutGate?: string;
    /** What each group runs now, when read; else the record's `to`. */
    now?: Record<string, Versions>;
  } = {},
): { policy: Policy; refused: RollbackRefusal[] } {
  const refused: RollbackRefusal[] = [];
  const groups = policy.groups.flatMap((g) => {
    const b = record[g.name];
    if (!b || (o.only && !o.only.includes(g.name))) return [];
    if (o.ofRun !== undefined && b.done && b.done.runId !== o.ofRun) return [];
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
    const gates = rollbackGates(policy.defaults?.gates, g.rollingUpdate?.gates, o.withoutGate);
    return [{ ...g, target, rollingUpdate: { ...g.rollingUpdate, gates } }];
  });
  return { policy: { ...policy, groups }, refused };
}
