// An EKS managed node group's settings. EKS runs the update itself (Amazon EKS user guide,
// "Understand each phase of node updates",
// https://docs.aws.amazon.com/eks/latest/userguide/managed-node-update-behavior.html): it scales
// up by max(2 × Availability Zones, maxUnavailable), gives each drain 15 minutes, waits 60 s
// after it, and picks nodes at random. So only maxUnavailable (1–100, or a percentage) and deleteAfterDrainTimeout (EKS's force)
// come from the policy; what EKS cannot honour is a table of conflicts.
import {
  describeBudget,
  isPercent,
  parseDuration,
  percentOf,
  roundedDown,
  rollSettings,
  writtenSettings,
  type Budget,
  type Group,
  type Policy,
  type RollingUpdate,
  type UpdateStrategy,
  type WrittenSettings,
} from "../../policy/index.js";
import type { UpdateConfig } from "../../ports/index.js";
import type { BudgetFacts, Conflict, GroupSettings, ResolvedBudgets } from "../kind.js";

/** What EKS does for a managed group, and so the only values it can honour. */
export const EKS_BEHAVIOUR = {
  drainTimeoutMs: 15 * 60_000,
  postDrainDelayMs: 60_000,
};

/**
 * The update strategy in force: the policy's, else the node group's live one, else EKS's
 * DEFAULT (EKS API reference, NodegroupUpdateConfig.updateStrategy).
 */
export function strategyOf(
  roll: { updateStrategy?: UpdateStrategy },
  live: { updateConfig: UpdateConfig } | undefined,
): UpdateStrategy {
  return roll.updateStrategy ?? live?.updateConfig.updateStrategy ?? "DEFAULT";
}

/**
 * EKS's scale-up at the start of an update: max(2 × zones, maxUnavailable) with DEFAULT; none
 * with MINIMAL, which terminates first and launches a node only in place of one gone (EKS user
 * guide, "Understand each phase of node updates"; NodegroupUpdateConfig).
 */
export function eksScaleUp(
  zones: number,
  maxUnavailable: number,
  strategy: UpdateStrategy,
): number {
  return strategy === "MINIMAL" ? 0 : Math.max(2 * zones, maxUnavailable);
}

interface EksRule {
  key: keyof RollingUpdate;
  /** Whether EKS honours this value; absent: no value can be honoured. */
  honours?: (value: unknown) => boolean;
  /** Whether the same key inherited from defaults is noted as not applying (default: always). */
  noted?: (value: unknown) => boolean;
  message: string;
}

const inEksRange = (v: unknown) =>
  isPercent(v as Budget)
    ? percentOf(v as `${number}%`) >= 1
    : (v as number) >= 1 && (v as number) <= 100;

/** The settings EKS cannot honour for a managed group, and what it does instead. */
const EKS_RULES: EksRule[] = [
  {
    key: "maxSurge",
    message:
      "EKS does not take maxSurge for a managed node group: it scales up by max(2 × Availability Zones, maxUnavailable) on its own; remove maxSurge",
  },
  {
    key: "postDrainDelay",
    honours: (v) => parseDuration(v as string) === EKS_BEHAVIOUR.postDrainDelayMs,
    message:
      "EKS waits a fixed 60 s after draining a managed node; postDrainDelay cannot be changed, remove it",
  },
  {
    key: "interval",
    message: "EKS replaces managed nodes on its own schedule; interval cannot be set, remove it",
  },
  {
    key: "drainTimeout",
    honours: (v) => parseDuration(v as string) === EKS_BEHAVIOUR.drainTimeoutMs,
    message:
      "EKS gives each drain a fixed 15 minutes before PodEvictionFailure (or, with deleteAfterDrainTimeout, its force); drainTimeout cannot be changed, remove it",
  },
  {
    key: "validation",
    message: "EKS decides itself when a managed node is ready; validation cannot be set, remove it",
  },
  {
    key: "spreadAcrossZones",
    message:
      "EKS picks the nodes of a managed group at random; spreadAcrossZones cannot be honoured, remove it",
  },
  {
    key: "drainAndTerminate",
    honours: (v) => v !== false,
    noted: (v) => v === false,
    message:
      "EKS always drains and terminates the nodes of a managed group; drainAndTerminate: false cannot be honoured",
  },
  {
    key: "maxUnavailable",
    honours: inEksRange,
    noted: () => false,
    message: "EKS takes maxUnavailable from 1 to 100 (or 1%–100%) for a managed node group",
  },
];

export function managedConflicts(w: WrittenSettings): Conflict[] {
  return EKS_RULES.filter((r) => {
    const v = w.own[r.key];
    return v !== undefined && !(r.honours?.(v) ?? false);
  }).map((r) => ({ key: r.key, message: r.message }));
}

