// `launchTemplateVersion: $Latest` promoted by content (issue 49): a launch template's version
// numbers are each cluster's own, so what the first stage tested is pinned as the AMIs its
// self-managed groups' latest versions run; every later cluster's group is rolled to the newest
// version of its own template that runs one of them — never to a newer image published since.
// Read through EC2 DescribeLaunchTemplateVersions and Auto Scaling DescribeAutoScalingGroups.
import type { Policy } from "../policy/index.js";
import type { AutoScalingGroup, LaunchTemplateVersion } from "../ports/index.js";
import { type Session } from "./session.js";

interface LatestGroup {
  group: string;
  versions: LaunchTemplateVersion[];
}

/** The self-managed groups of `policy` whose target is `$Latest`, each with its versions. */
async function latestGroups(session: Session, policy: Policy): Promise<LatestGroup[]> {
  const { eks, autoScaling, ec2 } = session.ports.cloud;
  const managed = new Set(await eks.listNodegroups(policy.cluster.name));
  const names = policy.groups
    .filter((g) => g.target?.launchTemplateVersion === "$Latest" && !managed.has(g.name))
    .map((g) => g.name);
  if (names.length === 0) return [];
  const groups = await autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: names });
  return Promise.all(
    groups.map(async (a: AutoScalingGroup) => {
      const spec =
        a.LaunchTemplate ?? a.MixedInstancesPolicy?.LaunchTemplate.LaunchTemplateSpecification;
      const versions = await ec2.describeLaunchTemplateVersions({
        ...(spec?.LaunchTemplateId && { LaunchTemplateId: spec.LaunchTemplateId }),
        ...(spec?.LaunchTemplateName && { LaunchTemplateName: spec.LaunchTemplateName }),
      });
      return { group: a.AutoScalingGroupName, versions };
    }),
  );
}

const newest = (versions: readonly LaunchTemplateVersion[]) =>
  [...versions].sort((a, b) => b.VersionNumber - a.VersionNumber);

/** The AMIs the policy's `$Latest` self-managed groups would run now: what the pin keeps. */
export async function latestImages(session: Session, policy: Policy): Promise<string[]> {
  const groups = await latestGroups(session, policy);
  const images = groups.flatMap((g) => newest(g.versions)[0]?.LaunchTemplateData.ImageId ?? []);
  return [...new Set(images)].sort();
}

/**
 * The policy with each `$Latest` self-managed group's target set to the newest version of its
 * template that runs a pinned AMI; throws, naming the group, when none does — that cluster has
 * no version of what the first stage tested.
 */
export async function pinnedToImages(
  session: Session,
  policy: Policy,
  images: readonly string[],
): Promise<Policy> {
  if (images.length === 0) return policy;
  const groups = await latestGroups(session, policy);
  const version = new Map<string, number>();
  for (const g of groups) {
    const match = newest(g.versions).find((v) =>
      images.includes(v.LaunchTemplateData.ImageId ?? ""),
    );
    if (!match)
      throw new Error(
        `${g.group}: no version of its launch template runs the fleet's pinned AMI (${images.join(", ")}, what the first stage rolled); publish a version with it, or name a launchTemplateVersion`,
      );
    version.set(g.group, match.VersionNumber);
  }
  return {
    ...policy,
    groups: policy.groups.map((g) => {
      const v = version.get(g.name);
      return v === undefined ? g : { ...g, target: { ...g.target, launchTemplateVersion: v } };
    }),
  };
}
