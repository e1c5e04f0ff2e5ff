// The plan: for each group of the policy, in roll order, what apply would change and replace,
// with which settings and budgets, in what order, how long it should take and what would stop
// it. Pure: it reads a Snapshot and never changes anything. Each group's kind (src/kinds/) makes
// the kind's decisions; this file only puts them together, so the plan apply receives is the
// whole of what apply does.
import { closest } from "../policy/suggest.js";
import {
  orderGroups,
  type Group,
  type Policy,
  type Role,
  type RollSettings,
} from "../policy/index.js";
import {
  drainHolds,
  groupNotOfCluster,
  inWaveOrder,
  isDetached,
  liveInstances,
  marksLeft,
  NO_SCHEDULE,
  planWindow,
  preflight,
  summarize,
  type GroupPlan,
  type GroupStatus,
  type LiveGroup,
  type NodeInfo,
  type NodePods,
  type Plan,
  type PodInfo,
  type RunOptions,
  type Snapshot,
  unhealthyZones,
  type ZoneHealth,
} from "../plan/index.js";
import type { GroupKind, GroupSettings } from "../kinds/kind.js";
import { kindOf } from "../kinds/registry.js";

/** What a run asks beyond the policy (plan/types.ts RunOptions); absent is false. */
export type PlanOptions = Partial<RunOptions>;

/** The run's options, every one said. */
export const runOptions = (o: PlanOptions): RunOptions => ({
  replaceAll: o.replaceAll ?? false,
  deleteAfterDrainTimeout: o.deleteAfterDrainTimeout ?? false,
  ...(o.groups && { groups: o.groups }),
});

/**
 * Why a run's "force" (a CLI flag, an action input) is refused: it meant three things, each of
 * which has its own name now. `flag` writes a name as the caller's users write it.
 */
export const forceSplit = (flag: (name: string) => string): string =>
  `${flag("force")} meant three things and was split: ${flag("replace-all")} replaces every node of the groups whatever its version (kOps' --force); ${flag("delete-after-drain-timeout")} deletes what a drain leaves at its timeout, past PodDisruptionBudgets (EKS's force); pods with no controller are evicted as kOps drains them, unless the policy says unmanagedPods: refuse (kubectl drain's --force)`;

/** Whether a run forces anything (every node, or past the budgets): it then needs a reason. */
export const forced = (o: PlanOptions): boolean =>
  Boolean(o.replaceAll || o.deleteAfterDrainTimeout);

/** Settings resolved for a run, by kind and group: resolved once, then reused. */
export type SettingsMemo = Map<string, GroupSettings>;

interface PlanContext {
  policy: Policy;
  snapshot: Snapshot;
  options: PlanOptions;
  memo: SettingsMemo;
  nodesByInstance: Map<string, NodeInfo>;
  /** Zones with most of their nodes not Ready at once (zones.ts). */
  unhealthyZones: Map<string, ZoneHealth>;
}

/**
 * The pods on the nodes a group replaces, a list per node in the replacements' order, each made
 * once for the group's plan (its schedule and preflight read the same lists) and let go with it.
 */
function podsOnReplaced(replacements: GroupPlan["replacements"], pods: NodePods) {
  const out = new Map<string, PodInfo[]>();
  for (const r of replacements) if (r.node && !out.has(r.node)) out.set(r.node, pods.on(r.node));
  return out;
}

function context(
  policy: Policy,
  snapshot: Snapshot,
  options: PlanOptions,
  memo: SettingsMemo,
): PlanContext {
  const nodesByInstance = new Map<string, NodeInfo>();
  for (const n of snapshot.nodes) if (n.instanceId) nodesByInstance.set(n.instanceId, n);
  const unhealthy = unhealthyZones(snapshot.nodes);
  return { policy, snapshot, options, memo, nodesByInstance, unhealthyZones: unhealthy };
}

function settingsOf(ctx: PlanContext, kind: GroupKind, group: Group): GroupSettings {
  const key = `${kind.id}\u0000${group.name}`;
  let s = ctx.memo.get(key);
  if (!s) {
    s = kind.resolve(ctx.policy, group);
    ctx.memo.set(key, s);
  }
  return s;
}

function missingGroup(group: Group, role: Role, snapshot: Snapshot): GroupPlan {
  const names = snapshot.knownGroups ?? snapshot.groups.map((g) => g.name).sort();
  const guess = closest(group.name, names);
  const shown = names.slice(0, 20).join(", ") + (names.length > 20 ? ", …" : "");
  const hint =
    (guess ? `; did you mean "${guess}"?` : "") + (names.length > 0 ? ` It has: ${shown}` : "");
  return {
    name: group.name,
    kind: "missing",
    role,
    status: "error",
    nodes: 0,
    configChanges: [],
    replacements: [],
    cleanup: [],
    budgets: { maxUnavailable: 0, maxSurge: 0, derivation: { maxUnavailable: "", maxSurge: "" } },
    schedule: NO_SCHEDULE,
    findings: [],
    notes: [],
    errors: [
      `cluster ${snapshot.cluster.name} has no EKS managed node group or Auto Scaling group named "${group.name}"${hint}`,
    ],
  };
}

function statusOf(
  p: Pick<GroupPlan, "errors" | "replacements" | "findings" | "configChanges" | "cleanup">,
): GroupStatus {
  if (p.errors.length > 0) return "error";
  if (p.replacements.length > 0)
    return p.findings.some((f) => f.severity === "blocker") ? "blocked" : "roll";
  if (p.configChanges.length > 0) return "config-only";
  return p.cleanup.length > 0 ? "cleanup" : "no-change";
}

