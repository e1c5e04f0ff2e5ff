// What a managed node group ran before a roll, and whether EKS takes it back there. The API
// reference of UpdateNodegroupVersion says a node group cannot be rolled back to an earlier
// Kubernetes version or AMI version
// (https://docs.aws.amazon.com/eks/latest/APIReference/API_UpdateNodegroupVersion.html), while
// EKS has accepted an explicit earlier releaseVersion of the same Kubernetes minor since 2021 (and
// its guides roll node groups back that way). Modelled on both: an earlier release of the same
// minor is attempted, and EKS's answer is the roll's; an earlier minor is refused in the plan —
// going back a minor is a control-plane rollback, which EKS does not offer.
import type { ManagedGroupInfo } from "../../plan/index.js";
import type { Versions } from "../../roll/before.js";

export function managedVersions(live: ManagedGroupInfo): Versions {
  const lt = live.launchTemplate?.resolved;
  return {
    kubernetesVersion: live.version,
    releaseVersion: live.releaseVersion,
    ...(lt !== undefined && { launchTemplateVersion: lt }),
  };
}

const minor = (v?: string) => Number(v?.split(".")[1] ?? NaN);

export function managedRollbackRefusal(from: Versions, now: Versions): string | undefined {
  if (!from.kubernetesVersion || !now.kubernetesVersion) return undefined;
  if (minor(from.kubernetesVersion) >= minor(now.kubernetesVersion)) return undefined;
  return `it would go back from Kubernetes ${now.kubernetesVersion} to ${from.kubernetesVersion}: EKS does not take a node group to an earlier Kubernetes version (UpdateNodegroupVersion), and going back a minor means a control-plane rollback, which EKS does not offer`;
}
