// Resolution, the part every kind of group shares: a group's roll settings as the policy writes
// them — defaults < the group's rollingUpdate, key by key (validation and gates too) — with durations
// parsed and kOps' defaults filled in. What a kind of group makes of them (EKS's fixed
// behaviour for managed node groups, the budgets' defaults and rounding per kind) is the
// kind's business: src/kinds/.
import { KOPS_DEFAULTS } from "./budget.js";
import { formatDuration, parseDuration } from "./duration.js";
import { gateSettings, mergeGates, type GateSettings } from "./gates.js";
import type {
  Group,
  Policy,
  Role,
  RollingUpdate,
  UnmanagedPods,
  UpdateStrategy,
} from "./schema.js";

/** The settings of a roll that do not depend on the group's size. */
export interface RollSettings {
  /** EKS's force: at drainTimeout, what is left is deleted and the node terminated. */
  deleteAfterDrainTimeout: boolean;
  /** kubectl drain's --force: running pods with no controller evicted, or the drain refused. */
  unmanagedPods: UnmanagedPods;
  postDrainDelayMs: number;
  drainTimeoutMs: number;
  intervalMs: number;
  validation: { timeoutMs: number; count: number };
  drainAndTerminate: boolean;
  maxNodeAgeMs?: number;
  spreadAcrossZones: boolean;
  /** Managed node groups (EKS): the update strategy the policy asks for; absent, the live one. */
  updateStrategy?: UpdateStrategy;
  /** The health gates watched during every wave and bake (policy/gates.ts). */
  gates: GateSettings;
}

/** A group's settings as written: its own entry, the policy's defaults, and the two merged. */
export interface WrittenSettings {
  role: Role;
  own: RollingUpdate;
  defaults: RollingUpdate;
  merged: RollingUpdate;
}

export function writtenSettings(policy: Policy, group: Group): WrittenSettings {
  const own: RollingUpdate = group.rollingUpdate ?? {};
  const defaults: RollingUpdate = policy.defaults ?? {};
  return {
    role: group.role ?? "node",
    own,
    defaults,
    merged: {
      ...defaults,
      ...own,
      validation: { ...defaults.validation, ...own.validation },
      gates: mergeGates(defaults.gates, own.gates),
    },
  };
}

const ms = (d: string | undefined, fallback: string): number =>
  parseDuration(d ?? fallback) as number;

/** The merged settings with kOps' defaults for what the policy leaves out. */
export function rollSettings(m: RollingUpdate): RollSettings {
  return {
    deleteAfterDrainTimeout: m.deleteAfterDrainTimeout ?? KOPS_DEFAULTS.deleteAfterDrainTimeout,
    unmanagedPods: m.unmanagedPods ?? KOPS_DEFAULTS.unmanagedPods,
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
    ...(m.updateStrategy && { updateStrategy: m.updateStrategy }),
    gates: gateSettings(m.gates ?? {}),
  };
}

export { formatDuration };
