// One release is promoted and nothing else changes on the way (issue 49): a policy a fleet names
// may leave a group's target to the fleet, or say the same; a different value is an error in the
// policy file, located to its line and column, naming the fleet that says otherwise.
import { diagnostic, formatPath, type Diagnostic } from "../policy/diagnostic.js";
import type { Policy, Target } from "../policy/schema.js";
import { locate, type PolicySource } from "../policy/source.js";
import type { Fleet } from "./schema.js";

const TARGET_KEYS = ["kubernetesVersion", "releaseVersion", "launchTemplateVersion"] as const;

export interface FleetPolicy {
  policy: Policy;
  source: PolicySource;
}

/** Every group target key of these policies that says something else than the fleet's release. */
export function releaseDisagreements(
  fleet: Fleet,
  fleetFile: string,
  policies: readonly FleetPolicy[],
): Diagnostic[] {
  return policies.flatMap(({ policy, source }) =>
    policy.groups.flatMap((group, i) =>
      TARGET_KEYS.flatMap((key) => {
        const own = group.target?.[key];
        const fleets = fleet.release[key];
        if (own === undefined || fleets === undefined || String(own) === String(fleets)) return [];
        const path = ["groups", i, "target"];
        return [
          diagnostic({
            file: source.file,
            ...locate(source, path, key),
            path: formatPath([...path, key]),
            message: `fleet "${fleet.metadata.name}" (${fleetFile}) rolls every group to ${key} ${JSON.stringify(fleets)}; this group says ${JSON.stringify(own)}: remove it here (the fleet sets it) or make it agree`,
            severity: "error",
          }),
        ];
      }),
    ),
  );
}

/** The fleet's release as a group's target: what apply rolls a group to under the fleet. */
export function underFleet(target: Target | undefined, release: Target): Target {
  return { ...target, ...release };
}
