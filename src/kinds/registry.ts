// The kinds of node group noderoll knows, in the order they claim a policy's groups: a name EKS
// lists as a managed node group is one; any other is looked up as an Auto Scaling group. The
// core picks a group's kind here, once.
import type { Group, Policy } from "../policy/index.js";
import type { LiveGroup } from "../plan/index.js";
import type { GroupKindId } from "../ports/index.js";
import type { EffectiveSettings } from "../policy/index.js";
import type { Conflict, GroupKind, ObserveInput } from "./kind.js";
import { managedKind } from "./managed/index.js";
import { selfManagedKind } from "./self-managed/index.js";

const KINDS: readonly GroupKind[] = [managedKind as GroupKind, selfManagedKind as GroupKind];

export function kindOf<L extends LiveGroup>(live: L | GroupKindId): GroupKind<L> {
  const id = typeof live === "string" ? live : live.kind;
  return KINDS.find((k) => k.id === id) as unknown as GroupKind<L>;
}

/** Every group of `input.names` that exists, each read by the first kind that claims it. */
export async function observeGroups(input: ObserveInput): Promise<LiveGroup[]> {
  const out: LiveGroup[] = [];
  let names = input.names;
  for (const kind of KINDS) {
    const found = await kind.observe({ ...input, names });
    const claimed = new Set(found.map((g) => g.name));
    names = names.filter((n) => !claimed.has(n));
    out.push(...found);
  }
  return out;
}

/** What the roll settings of one group come to, for its kind and size. */
export interface Resolution {
  group: string;
  role: Group["role"] & string;
  kind: GroupKindId;
  settings: EffectiveSettings;
  /** How each budget was derived, for the plan: "25% of 10 nodes, rounded down = 2". */
  derivation: { maxUnavailable: string; maxSurge: string };
  updateConfig?: { maxUnavailable?: number; maxUnavailablePercentage?: number };
  notes: string[];
  /** What only live state reveals: settings the group's kind cannot honour. */
  errors: Conflict[];
}

/** The effective settings of one group: resolution, budgets and conflicts in one answer. */
export function resolveGroup(
  policy: Policy,
  group: Group,
  live: { kind: GroupKindId; size: number; needUpdate: number },
): Resolution {
  const kind = kindOf(live.kind);
  const s = kind.resolve(policy, group);
  const b = kind.budgets(s, live);
  return {
    group: group.name,
    role: s.role,
    kind: kind.id,
    settings: { ...s.roll, maxUnavailable: b.maxUnavailable, maxSurge: b.maxSurge },
    derivation: b.derivation,
    ...(s.updateConfig && { updateConfig: s.updateConfig }),
    notes: s.notes,
    errors: kind.conflicts(s.written),
  };
}
