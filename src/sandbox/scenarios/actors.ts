// The other actors a scenario can put beside a roll (docs/sandbox.md, "Scenario files"): the
// cluster autoscaler, scaling out for pending pods and, when asked, in for nodes it finds
// unneeded; people scaling a group in while it rolls; and the Auto Scaling processes a group
// starts with suspended.
import { z } from "zod";
import { SCALING_PROCESSES } from "../model/processes.js";
import { seconds, share } from "./units.js";

/** Auto Scaling processes a group starts with suspended (a group frozen during an incident). */
export const suspendedProcesses = z.array(z.enum(SCALING_PROCESSES)).default([]);

/**
 * The cluster autoscaler. `scaleDown`, its scale-down (off unless asked): a node whose pods
 * request less than `utilization` of its CPU and of its memory for `unneededFor`, and not
 * annotated scale-down-disabled, is drained (evictions, PodDisruptionBudgets honoured) and its
 * instance terminated with a decrement, one node at a time, none within `delayAfterAdd` of a
 * scale-up — the cluster autoscaler's defaults (its FAQ, "How does scale-down work?").
 */
export const autoscaler = z
  .strictObject({
    enabled: z.boolean().default(false),
    scanInterval: seconds.default(10),
    pendingFor: seconds.default(30),
    scaleDown: z
      .strictObject({
        enabled: z.boolean().default(true),
        unneededFor: seconds.default(600),
        utilization: share.default(0.5),
        delayAfterAdd: seconds.default(600),
      })
      .optional(),
  })
  .prefault({});

/**
 * A scale-in by someone else: at `at` (from the start), or when the timeline first records an
 * event of type `after` for the group (`node.cordon`: as the roll cordons its first node). Either
 * the desired capacity set to `desired` (the group's termination policy picks what goes: a
 * person's `update-auto-scaling-group`), or `terminate` instances terminated with a decrement (as
 * the cluster autoscaler and a person at the console do), picked by `pick`: the `oldest`
 * launched, the `newest`, or those `draining` (cordoned) — the node a roll is draining.
 */
export const scaleIn = z
  .strictObject({
    group: z.string(),
    at: seconds.optional(),
    after: z.string().optional(),
    desired: z.number().int().nonnegative().optional(),
    terminate: z.number().int().min(1).optional(),
    pick: z.enum(["oldest", "newest", "draining"]).default("oldest"),
    by: z.string().default("person"),
  })
  .superRefine((s, ctx) => {
    if ((s.at === undefined) === (s.after === undefined))
      ctx.addIssue({ code: "custom", message: "a scale-in sets exactly one of at and after" });
    if ((s.desired === undefined) === (s.terminate === undefined))
      ctx.addIssue({
        code: "custom",
        message: "a scale-in sets exactly one of desired and terminate",
      });
  });

export type ScaleIn = z.infer<typeof scaleIn>;

/** The scenario's groups its actors name must exist. */
export function actorIssues(
  s: { nodeGroups: { name: string }[]; scaleIns: ScaleIn[] },
  ctx: z.RefinementCtx,
): void {
  s.scaleIns.forEach((x, i) => {
    if (!s.nodeGroups.some((g) => g.name === x.group))
      ctx.addIssue({
        code: "custom",
        path: ["scaleIns", i, "group"],
        message: `no node group "${x.group}" in this scenario`,
      });
  });
}
