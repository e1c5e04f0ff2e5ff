// The kinds of node group noderoll knows, in the order they claim a policy's groups: a name EKS
// lists as a managed node group is one; any other is looked up as an Auto Scaling group. The
// core picks a group's kind here, once.
import type { LiveGroup } from "../plan/index.js";
import { instanceIdOf, type Ec2Tag, type GroupKindId, type Node } from "../ports/index.js";
import type { GroupKind, ObserveInput } from "./kind.js";
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

/**
 * Which group a node is in — the one rule, for the plan and the roll alike: the group read with
 * its instance (by `spec.providerID`), else the group a kind's own label on it names.
 */
export function groupOfNode(groups: readonly LiveGroup[]): (n: Node) => string | undefined {
  const byInstance = new Map<string, string>();
  for (const g of groups) for (const i of g.instances) byInstance.set(i.id, g.name);
  return (n) => {
    const id = instanceIdOf(n);
    const read = id ? byInstance.get(id) : undefined;
    if (read) return read;
    for (const kind of KINDS) {
      const named = kind.labelledGroup(n);
      if (named) return named;
    }
    return undefined;
  };
}

/** The group an instance's tags name, asked of each kind in turn (a managed node group first). */
export function groupOfInstance(tags: readonly Ec2Tag[]): string | undefined {
  for (const kind of KINDS) {
    const named = kind.taggedGroup(tags);
    if (named) return named;
  }
  return undefined;
}
