// Resolution: the effective roll settings of one group, for its live size and the number of
// its nodes that need update. defaults < group; percentages become node counts; kOps'
// defaults for self-managed groups, EKS's for managed ones.
import { isPercent, percentOf, resolveSurge, resolveUnavailable, type Budget } from "./budget.js";
import { formatDuration, parseDuration } from "./duration.js";
import type { Group, Policy, Role, RollingUpdate } from "./schema.js";

export type GroupKind = "managed" | "self-managed";

export interface EffectiveSettings {
  maxUnavailable: number;
  maxSurge: number;
  force: boolean;
  postDrainDelayMs: number;
  drainTimeoutMs: number;
  intervalMs: number;
  validation: { timeoutMs: number; count: number };
  drainAndTerminate: boolean;
  maxNodeAgeMs?: number;
  spreadAcrossZones: boolean;
}

export interface Resolution {
  group: string;
  role: Role;
  kind: GroupKind;
  settings: EffectiveSettings;
  /** How each budget was derived, for the plan: "25% of 10 nodes, rounded down = 2". */
  derivation: { maxUnavailable: string; maxSurge: string };
  /** For managed groups: the EKS updateConfig the policy asks for. */
  updateConfig?: { maxUnavailable: number } | { maxUnavailablePercentage: number };
  notes: string[];
  /** Problems only live state reveals (a managed group's own unsupported settings). */
  errors: { key: keyof RollingUpdate; message: string }[];
}

export interface LiveGroupFacts {
  kind: GroupKind;
  /** Nodes in the group now (desired capacity). */
  size: number;
  /** Nodes that need replacing. */
  needUpdate: number;
}

const KOPS_DEFAULTS = {
  force: false,
  postDrainDelay: "5s",
  drainTimeout: "15m",
  interval: "15s",
  validation: { timeout: "15m", count: 2 },
  drainAndTerminate: true,
  spreadAcrossZones: true,
} as const;

/** What EKS does for a managed group, and so the only values it can honour. */
export const EKS_BEHAVIOUR = {
  drainTimeoutMs: 15 * 60_000,
  postDrainDelayMs: 60_000,
};

const ms = (d: string | undefined, fallback: string): number =>
  parseDuration(d ?? fallback) as number;

export function resolveGroup(policy: Policy, group: Group, live: LiveGroupFacts): Resolution {
  const role: Role = group.role ?? "node";
  const own: RollingUpdate = group.rollingUpdate ?? {};
  const defaults: RollingUpdate = policy.defaults ?? {};
  const merged: RollingUpdate = {
    ...defaults,
    ...own,
    validation: { ...defaults.validation, ...own.validation },
  };
  const base = commonSettings(merged);
  if (live.kind === "managed") return resolveManaged(group.name, role, own, defaults, base, live);
  return resolveSelfManaged(group.name, role, own, merged, base, live);
}

function commonSettings(m: RollingUpdate): Omit<EffectiveSettings, "maxUnavailable" | "maxSurge"> {
  return {
    force: m.force ?? KOPS_DEFAULTS.force,
    postDrainDelayMs: ms(m.postDrainDelay, KOPS_DEFAULTS.postDrainDelay),
    drainTimeoutMs: ms(m.drainTimeout, KOPS_DEFAULTS.drainTimeout),
    intervalMs: ms(m.interval, KOPS_DEFAULTS.interval),
    validation: {
      timeoutMs: ms(m.validation?.timeout, KOPS_DEFAULTS.validation.timeout),
      count: m.validation?.count ?? KOPS_DEFAULTS.validation.count,
    },
    drainAndTerminate: m.drainAndTerminate ?? KOPS_DEFAULTS.drainAndTerminate,
    ...(m.maxNodeAge !== undefined && { maxNodeAgeMs: parseDuration(m.maxNodeAge) as number }),
    spreadAcrossZones: m.spreadAcrossZones ?? KOPS_DEFAULTS.spreadAcrossZones,
  };
}

function describeBudget(
  value: Budget,
  size: number,
  rounding: "down" | "up",
  result: number,
): string {
  if (!isPercent(value)) return `${value}`;
  return `${value} of ${size} node${size === 1 ? "" : "s"}, rounded ${rounding} = ${result}`;
}

function resolveSelfManaged(
  name: string,
  role: Role,
  own: RollingUpdate,
  merged: RollingUpdate,
  base: Omit<EffectiveSettings, "maxUnavailable" | "maxSurge">,
  live: LiveGroupFacts,
): Resolution {
  const notes: string[] = [];
  let surgeValue: Budget = merged.maxSurge ?? 1;
  let surgeText: string;
  if (role === "control-plane") {
    if (merged.maxSurge !== undefined && own.maxSurge === undefined)
      notes.push("maxSurge from defaults does not apply: a control-plane group never surges");
    surgeValue = 0;
    surgeText = "control-plane groups never surge";
  } else {
    surgeText = merged.maxSurge === undefined ? "kOps default" : "";
  }
  const surge = resolveSurge(surgeValue, live.size, live.needUpdate);
  if (!surgeText) surgeText = describeBudget(surgeValue, live.size, "up", surge);
  if (
    surge <
    (isPercent(surgeValue) ? Math.ceil((percentOf(surgeValue) * live.size) / 100) : surgeValue)
  ) {
    surgeText += `, capped at the ${live.needUpdate} node${live.needUpdate === 1 ? "" : "s"} that need update`;
  }
  const unavailableValue: Budget = merged.maxUnavailable ?? (surge === 0 ? 1 : 0);
  const unavailable = resolveUnavailable(unavailableValue, live.size, surge);
  const unavailableText =
    merged.maxUnavailable === undefined
      ? `kOps default when maxSurge is ${surge === 0 ? "0" : "not 0"}`
      : describeBudget(unavailableValue, live.size, "down", unavailable) +
        (isPercent(unavailableValue) &&
        surge === 0 &&
        unavailable === 1 &&
        Math.floor((percentOf(unavailableValue) * live.size) / 100) === 0
          ? " (at least 1 without surge)"
          : "");
  return {
    group: name,
    role,
    kind: "self-managed",
    settings: { ...base, maxUnavailable: unavailable, maxSurge: surge },
    derivation: { maxUnavailable: unavailableText, maxSurge: surgeText },
    notes,
    errors: [],
  };
}

