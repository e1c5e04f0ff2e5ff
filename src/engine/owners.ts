// Whose a node is, for validation: its group and whether that is a control plane's. The plan's
// groups and the kinds' labels place most nodes (kinds/registry.ts groupOfNode); a node they do
// not — an instance launched since the group was read, or one of a group the policy does not
// name — is placed by its instance's own tags, read once per run. kOps validates each instance
// group and ignores other groups' failures (pkg/instancegroups, hasFailureRelevantToGroup): a
// NotReady node of an Auto Scaling group outside the policy is that group's business, not a
// reason to fail this roll. A node nothing places still fails it, as before: nothing shows it
// is not ours.
import type { Policy } from "../policy/index.js";
import type { LiveGroup } from "../plan/index.js";
import { hasReadyCondition, instanceIdOf, type Node } from "../ports/index.js";
import { groupOfInstance, groupOfNode } from "../kinds/registry.js";
import { RunPart, type RollContext } from "../roll/context.js";
import type { NodeOwner } from "../roll/validate.js";

/** Instance id → the group its tags name (null: none, or the instance is gone). */
const TAGGED = new RunPart<Map<string, string | null>>("instance groups");

/** DescribeInstances takes up to 1,000 ids; 500 keeps each answer small. */
const IDS_PER_CALL = 500;

export interface NodeOwners {
  ownerOf: (n: Node) => NodeOwner;
  learnOwners: (nodes: Iterable<Node>) => Promise<void>;
}

export function nodeOwners(ctx: RollContext, groups: LiveGroup[], policy: Policy): NodeOwners {
  const placed = groupOfNode(groups);
  const tagged = ctx.state.of(TAGGED, () => new Map());
  const controlPlane = new Set(
    policy.groups.filter((g) => g.role === "control-plane").map((g) => g.name),
  );
  const groupOf = (n: Node): string | undefined => {
    const group = placed(n);
    if (group) return group;
    const id = instanceIdOf(n);
    return (id && tagged.get(id)) || undefined;
  };
  const ownerOf = (n: Node): NodeOwner => {
    const group = groupOf(n);
    return {
      ...(group && { group }),
      ...(group && controlPlane.has(group) && { controlPlane: true }),
    };
  };
  const learnOwners = async (nodes: Iterable<Node>) => {
    // Only a node that would fail validation needs a group: one not Ready and not placed.
    const ids = [...nodes]
      .filter((n) => !hasReadyCondition(n.status.conditions) && !groupOf(n))
      .flatMap((n) => instanceIdOf(n) ?? [])
      .filter((id) => !tagged.has(id));
    for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
      const batch = ids.slice(i, i + IDS_PER_CALL);
      const found = await ctx.cloud.ec2.describeInstances({ InstanceIds: batch });
      for (const id of batch) tagged.set(id, null);
      for (const inst of found) tagged.set(inst.InstanceId, groupOfInstance(inst.Tags) ?? null);
    }
  };
  return { ownerOf, learnOwners };
}