/** What keeps apply from the group at all: settings its kind cannot honour, a group not the
 * cluster's. */
function groupErrors(
  ctx: PlanContext,
  kind: GroupKind,
  settings: GroupSettings,
  live: LiveGroup,
): string[] {
  const errors = kind
    .conflicts(settings.written)
    .map((e) => `rollingUpdate.${e.key}: ${e.message}`);
  const { cluster, takenAt } = ctx.snapshot;
  const foreign = groupNotOfCluster(live, cluster.name, ctx.nodesByInstance, takenAt);
  return foreign ? [...errors, foreign] : errors;
}

/** A group's settings with what the run asks on top: EKS's force for every group. */
const withRun = (roll: RollSettings, run: RunOptions): RollSettings => ({
  ...roll,
  deleteAfterDrainTimeout: roll.deleteAfterDrainTimeout || run.deleteAfterDrainTimeout,
});

function planGroup(ctx: PlanContext, group: Group, role: Role, live: LiveGroup): GroupPlan {
  const { snapshot, options } = ctx;
  const kind = kindOf(live);
  const settings = settingsOf(ctx, kind, group);
  const run = runOptions(options);
  const roll = withRun(settings.roll, run);
  // The group as the policy sees it: its members. Instances an earlier run detached for surge
  // are replaced too, but they count against maxSurge, never as members: budgets taken from
  // members + detached would grow with every interrupted run.
  const members = liveInstances(live).filter((i) => !i.detachedForSurge).length;
  const target = kind.target(group, live, snapshot);
  const replacements = kind.select(live, target, {
    nodesByInstance: ctx.nodesByInstance,
    now: snapshot.takenAt,
    replaceAll: run.replaceAll,
    ...(roll.maxNodeAgeMs !== undefined && { maxNodeAgeMs: roll.maxNodeAgeMs }),
  });
  const size = Math.max(live.desired, members);
  const podsByNode = podsOnReplaced(replacements, snapshot.pods);
  const nodes = [...podsByNode.values()];
  const budgets = kind.budgets(settings, { size, needUpdate: replacements.length }, live);
  const schedule = kind.schedule(live, {
    replacements,
    upToDate: members - replacements.filter((r) => !isDetached(r)).length,
    zones: live.zones,
    settings: roll,
    budgets,
    podsByNode,
    now: snapshot.takenAt,
    pdbs: snapshot.pdbs,
    leavesUnreachable: kind.leavesUnreachable,
    ...(roll.deleteAfterDrainTimeout && { holds: drainHolds(nodes, snapshot) }),
  });
  const findings =
    replacements.length > 0
      ? preflight({
          group: live,
          nodes,
          snapshot,
          deleteAfterDrainTimeout: roll.deleteAfterDrainTimeout,
          unmanagedPods: roll.unmanagedPods,
          surge: schedule.surge,
          maxUnavailable: budgets.maxUnavailable,
          surgeAdvice: kind.surgeAdvice,
          groupFindings: kind.findings(live, schedule.surge, target, roll),
          drainTimeoutMs: roll.drainTimeoutMs,
          drainTimeoutAdvice: kind.drainTimeoutAdvice,
          leavesUnreachable: kind.leavesUnreachable,
          pacesNoNode: kind.pacesNoNode,
          replacements,
          unhealthyZones: ctx.unhealthyZones,
        })
      : [];
  const plan: GroupPlan = {
    name: group.name,
    kind: kind.id,
    role,
    status: "no-change",
    nodes: members,
    configChanges: kind.configChanges(group, live, target, settings),
    // In the order apply takes them: decided here, once (the schedule's waves).
    replacements: inWaveOrder(schedule, replacements),
    cleanup: marksLeft(
      live,
      snapshot.nodes,
      new Set(replacements.flatMap((r) => (r.node ? [r.node, r.instance] : [r.instance]))),
    ),
    budgets: { ...budgets, maxSurge: schedule.surge },
    schedule,
    findings,
    notes: [],
    errors: groupErrors(ctx, kind, settings, live),
    settings: roll,
    target,
    ...kind.setup(group, live, settings),
  };
  plan.status = statusOf(plan);
  plan.notes = [...settings.notes, ...kind.notes(plan, group, live, snapshot)];
  return plan;
}

export function buildPlan(
  policy: Policy,
  file: string,
  snapshot: Snapshot,
  options: PlanOptions = {},
  memo: SettingsMemo = new Map(),
): Plan {
  const wanted = options.groups ? new Set(options.groups) : undefined;
  const ctx = context(policy, snapshot, options, memo);
  const ordered = orderGroups(
    policy.groups.map((g) => ({ ...g, role: g.role ?? ("node" as Role) })),
    policy.order,
  );
  const groups = ordered
    .filter((g) => !wanted || wanted.has(g.name))
    .map((g) => {
      const live = snapshot.groups.find((l) => l.name === g.name);
      return live ? planGroup(ctx, g, g.role, live) : missingGroup(g, g.role, snapshot);
    });
  return {
    schemaVersion: 1,
    policy: { name: policy.metadata.name, file },
    cluster: snapshot.cluster,
    takenAt: snapshot.takenAt.toISOString(),
    options: runOptions(options),
    ...(policy.window && { window: planWindow(policy.window, snapshot.takenAt) }),
    summary: summarize(groups),
    groups,
  };
}
