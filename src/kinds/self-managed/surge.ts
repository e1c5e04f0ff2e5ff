// The surge of a self-managed group, kOps' way: an instance is marked (its node labelled, the
// instance tagged) and detached from its group without a decrement, so the group launches its
// replacement while the old node still serves; it is drained and terminated last.
//
// A detach Auto Scaling refuses (no autoscaling:DetachInstances, say) gives the surge up, as
// kOps does (pkg/instancegroups: a failed detach is logged and the roll goes on, the surge
// reduced): the marks come off the instance that stayed, the rest of the group is replaced in
// place, and the nodes the surge would have added may be out of service instead — the window
// stays maxSurge + maxUnavailable wide, as kOps' maxConcurrency does. Like kOps, a refusal of
// one instance (one in Standby, one a lifecycle hook holds) moves on to the next candidate; a
// denied permission refuses every instance alike, so it gives up the rest of the surge at once.
// Said in the events (surge.given-up), with why.
import { abortError } from "../../ports/index.js";
import { DETACHED_LABEL, type Replacement } from "../../plan/index.js";
import { AwsApiError, isDenied } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";
import { updateNode } from "../../roll/marks.js";
import { groupWritten, protectNewNodes, waitForCapacity } from "./capacity.js";
import type { Job } from "./job.js";
import { leftByOthers } from "./left.js";
import { tagForSurge, untagSurge } from "./surge-tag.js";
import { detachConfirmed } from "./writes.js";

type Detached = "detached" | "left" | { refused: AwsApiError };

/** Label `r`'s node with the surge mark (`on`), or take the mark off. */
async function markNode(ctx: RollContext, job: Job, r: Replacement, on: boolean): Promise<void> {
  if (!r.node) return;
  const value = on ? job.plan.name : undefined;
  await updateNode(
    ctx,
    r.node,
    (n) =>
      n.metadata.labels?.[DETACHED_LABEL] === value
        ? undefined
        : { labels: { [DETACHED_LABEL]: value ?? null } },
    job.nodes.byName.get(r.node),
  );
}

/** Detach `r` for surge: detached, left (someone else scaled it in meanwhile), or refused. */
async function detach(ctx: RollContext, job: Job, r: Replacement): Promise<Detached> {
  // Mark first, the instance and its node: a run that dies between marking and detaching still
  // finds the instance as ours, and the tag finds it even once its node object is gone.
  await tagForSurge(ctx, job, r.instance);
  await markNode(ctx, job, r, true);
  let done: Awaited<ReturnType<typeof detachConfirmed>>;
  try {
    done = await detachConfirmed(ctx, job.plan.name, r.instance);
  } catch (e) {
    // What reaches here is Auto Scaling refusing an instance still in the group: throttling
    // and lost answers were retried and settled below (ports/resilient.ts, writes.ts).
    if (!(e instanceof AwsApiError) || ctx.signal.aborted) throw e;
    await untagSurge(ctx, job, r.instance);
    await markNode(ctx, job, r, false);
    return { refused: e };
  }
  groupWritten(job);
  // Scaled in (or detached) by someone else meanwhile: not a surge, and not ours (left.ts).
  if (done !== "done") {
    await leftByOthers(ctx, job, r, done, "before the roll detached it");
    return "left";
  }
  r.reasons.push({ kind: "detached-for-surge" });
  ctx.emit({ type: "instance.detach", group: job.plan.name, instance: r.instance });
  return "detached";
}

/** The surge not yet detached, given up after `instance`'s detach was refused: said, counted. */
function giveUp(ctx: RollContext, job: Job, instance: string, nodes: number, e: AwsApiError) {
  job.roll.surgeGivenUp = nodes;
  ctx.emit({
    type: "surge.given-up",
    group: job.plan.name,
    instance,
    nodes,
    reason: `${e.code}: ${e.message}`,
    maxUnavailable: job.plan.budgets.maxUnavailable + job.roll.surgeGivenUp,
  });
}

/**
 * Detach `n` of the candidates, taken in order (the next in place of one gone or refused), and
 * wait for the group's capacity. When the detaches are denied, or no candidate is left that Auto
 * Scaling would detach, the surge not yet made is given up: `planned` (this run's whole surge)
 * less what this run has detached so far (`job.roll.surged`).
 */
export async function surgeAndWait(
  ctx: RollContext,
  job: Job,
  candidates: Replacement[],
  n: number,
  o: { old: Set<string>; planned: number },
): Promise<void> {
  let detached = 0;
  let refused: { instance: string; e: AwsApiError } | undefined;
  while (detached < n && candidates.length > 0 && job.roll.surgeGivenUp === 0) {
    // A gate's halt (or the run's stop) between two detaches: no more surge.
    if (ctx.signal.aborted) throw abortError(ctx.signal);
    const r = candidates.shift() as Replacement;
    const result = await detach(ctx, job, r);
    if (result === "detached") {
      detached++;
      job.roll.surged++;
    } else if (result !== "left") {
      refused = { instance: r.instance, e: result.refused };
      // No permission to detach: every other instance would be refused alike.
      if (isDenied(result.refused)) break;
    }
  }
  if (detached < n && refused && job.roll.surgeGivenUp === 0)
    giveUp(ctx, job, refused.instance, o.planned - job.roll.surged, refused.e);
  await protectNewNodes(ctx, job, await waitForCapacity(ctx, job, (d) => d), o.old);
}
