// The application layer's apply, for the command line, the action, the rehearsal and tests alike:
// plan the policy from live state, then carry that plan out (engine/apply.ts, which checks the
// plan's decisions again before each group). A plan that cannot be made — the cluster not the
// policy's, an API that does not answer — is the run's failure, said as apply says its own.
import {
  apply,
  notStarted,
  type ApplyOptions,
  type ApplyPorts,
  type ApplyResult,
} from "../engine/apply.js";
import { Planner, type PlanOptions } from "../engine/index.js";
import type { Plan } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { Reporter } from "../ports/index.js";

export interface PlanAndApplyOptions extends ApplyOptions, PlanOptions {}

/** Plan, then apply the plan; the plan is in the result when it was made. */
export async function planAndApply(
  policy: Policy,
  file: string,
  ports: ApplyPorts,
  log: Reporter,
  options: PlanAndApplyOptions,
): Promise<ApplyResult & { plan?: Plan }> {
  const planner =
    options.planner ??
    new Planner(policy, file, {
      force: options.force ?? false,
      ...(options.groups && { groups: options.groups }),
    });
  let plan: Plan;
  try {
    ({ plan } = await planner.observe({
      ...ports,
      ...(options.signal && { signal: options.signal }),
    }));
  } catch (e) {
    return notStarted(e, options.signal);
  }
  return { ...(await apply(policy, plan, ports, log, { ...options, planner })), plan };
}
