// The plan: for each group of the policy, in roll order, what apply would change and replace,
// with which budgets, in what order, how long it should take and what would stop it. Pure: it
// reads a Snapshot and never changes anything.
import { closest } from "../policy/suggest.js";
import { orderGroups, resolveGroup, type Group, type Policy, type Role } from "../policy/index.js";
import { preflight } from "./preflight.js";
import { schedule } from "./schedule.js";
import { configChanges, resolveTarget, selectReplacements } from "./select.js";
import type { LiveGroup, NodeInfo, PodInfo, Snapshot } from "./snapshot.js";
import type { GroupPlan, Plan, PlanSummary } from "./types.js";

export interface PlanOptions {
  /** Replace every node of the selected groups and go past PodDisruptionBudgets (dispatch/CLI). */
  force?: boolean;
  /** Only these groups (names). */
  groups?: string[];
}

interface Indexes {
  nodesByInstance: Map<string, NodeInfo>;
  podsByNode: Map<string, PodInfo[]>;
}

function index(snapshot: Snapshot): Indexes {
  const nodesByInstance = new Map<string, NodeInfo>();
  for (const n of snapshot.nodes) if (n.instanceId) nodesByInstance.set(n.instanceId, n);
  const podsByNode = new Map<string, PodInfo[]>();
  for (const p of snapshot.pods) {
    const list = podsByNode.get(p.nodeName);
    if (list) list.push(p);
    else podsByNode.set(p.nodeName, [p]);
  }
  return { nodesByInstance, podsByNode };
}

const emptyBudgets = {
  maxUnavailable: 0,
  maxSurge: 0,
  derivation: { maxUnavailable: "", maxSurge: "" },
};
const emptySchedule = { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };

function missingGroup(group: Group, role: Role, snapshot: Snapshot): GroupPlan {
  const guess = closest(
    group.name,
    snapshot.groups.map((g) => g.name),
  );
  const hint = guess ? `; did you mean "${guess}"?` : "";
  return {
    name: group.name,
    kind: "missing",
    role,
    status: "error",
    nodes: 0,
    configChanges: [],
    replacements: [],
    budgets: emptyBudgets,
    schedule: emptySchedule,
    findings: [],
    notes: [],
    errors: [
      `cluster ${snapshot.cluster.name} has no EKS managed node group or Auto Scaling group named "${group.name}"${hint}`,
    ],
  };
}

function liveCount(live: LiveGroup): number {
  return live.instances.filter((i) => !/^Terminat/.test(i.lifecycleState)).length;
}

