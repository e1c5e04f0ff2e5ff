// A managed node group whose launch template names its own AMI (amiType CUSTOM) takes its AMI
// from a launch template version alone: EKS fails an UpdateNodegroupVersion that also names a
// Kubernetes or release version (UpdateNodegroupVersion, EKS API reference), and one without a
// release for an EKS optimized AMI takes the latest release for the version. The rule's one
// home: the plan's blocker and notes (findings.ts) and the update apply asks for and reads back
// (roll.ts) ask it here.
import type { Target } from "../../plan/index.js";

/** The group's launch template names its own AMI, not one of EKS's. */
export function isCustomAmi(amiType: string | undefined): boolean {
  return amiType === "CUSTOM";
}

/**
 * What of `target` EKS takes for a group of `amiType`: all of it for an EKS optimized AMI; for a
 * custom AMI, its launch template version alone — all an update sends, and all it moves.
 */
export function eksTarget(amiType: string | undefined, target: Target): Target {
  if (!isCustomAmi(amiType)) return target;
  const { launchTemplateVersion } = target;
  return launchTemplateVersion === undefined ? {} : { launchTemplateVersion };
}

/**
 * Versions named that EKS will not take for a group of `amiType`: a custom AMI's Kubernetes or
 * release version. With a launch template version its AMI decides; without one, the target
 * cannot be rolled to (customAmiRefusal).
 */
export function versionsSetAside(
  amiType: string | undefined,
  named: { kubernetesVersion?: string | undefined; releaseVersion?: string | undefined },
): boolean {
  return isCustomAmi(amiType) && Boolean(named.kubernetesVersion || named.releaseVersion);
}

/** What a person reads when a custom AMI's group is to be rolled with no launch template version. */
export function customAmiAdvice(group: string): string {
  return `node group ${group}'s launch template names a custom AMI (amiType CUSTOM): EKS takes no Kubernetes or release version for it. Put the new AMI in a launch template version and target it (launchTemplateVersion)`;
}

/** Why EKS cannot roll the group to `target`, or undefined: a custom AMI's versions alone. */
export function customAmiRefusal(
  group: string,
  amiType: string | undefined,
  target: Target,
): string | undefined {
  if (!versionsSetAside(amiType, target) || target.launchTemplateVersion !== undefined)
    return undefined;
  return customAmiAdvice(group);
}
