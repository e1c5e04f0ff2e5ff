// Plan, show, roll — once: the application layer's apply without what follows a halt
// (apply.ts: a rollback, when the policy asks for one). Apart so that a rollback, itself a roll,
// uses it too.
import { apply, type ApplyOptions, type ApplyResult } from "../engine/apply.js";
import type { Plan } from "../plan/index.js";
import type { Reporter } from "../ports/index.js";
import { driveOf, readAndPlan, type Planned, type PlanRequest, type Session } from "./session.js";

export interface ApplyRequest extends Omit<PlanRequest, "rehearse"> {
  /** Where the roll's events go (an EventLog the caller listens to). */
  log: Reporter;
  apply: Omit<ApplyOptions, "planner" | "signal">;
  /**
   * The plan, before anything is changed: the caller shows it (a terminal, a log, a check run),
   * and may decline it (false: nothing is changed, as a person who answers "no" at a terminal),
   * or give the plan to carry out instead: one saved earlier (`noderoll apply FILE`), which it
   * has found still holds against this one (plan/saved.ts).
   */
  onPlan?: (planned: Planned) => void | boolean | Plan | Promise<void | boolean | Plan>;
}

/** Plan, show, roll. The result carries the plan it carried out. */
export async function carryOut(
  session: Session,
  req: ApplyRequest,
): Promise<ApplyResult & { plan: Plan }> {
  const planned = await readAndPlan(session, req, true);
  const shown = await req.onPlan?.(planned);
  if (shown === false)
    return {
      result: "failure",
      message: "Apply cancelled: the plan was not approved; nothing was changed.",
      plan: planned.plan,
    };
  const plan = typeof shown === "object" ? shown : planned.plan;
  const { policy } = req;
  const result = await driveOf(session)(
    apply(policy, plan, session.ports, req.log, {
      ...req.apply,
      planner: planned.planner,
      ...(session.signal && { signal: session.signal }),
    }),
  );
  return { ...result, plan };
}