function planGroup(
  policy: Policy,
  group: Group,
  live: LiveGroup,
  snapshot: Snapshot,
  ix: Indexes,
  options: PlanOptions,
): GroupPlan {
  const role: Role = group.role ?? "node";
  const size = Math.max(live.desired, liveCount(live));
  const first = resolveGroup(policy, group, { kind: live.kind, size, needUpdate: size });
  const target = resolveTarget(group, live, snapshot);
  const force = options.force ?? false;
  const replacements = selectReplacements(live, target, ix.nodesByInstance, snapshot.takenAt, {
    maxNodeAgeMs: first.settings.maxNodeAgeMs,
    force,
  });
  const resolution = resolveGroup(policy, group, {
    kind: live.kind,
    size,
    needUpdate: replacements.length,
  });
  const settings = { ...resolution.settings, force: resolution.settings.force || force };
  const changes = configChanges(group, live, target, resolution);
  const sched = schedule({
    kind: live.kind,
    replacements,
    upToDate: liveCount(live) - replacements.length,
    zones: live.zones,
    settings,
    podsByNode: ix.podsByNode,
  });
  const pods = replacements.flatMap((r) => (r.node ? (ix.podsByNode.get(r.node) ?? []) : []));
  const findings =
    replacements.length > 0
      ? preflight({ group: live, pods, snapshot, force: settings.force, surge: sched.surge })
      : [];
  const errors = resolution.errors.map((e) => `rollingUpdate.${e.key}: ${e.message}`);
  const notes = [...resolution.notes];
  if (!settings.drainAndTerminate && live.kind === "self-managed")
    notes.push(
      "drainAndTerminate is false: nodes are tainted (and surged) but not drained or terminated",
    );
  if (live.kind === "self-managed" && live.mixedInstances)
    notes.push(
      "the group uses a mixed-instances policy; its launch template decides what is up to date",
    );
  if (live.kind === "managed" && replacements.length > 0)
    notes.push("EKS picks the nodes of each wave at random");
  const wantedVersion =
    group.target?.kubernetesVersion ?? (live.kind === "managed" ? live.version : "");
  if (
    live.kind === "managed" &&
    group.target?.releaseVersion === "latest" &&
    !snapshot.latestReleaseVersions[wantedVersion]
  ) {
    notes.push(
      `the latest EKS AMI release for ${wantedVersion} is not known here: a version update takes EKS's latest; to move the release alone, name it`,
    );
  }
  const blocked = findings.some((f) => f.severity === "blocker");
  const status =
    errors.length > 0
      ? "error"
      : replacements.length > 0
        ? blocked
          ? "blocked"
          : "roll"
        : changes.length > 0
          ? "config-only"
          : "no-change";
  return {
    name: group.name,
    kind: live.kind,
    role,
    status,
    nodes: liveCount(live),
    configChanges: changes,
    replacements,
    budgets: {
      maxUnavailable: settings.maxUnavailable,
      maxSurge: live.kind === "managed" ? sched.surge : settings.maxSurge,
      derivation: resolution.derivation,
    },
    schedule: sched,
    findings,
    notes,
    errors,
  };
}

function summarize(groups: GroupPlan[]): PlanSummary {
  const rolling = groups.filter((g) => g.status === "roll");
  return {
    groupsToRoll: rolling.length,
    nodesToReplace: rolling.reduce((n, g) => n + g.replacements.length, 0),
    configChanges: groups.reduce((n, g) => n + g.configChanges.length, 0),
    blocked: groups.filter((g) => g.status === "blocked").length,
    errors: groups.filter((g) => g.status === "error").length,
    estimatedMs: rolling.reduce((n, g) => n + g.schedule.estimatedMs, 0),
  };
}

export function buildPlan(
  policy: Policy,
  file: string,
  snapshot: Snapshot,
  options: PlanOptions = {},
): Plan {
  const wanted = options.groups ? new Set(options.groups) : undefined;
  const ix = index(snapshot);
  const ordered = orderGroups(
    policy.groups.map((g) => ({ ...g, role: g.role ?? ("node" as Role) })),
    policy.order,
  );
  const groups = ordered
    .filter((g) => !wanted || wanted.has(g.name))
    .map((g) => {
      const live = snapshot.groups.find((l) => l.name === g.name);
      return live
        ? planGroup(policy, g, live, snapshot, ix, options)
        : missingGroup(g, g.role, snapshot);
    });
  return {
    schemaVersion: 1,
    policy: { name: policy.metadata.name, file },
    cluster: snapshot.cluster,
    takenAt: snapshot.takenAt.toISOString(),
    options: { force: options.force ?? false, ...(options.groups && { groups: options.groups }) },
    summary: summarize(groups),
    groups,
  };
}

/** Terraform's first line: "Plan: 2 groups to roll (37 nodes), 1 config change, 0 blocked." */
export function summaryLine(s: PlanSummary): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (s.groupsToRoll === 0 && s.configChanges === 0 && s.blocked === 0 && s.errors === 0)
    return "No changes. The node groups match the policy.";
  const errors = s.errors > 0 ? `, ${plural(s.errors, "error")}` : "";
  return `Plan: ${plural(s.groupsToRoll, "group")} to roll (${plural(s.nodesToReplace, "node")}), ${plural(s.configChanges, "config change")}, ${s.blocked} blocked${errors}.`;
}

export function hasChanges(plan: Plan): boolean {
  return plan.summary.groupsToRoll + plan.summary.configChanges + plan.summary.blocked > 0;
}
