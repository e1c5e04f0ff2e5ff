// Reading EKS managed node groups: the policy's groups that EKS lists for the cluster, each
// described, with the Auto Scaling group behind it (its instances and zones) and its launch
// template, if it has one.
import {
  CONCURRENCY,
  instancesOf,
  launchTemplateRef,
  launchTimesWithoutNode,
  mapLimit,
  suspendedOf,
  type ManagedGroupInfo,
} from "../../plan/index.js";
import type { AutoScalingGroup, Nodegroup } from "../../ports/index.js";
import type { ObserveInput } from "../kind.js";
import { updateInfo, updateInProgress } from "./updates.js";

function groupInfo(
  ng: Nodegroup,
  asg: AutoScalingGroup | undefined,
  times: Map<string, Date>,
  input: ObserveInput,
  lt: ManagedGroupInfo["launchTemplate"],
): ManagedGroupInfo {
  const { maxUnavailable, maxUnavailablePercentage, updateStrategy } = ng.updateConfig;
  const suspended = asg && suspendedOf(asg);
  return {
    kind: "managed",
    name: ng.nodegroupName,
    // EKS lists it under the cluster: it is the cluster's.
    clusters: [input.clusterName],
    listedByEks: true,
    zones: asg?.AvailabilityZones ?? [],
    min: ng.scalingConfig.minSize,
    max: ng.scalingConfig.maxSize,
    desired: ng.scalingConfig.desiredSize,
    instances: asg ? instancesOf(asg, times) : [],
    version: ng.version,
    releaseVersion: ng.releaseVersion,
    ...(lt && { launchTemplate: lt }),
    ...(ng.amiType && { amiType: ng.amiType }),
    updateConfig: {
      ...(maxUnavailable !== undefined && { maxUnavailable }),
      ...(maxUnavailablePercentage !== undefined && { maxUnavailablePercentage }),
      ...(updateStrategy && { updateStrategy }),
    },
    status: ng.status,
    healthIssues: ng.health.issues.map((h) => ({ code: h.code, message: h.message })),
    ...(suspended && { suspended }),
  };
}

export async function observeManaged(input: ObserveInput): Promise<ManagedGroupInfo[]> {
  const { cloud, clusterName } = input;
  const listed = new Set(await cloud.eks.listNodegroups(clusterName));
  const names = input.names.filter((n) => listed.has(n));
  if (names.length === 0) return [];
  const nodegroups = await mapLimit(names, CONCURRENCY, (n) =>
    cloud.eks.describeNodegroup(clusterName, n),
  );
  const asgNames = [
    ...new Set(nodegroups.flatMap((m) => m.resources.autoScalingGroups.map((a) => a.name))),
  ];
  const asgs =
    asgNames.length > 0
      ? await cloud.autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: asgNames })
      : [];
  const byName = new Map(asgs.map((a) => [a.AutoScalingGroupName, a]));
  const times = await launchTimesWithoutNode(
    cloud,
    asgs.flatMap((a) => a.Instances.map((i) => i.InstanceId)),
    input.nodes,
  );
  const out: ManagedGroupInfo[] = [];
  for (const ng of nodegroups) {
    const asg = byName.get(ng.resources.autoScalingGroups[0]?.name ?? "");
    const lt = ng.launchTemplate
      ? await launchTemplateRef(cloud, {
          LaunchTemplateId: ng.launchTemplate.id,
          Version: ng.launchTemplate.version,
        })
      : undefined;
    const info = groupInfo(ng, asg, times, input, lt);
    // Whoever started it: the plan says what it targets, apply waits for or follows it.
    const update =
      ng.status === "UPDATING"
        ? await updateInProgress(cloud.eks, clusterName, ng.nodegroupName)
        : undefined;
    out.push(update ? { ...info, update: updateInfo(update) } : info);
  }
  return out;
}
