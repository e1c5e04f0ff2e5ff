// Cluster validation for a self-managed group's roll, from the engine's watched node cache.
import type { SelfManagedGroupInfo } from "../../plan/index.js";
import type { RollContext } from "../../roll/context.js";
import { validateUntilStable } from "../../roll/validate.js";
import type { GroupJob } from "../kind.js";

/** Validate `count` times in a row, within the group's validation timeout. */
export function validateGroup(
  ctx: RollContext,
  job: GroupJob<SelfManagedGroupInfo>,
  count: number,
): Promise<void> {
  return validateUntilStable(ctx, job.ownerOf, job.plan.name, {
    count,
    timeoutMs: job.plan.settings.validation.timeoutMs,
    nodes: () => job.nodes.byName.values(),
  });
}
