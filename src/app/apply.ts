// The application layer's apply, for the command line, the action, the rehearsal and tests
// alike: plan the policy from live state, show the plan (the caller's `onPlan`), then carry that
// plan out (engine/apply.ts, which checks its decisions again before each group). A plan that
// cannot be made — the cluster not the policy's, an API that does not answer — throws: nothing
// was started, and the caller says so as it says any error.
import { apply, notStarted, type ApplyOptions, type ApplyResult } from "../engine/apply.js";
import type { Plan } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { Reporter } from "../ports/index.js";
import { runOptions, type PlanOptions } from "../engine/index.js";
import { driveOf, readAndPlan, type Planned, type PlanRequest, type Session } from "./session.js";

export interface ApplyRequest extends Omit<PlanRequest, "rehearse"> {
  /** Where the roll's events go (an EventLog the caller listens to). */
  log: Reporter;
  apply: Omit<ApplyOptions, "planner" | "signal">;
  /** The plan, before anything is changed: the caller shows it (a terminal, a log, a check run). */
  onPlan?: (planned: Planned) => void;
}

/** Plan, show, roll. The result carries the plan it carried out. */
export async function applyPolicy(
  session: Session,
  req: ApplyRequest,
): Promise<ApplyResult & { plan: Plan }> {
  const planned = await readAndPlan(session, req, true);
  req.onPlan?.(planned);
  const { policy } = req;
  const result = await driveOf(session)(
    apply(policy, planned.plan, session.ports, req.log, {
      ...req.apply,
      planner: planned.planner,
      ...(session.signal && { signal: session.signal }),
    }),
  );
  return { ...result, plan: planned.plan };
}

export interface PlanAndApplyOptions
  extends Omit<ApplyOptions, "planner">, PlanOptions, Pick<PlanRequest, "planner"> {}

/**
 * applyPolicy in one call, for a test or the rehearsal's twin: a plan that cannot be made is
 * the run's failure (or its cancellation), said as apply says its own.
 */
export async function planAndApply(
  policy: Policy,
  file: string,
  ports: Session["ports"],
  log: Reporter,
  options: PlanAndApplyOptions,
): Promise<ApplyResult & { plan?: Plan }> {
  const { replaceAll, deleteAfterDrainTimeout, groups, planner, signal, ...rest } = options;
  let planned = false;
  try {
    return await applyPolicy(
      { ports, ...(signal && { signal }) },
      {
        policy,
        file,
        options: runOptions({ replaceAll, deleteAfterDrainTimeout, ...(groups && { groups }) }),
        log,
        apply: rest,
        onPlan: () => (planned = true),
        ...(planner && { planner }),
      },
    );
  } catch (e) {
    // Only a plan that could not be made is an outcome; apply reports its own failures.
    if (planned) throw e;
    return notStarted(e, signal);
  }
}
