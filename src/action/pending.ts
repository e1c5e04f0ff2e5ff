// Whether a policy the run did not come for still has work. GitHub cancels a *pending* job when
// a newer one joins its concurrency group (GitHub docs, "Control the concurrency of workflows
// and jobs"), so a merge queued behind a roll can be dropped by the next merge; and a roll that
// stopped at the window or at max-duration is continued by nobody. So a push (or a schedule)
// plans every policy the input names, and applies the ones it did not change only when their
// plan has nodes to replace or configuration to set — never one that is merely blocked.
import * as core from "@actions/core";
import { info } from "./log.js";
import { planPolicy } from "../app/plan.js";
import { hasChanges } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import { errorMessage, type PolicyOutcome, type RunContext } from "./context.js";

export interface Pending {
  apply: boolean;
  /** Why it is applied, or why not. */
  why: string;
  hasChanges: boolean;
}

export async function pendingWork(
  ctx: RunContext,
  file: string,
  policy: Policy,
  what: string,
): Promise<Pending> {
  try {
    const ports = await ctx.connect(policy);
    const { plan } = await planPolicy({ ports, signal: ctx.signal }, { policy, file, options: {} });
    const s = plan.summary;
    const changes = hasChanges(plan);
    if (s.groupsToRoll + s.configChanges + s.cleanups > 0)
      return {
        apply: true,
        hasChanges: changes,
        why: `${what} did not change ${file}, but its plan has ${s.nodesToReplace} node(s) to replace, ${s.configChanges} config change(s) and ${s.cleanups} group(s) with marks an earlier run left (a merge whose run was cancelled, a roll that stopped early, a newer release, or drift): applying it`,
      };
    return {
      apply: false,
      hasChanges: changes,
      why:
        s.blocked > 0
          ? `${what} did not change ${file}; its plan is blocked, so it is left for a pull request or a dispatch`
          : `${what} did not change ${file}, and the cluster matches it: nothing to do`,
    };
  } catch (e) {
    return {
      apply: false,
      hasChanges: false,
      why: `${file} could not be planned: ${errorMessage(e)}`,
    };
  }
}

/** The outcome of a policy left alone, logged. */
export function leftAlone(file: string, name: string, p: Pending): PolicyOutcome {
  if (p.hasChanges) core.warning(p.why);
  else info(p.why);
  return { file, name, result: "skipped", hasChanges: p.hasChanges, message: p.why };
}