/** Settings from defaults that EKS decides for itself: noted, not errors. */
function inheritedNotes(w: WrittenSettings): string[] {
  const inherited = EKS_RULES.filter((r) => {
    const v = w.defaults[r.key];
    return w.own[r.key] === undefined && v !== undefined && (r.noted?.(v) ?? true);
  }).map((r) => r.key);
  if (inherited.length === 0) return [];
  return [
    `${inherited.join(", ")} from defaults do${inherited.length === 1 ? "es" : ""} not apply to a managed node group (EKS decides)`,
  ];
}

/** maxUnavailable as written, when EKS can take it; undefined for EKS's default of 1. */
function usableUnavailable(w: WrittenSettings): Budget | undefined {
  const candidate = w.own.maxUnavailable ?? w.defaults.maxUnavailable;
  return candidate !== undefined && inEksRange(candidate) ? candidate : undefined;
}

/**
 * A policy that does not set maxUnavailable leaves the node group's live updateConfig as it is
 * (absent keys keep what is live, as for targets): writing EKS's default of 1 over a live 10 %
 * would quietly make a big group's update take hours.
 */
export function resolveManaged(policy: Policy, group: Group): GroupSettings {
  const w = writtenSettings(policy, group);
  const notes = inheritedNotes(w);
  const candidate = w.own.maxUnavailable ?? w.defaults.maxUnavailable;
  const value = usableUnavailable(w);
  if (candidate !== undefined && value === undefined && w.own.maxUnavailable === undefined)
    notes.push(
      `maxUnavailable ${JSON.stringify(candidate)} from defaults is outside EKS's 1–100; the node group's live updateConfig is kept`,
    );
  const strategy = w.merged.updateStrategy;
  const budget: UpdateConfig | undefined =
    value === undefined
      ? undefined
      : isPercent(value)
        ? { maxUnavailablePercentage: percentOf(value) }
        : { maxUnavailable: value };
  const updateConfig: UpdateConfig | undefined =
    budget || strategy ? { ...budget, ...(strategy && { updateStrategy: strategy }) } : undefined;
  return {
    role: w.role,
    written: w,
    roll: {
      ...rollSettings(w.merged),
      drainTimeoutMs: EKS_BEHAVIOUR.drainTimeoutMs,
      postDrainDelayMs: EKS_BEHAVIOUR.postDrainDelayMs,
      drainAndTerminate: true,
    },
    ...(updateConfig && { updateConfig }),
    notes,
  };
}

/** The budget in force: the policy's, else the live updateConfig's, else EKS's default of 1. */
function budgetInForce(
  s: GroupSettings,
  live: { updateConfig: UpdateConfig } | undefined,
): { budget: Budget; from: "policy" | "live" | "default" } {
  const value = usableUnavailable(s.written);
  if (value !== undefined) return { budget: value, from: "policy" };
  const c = live?.updateConfig;
  if (c?.maxUnavailablePercentage !== undefined)
    return { budget: `${c.maxUnavailablePercentage}%`, from: "live" };
  if (c?.maxUnavailable !== undefined) return { budget: c.maxUnavailable, from: "live" };
  return { budget: 1, from: "default" };
}

/**
 * The most nodes EKS updates at once: maxUnavailable is 1–100, and a percentage's nodes are
 * "updated in parallel, up to 100 nodes at once" (EKS API reference, NodegroupUpdateConfig).
 */
export const EKS_MAX_PARALLEL = 100;

export function managedBudgets(
  s: GroupSettings,
  facts: BudgetFacts,
  live?: { updateConfig: UpdateConfig },
): ResolvedBudgets {
  const { budget, from } = budgetInForce(s, live);
  const strategy = strategyOf(s.roll, live);
  const share = isPercent(budget) ? Math.max(1, roundedDown(budget, facts.size)) : budget;
  const unavailable = Math.min(EKS_MAX_PARALLEL, share);
  const how =
    describeBudget(budget, facts.size, "down", share) +
    (unavailable < share
      ? `, capped at ${EKS_MAX_PARALLEL} (EKS updates at most ${EKS_MAX_PARALLEL} nodes at once)`
      : "");
  return {
    maxUnavailable: unavailable,
    maxSurge: 0,
    derivation: {
      maxUnavailable:
        from === "policy"
          ? how
          : from === "live"
            ? `the node group's live updateConfig, kept (the policy sets none)${how !== String(unavailable) ? `: ${how}` : ""}`
            : "EKS default",
      maxSurge:
        strategy === "MINIMAL"
          ? "none: updateStrategy MINIMAL (EKS terminates first and launches no node ahead)"
          : "EKS scales up by max(2 × Availability Zones, maxUnavailable)",
    },
    spec: {
      maxUnavailable: `${String(budget)} (${from})`,
      maxSurge: strategy === "MINIMAL" ? "EKS, MINIMAL" : "EKS",
    },
  };
}
