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
import {
  AwsApiError,
  hasReadyCondition,
  instanceIdOf,
  type Ec2Instance,
  type Node,
} from "../ports/index.js";
import { groupOfInstance, groupOfNode } from "../kinds/registry.js";
import { RunPart, type RollContext } from "../roll/context.js";
import type { NodeOwner } from "../roll/validate.js";

/** Instance id → the group its tags name (null: none, or the instance is gone). */
const TAGGED = new RunPart<Map<string, string | null>>("instance groups");

/** The node-role labels of a control-plane node (Kubernetes' well-known labels; the older one
 * kOps still sets). */
const CONTROL_PLANE_LABELS = [
  "node-role.kubernetes.io/control-plane",
  "node-role.kubernetes.io/master",
] as const;

/** DescribeInstances takes up to 1,000 ids; 500 keeps each answer small. */
const IDS_PER_CALL = 500;

export interface NodeOwners {
  ownerOf: (n: Node) => NodeOwner;
  learnOwners: (nodes: Iterable<Node>) => Promise<void>;
}

/**
 * The instances of `ids` EC2 still knows. One it does not (a node object left behind for an
 * instance terminated long ago) fails the whole call with InvalidInstanceID.NotFound: then
 * each is asked alone, and the unknown ones are no group's.
 */
async function described(ctx: RollContext, ids: string[]): Promise<Ec2Instance[]> {
  try {
    return await ctx.cloud.ec2.describeInstances({ InstanceIds: ids });
  } catch (e) {
    if (!(e instanceof AwsApiError) || !e.code.startsWith("InvalidInstanceID")) throw e;
    if (ids.length === 1) return [];
    const out: Ec2Instance[] = [];
    for (const id of ids) out.push(...(await described(ctx, [id])));
    return out;
  }
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
    // A control plane's failure concerns every group (kOps: hasFailureRelevantToGroup), whether
    // the policy names its group or not: its role label says what it is.
    const labels = n.metadata.labels ?? {};
    const cp = (group && controlPlane.has(group)) || CONTROL_PLANE_LABELS.some((l) => l in labels);
    return { ...(group && { group }), ...(cp && { controlPlane: true }) };
  };
  const learnOwners = async (nodes: Iterable<Node>) => {
    // Only a node that would fail validation needs a group: one not Ready and not placed.
    const ids = [...nodes]
      .filter((n) => !hasReadyCondition(n.status.conditions) && !groupOf(n))
      .flatMap((n) => instanceIdOf(n) ?? [])
      .filter((id) => !tagged.has(id));
    for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
      const batch = ids.slice(i, i + IDS_PER_CALL);
      for (const id of batch) tagged.set(id, null);
      for (const inst of await described(ctx, batch))
        tagged.set(inst.InstanceId, groupOfInstance(inst.Tags) ?? null);
    }
  };
  return { ownerOf, learnOwners };
}
