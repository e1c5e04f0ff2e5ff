// Which of EKS's four update phases a managed node group is in, from what can be seen of it:
// the Auto Scaling group grows (scale-up), old nodes are cordoned or go (upgrade), none of the
// old instances is left (scale-down). EKS does not report its phase; the user guide's
// description of the phases (https://docs.aws.amazon.com/eks/latest/userguide/managed-node-update-behavior.html)
// says what each looks like from outside.
import { PHASES, type Phase } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";

/** What EKS puts on the old nodes once the new ones are Ready (the user guide, scale-up phase). */
export const EKS_UPDATE_TAINT = {
  key: "eks.amazonaws.com/nodegroup",
  value: "unschedulable",
  effect: "NoSchedule",
} as const;

export class PhaseTracker {
  current: Phase = "setup";

  constructor(
    private readonly ctx: RollContext,
    private readonly group: string,
    private readonly original: { desired: number; max: number },
    private readonly old: Set<string>,
  ) {
    ctx.emit({ type: "phase.start", group, phase: "setup" });
  }

  moveTo(next: Phase, message?: string): void {
    while (PHASES.indexOf(this.current) < PHASES.indexOf(next)) {
      this.ctx.emit({
        type: "phase.end",
        group: this.group,
        phase: this.current,
        result: "success",
        ...(message && { message }),
      });
      this.current = PHASES[PHASES.indexOf(this.current) + 1] as Phase;
      this.ctx.emit({ type: "phase.start", group: this.group, phase: this.current });
    }
  }

  /**
   * The sizes, and the old nodes still there: how many EKS has cordoned or tainted. The upgrade
   * starts when EKS taints the old nodes at the end of its scale-up — whether it cordons each
   * after its drain (the user guide) or all at once (awsdocs/amazon-eks-user-guide pull request
   * 1229) — so a drain that is blocked for 15 minutes is reported as the upgrade it is.
   */
  observe(
    sizes: { desired: number; max: number },
    old: { left: number; cordoned: number; tainted: number },
  ): void {
    if (sizes.desired > this.original.desired || sizes.max > this.original.max)
      this.moveTo("scale-up");
    if (old.tainted > 0 || old.cordoned > 0 || old.left < this.old.size) this.moveTo("upgrade");
    if (old.left === 0 && this.old.size > 0) this.moveTo("scale-down");
  }

  finish(result: "success" | "failure" | "cancelled", message?: string): void {
    if (result === "success") this.moveTo("scale-down");
    this.ctx.emit({
      type: "phase.end",
      group: this.group,
      phase: this.current,
      result,
      ...(message && { message }),
    });
    for (const p of PHASES.slice(PHASES.indexOf(this.current) + 1)) {
      this.ctx.emit({ type: "phase.start", group: this.group, phase: p });
      this.ctx.emit({ type: "phase.end", group: this.group, phase: p, result: "skipped" });
    }
  }
}
