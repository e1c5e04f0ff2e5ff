// The application layer's apply, for the command line, the action, the rehearsal and tests
// alike: plan the policy from live state, show the plan (the caller's `onPlan`), then carry that
// plan out (engine/apply.ts, which checks its decisions again before each group). A plan that
// cannot be made — the cluster not the policy's, an API that does not answer — throws: nothing
// was started, and the caller says so as it says any error.
import { notStarted, type ApplyOptions, type ApplyResult } from "../engine/apply.js";
import type { Plan } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { Reporter } from "../ports/index.js";
import { runOptions, type PlanOptions } from "../engine/index.js";
import { carryOut, type ApplyRequest } from "./carry-out.js";
import { rollBack } from "./rollback.js";
import type { PlanRequest, Session } from "./session.js";

export type { ApplyRequest };

/**
 * Plan, show, roll; and when a gate halts a group whose policy says `onFailure: rollback`, or an
 * abort asks for one, the groups the run reached go back to what they ran before (rollback.ts).
 * The result carries the plan it carried out, and says what the rollback did.
 */
export async function applyPolicy(
  session: Session,
  req: ApplyRequest,
): Promise<ApplyResult & { plan: Plan }> {
  const result = await carryOut(session, req);
  const back = rollbackAfter(result);
  if (!back) return result;
  req.log.emit({ type: "note", message: `${back.why}: rolling back ${back.groups.join(", ")}` });
  const { onPlan: _shown, ...rest } = req;
  const rolled = await rollBack(session, {
    ...rest,
    only: back.groups,
    ofRun: req.apply.runId,
    ...(back.withoutGate && { withoutGate: back.withoutGate }),
  });
  // The groups its plan took back: those the record names for this run, of the groups reached.
  const took = rolled.plan?.groups.map((g) => g.name) ?? [];
  const said =
    rolled.result === "success"
      ? `Rolled back: ${took.join(", ")} on what ${took.length === 1 ? "it" : "they"} ran before.`
      : `The rollback did not finish: ${rolled.message}`;
  return { ...result, message: `${result.message} ${said}` };
}

/**
 * Whether a rollback follows the run, of which groups, and why: a gate halted a group whose
 * policy says `onFailure: rollback` (the groups up to it, the failed gate left out), or an abort
 * asked for one (`noderoll abort --rollback`: every group of the plan a roll recorded).
 */
function rollbackAfter(
  r: ApplyResult & { plan: Plan },
): { groups: string[]; withoutGate?: string; why: string } | undefined {
  const order = r.plan.groups.map((g) => g.name);
  const h = r.halted;
  const halted = h && r.plan.groups.find((g) => g.name === h.group);
  // Only a failed gate: an inconclusive one that halts says nothing of the release.
  if (h?.verdict === "fail" && halted?.settings?.gates.onFailure === "rollback")
    return {
      groups: order.slice(0, order.indexOf(h.group) + 1),
      withoutGate: h.gate,
      why: `gate ${h.gate} failed on ${h.group} (onFailure: rollback)`,
    };
  if (r.stop?.kind === "aborted" && r.stop.rollback)
    return { groups: order, why: `aborted with rollback by ${r.stop.by ?? "someone"}` };
  return undefined;
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
