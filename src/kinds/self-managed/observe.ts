// Reading self-managed Auto Scaling groups: the policy's groups by name, their launch templates
// (or a mixed-instances policy's), and the instances noderoll detached from them to surge — no
// longer in the group, but marked: their nodes carry our label and the instances our tag of the
// same name. They belong to the group until drained and terminated; the tag finds one whose
// node object went first, which the label alone would leave running, outside any group.
import {
  clustersTagged,
  DETACHED_LABEL,
  instancesOf,
  launchTemplateRef,
  launchTimesWithoutNode,
  suspendedOf,
  type InstanceInfo,
  type SelfManagedGroupInfo,
} from "../../plan/index.js";
import {
  instanceIdOf,
  type AutoScalingGroup,
  type Cloud,
  type Ec2Instance,
  type Node,
} from "../../ports/index.js";
import type { ObserveInput } from "../kind.js";
import { markedSuspended } from "./processes.js";

/** An instance noderoll marked for surge, and whether the mark is on the instance itself. */
interface Marked {
  id: string;
  zone: string;
  tagged: boolean;
}

/**
 * The instances noderoll marked for surge, by the group the mark names, from their nodes' label
 * and their EC2 tag: looked up once per read, not once per group (400 groups × 100,000 nodes was
 * 40 million label checks).
 */
function markedByGroup(nodes: Node[], tagged: Ec2Instance[]): Map<string, Map<string, Marked>> {
  const out = new Map<string, Map<string, Marked>>();
  const add = (group: string, m: Marked) => {
    let marks = out.get(group);
    if (!marks) out.set(group, (marks = new Map()));
    const known = marks.get(m.id);
    marks.set(m.id, known ? { ...known, tagged: known.tagged || m.tagged } : m);
  };
  for (const n of nodes) {
    const group = n.metadata.labels?.[DETACHED_LABEL];
    const id = instanceIdOf(n);
    if (group === undefined || !id) continue;
    add(group, {
      id,
      zone: n.metadata.labels?.["topology.kubernetes.io/zone"] ?? "",
      tagged: false,
    });
  }
  for (const i of tagged) {
    const group = i.Tags.find((t) => t.Key === DETACHED_LABEL)?.Value;
    if (group !== undefined)
      add(group, { id: i.InstanceId, zone: i.Placement.AvailabilityZone, tagged: true });
  }
  return out;
}

/** The EKS managed node group an Auto Scaling group is behind, by the tag EKS puts on it. */
const nodegroupOf = (asg: AutoScalingGroup) =>
  asg.Tags.find((t) => t.Key === "eks:nodegroup-name")?.Value;

/** How many values EC2 takes in one filter. */
const FILTER_VALUES = 200;

/**
 * Instances carrying our surge tag for one of `names` that have not ended: one EC2 read per 200
 * groups. A group's name is unique in its account and region, so the tag's value is enough.
 */
async function taggedInstances(cloud: Cloud, names: string[]): Promise<Ec2Instance[]> {
  const out: Ec2Instance[] = [];
  for (let i = 0; i < names.length; i += FILTER_VALUES) {
    const found = await cloud.ec2.describeInstances({
      Filters: [
        { Name: `tag:${DETACHED_LABEL}`, Values: names.slice(i, i + FILTER_VALUES) },
        { Name: "instance-state-name", Values: ["pending", "running", "stopping", "stopped"] },
      ],
    });
    out.push(...found);
  }
  return out;
}

/** The marked instances that are no longer members: detached for surge, to replace. */
function detachedFrom(marked: Iterable<Marked>, have: Set<string>): InstanceInfo[] {
  const out: InstanceInfo[] = [];
  for (const m of marked) {
    if (have.has(m.id)) continue;
    out.push({ id: m.id, zone: m.zone, lifecycleState: "Detached", detachedForSurge: true });
  }
  return out;
}

async function groupInfo(
  asg: AutoScalingGroup,
  times: Map<string, Date>,
  input: ObserveInput,
  marked: Map<string, Marked>,
): Promise<SelfManagedGroupInfo> {
  const spec =
    asg.LaunchTemplate ?? asg.MixedInstancesPolicy?.LaunchTemplate.LaunchTemplateSpecification;
  const lt = await launchTemplateRef(input.cloud, spec);
  const instances = instancesOf(asg, times);
  const have = new Set(instances.map((i) => i.id));
  const suspended = suspendedOf(asg);
  const ours = markedSuspended(asg);
  return {
    kind: "self-managed",
    name: asg.AutoScalingGroupName,
    clusters: clustersTagged(asg.Tags),
    ...(nodegroupOf(asg) && { nodegroup: nodegroupOf(asg) }),
    zones: asg.AvailabilityZones,
    min: asg.MinSize,
    max: asg.MaxSize,
    desired: asg.DesiredCapacity,
    instances: [
      // A member with our tag: a run died between marking it and detaching it.
      ...instances.map((i) =>
        marked.get(i.id)?.tagged ? { ...i, markedForSurge: true as const } : i,
      ),
      ...detachedFrom(marked.values(), have),
    ],
    ...(lt && { launchTemplate: lt }),
    mixedInstances: asg.MixedInstancesPolicy !== undefined,
    ...(suspended && { suspended }),
    ...(ours && { suspendedByNoderoll: ours }),
    ...(asg.WarmPoolConfiguration && { warmPool: await warmPoolOf(input.cloud, asg) }),
  };
}

/** A warm pool's instances that are not on their way out: asked only of a group that has one. */
async function warmPoolOf(cloud: Cloud, asg: AutoScalingGroup): Promise<InstanceInfo[]> {
  const listed = await cloud.autoScaling.describeWarmPool({
    AutoScalingGroupName: asg.AutoScalingGroupName,
  });
  return instancesOf({ Instances: listed }, new Map()).filter(
    (i) => !/Terminat/.test(i.lifecycleState),
  );
}

export async function observeSelfManaged(input: ObserveInput): Promise<SelfManagedGroupInfo[]> {
  if (input.names.length === 0) return [];
  const asgs = await input.cloud.autoScaling.describeAutoScalingGroups({
    AutoScalingGroupNames: input.names,
  });
  const byName = new Map(asgs.map((a) => [a.AutoScalingGroupName, a]));
  const times = await launchTimesWithoutNode(
    input.cloud,
    asgs.flatMap((a) => a.Instances.map((i) => i.InstanceId)),
    input.nodes,
  );
  const marked = markedByGroup(input.nodes, await taggedInstances(input.cloud, input.names));
  const out: SelfManagedGroupInfo[] = [];
  for (const name of input.names) {
    const asg = byName.get(name);
    if (asg) out.push(await groupInfo(asg, times, input, marked.get(name) ?? new Map()));
  }
  return out;
}