/** The settings EKS cannot honour for a managed group, and what it does instead. */
function managedConflicts(own: RollingUpdate): Resolution["errors"] {
  const errors: Resolution["errors"] = [];
  if (own.maxSurge !== undefined)
    errors.push({
      key: "maxSurge",
      message:
        "EKS does not take maxSurge for a managed node group: it scales up by max(2 × Availability Zones, maxUnavailable) on its own; remove maxSurge",
    });
  if (
    own.postDrainDelay !== undefined &&
    parseDuration(own.postDrainDelay) !== EKS_BEHAVIOUR.postDrainDelayMs
  )
    errors.push({
      key: "postDrainDelay",
      message:
        "EKS waits a fixed 60 s after draining a managed node; postDrainDelay cannot be changed, remove it",
    });
  if (own.interval !== undefined)
    errors.push({
      key: "interval",
      message: "EKS replaces managed nodes on its own schedule; interval cannot be set, remove it",
    });
  if (own.drainAndTerminate === false)
    errors.push({
      key: "drainAndTerminate",
      message:
        "EKS always drains and terminates the nodes of a managed group; drainAndTerminate: false cannot be honoured",
    });
  if (
    own.drainTimeout !== undefined &&
    parseDuration(own.drainTimeout) !== EKS_BEHAVIOUR.drainTimeoutMs
  )
    errors.push({
      key: "drainTimeout",
      message:
        "EKS gives each drain a fixed 15 minutes before PodEvictionFailure (or force); drainTimeout cannot be changed, remove it",
    });
  if (own.validation !== undefined)
    errors.push({
      key: "validation",
      message:
        "EKS decides itself when a managed node is ready; validation cannot be set, remove it",
    });
  if (own.spreadAcrossZones !== undefined)
    errors.push({
      key: "spreadAcrossZones",
      message:
        "EKS picks the nodes of a managed group at random; spreadAcrossZones cannot be honoured, remove it",
    });
  const mu = own.maxUnavailable;
  if (mu !== undefined && (isPercent(mu) ? percentOf(mu) < 1 : mu < 1 || mu > 100))
    errors.push({
      key: "maxUnavailable",
      message: "EKS takes maxUnavailable from 1 to 100 (or 1%–100%) for a managed node group",
    });
  return errors;
}

function resolveManaged(
  name: string,
  role: Role,
  own: RollingUpdate,
  defaults: RollingUpdate,
  base: Omit<EffectiveSettings, "maxUnavailable" | "maxSurge">,
  live: LiveGroupFacts,
): Resolution {
  const notes: string[] = [];
  const inherited = (
    [
      "maxSurge",
      "postDrainDelay",
      "interval",
      "drainTimeout",
      "validation",
      "spreadAcrossZones",
    ] as const
  ).filter((k) => own[k] === undefined && defaults[k] !== undefined);
  if (defaults.drainAndTerminate === false && own.drainAndTerminate === undefined)
    inherited.push("drainAndTerminate" as never);
  if (inherited.length > 0)
    notes.push(
      `${inherited.join(", ")} from defaults do${inherited.length === 1 ? "es" : ""} not apply to a managed node group (EKS decides)`,
    );
  const candidate = own.maxUnavailable ?? defaults.maxUnavailable;
  const usable =
    candidate !== undefined &&
    (isPercent(candidate) ? percentOf(candidate) >= 1 : candidate >= 1 && candidate <= 100);
  if (candidate !== undefined && !usable && own.maxUnavailable === undefined)
    notes.push(
      `maxUnavailable ${JSON.stringify(candidate)} from defaults is outside EKS's 1–100; EKS's default of 1 applies`,
    );
  const value: Budget = usable ? (candidate as Budget) : 1;
  const unavailable = isPercent(value)
    ? Math.max(1, Math.floor((percentOf(value) * live.size) / 100))
    : value;
  const updateConfig = isPercent(value)
    ? { maxUnavailablePercentage: percentOf(value) }
    : { maxUnavailable: value };
  return {
    group: name,
    role,
    kind: "managed",
    settings: {
      ...base,
      drainTimeoutMs: EKS_BEHAVIOUR.drainTimeoutMs,
      postDrainDelayMs: EKS_BEHAVIOUR.postDrainDelayMs,
      drainAndTerminate: true,
      maxUnavailable: unavailable,
      maxSurge: 0,
    },
    derivation: {
      maxUnavailable: usable
        ? describeBudget(value, live.size, "down", unavailable)
        : "EKS default",
      maxSurge: "EKS scales up by max(2 × Availability Zones, maxUnavailable)",
    },
    updateConfig,
    notes,
    errors: managedConflicts(own),
  };
}

export { formatDuration };
