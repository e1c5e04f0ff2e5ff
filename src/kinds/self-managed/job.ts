// One self-managed group's roll and what it keeps while it goes: made when the group's roll
// starts (rollSelfManaged), gone with it, so nothing of one group's roll — or of one run's —
// outlives it or reaches another. Each field says which step keeps it; the roll reads its
// decisions from the plan, live state and its marks, and these only spare it reading again.
import type { SelfManagedGroupInfo } from "../../plan/index.js";
import type { AutoScalingGroup } from "../../ports/index.js";
import type { GateWatch } from "../../roll/gates.js";
import type { GroupJob, ReadyPlan } from "../kind.js";

/**
 * The group as last read (capacity.ts): when (monotonic ms), how many of the roll's writes to
 * it there had been, how many nodes had joined the cluster (NodeCache), and its instances.
 */
export interface GroupRead {
  at: number;
  writes: number;
  joins: number;
  members: ReadonlySet<string>;
  asg: AutoScalingGroup;
}

export class GroupRoll {
  /** capacity.ts: the last read of the group, reused while it still answers. */
  lastRead?: GroupRead;
  /** capacity.ts: the roll's writes to the group's members (detach, terminate) so far. */
  writes = 0;
  /** down.ts: the nodes the plan replaces, and the instances it replaces that had no node. */
  readonly replaced: ReadonlySet<string>;
  readonly noNode: ReadonlySet<string>;
  /** capacity.ts: the instances the plan replaces; any other member is new (or someone's). */
  readonly planned: ReadonlySet<string>;
  /** down.ts: the nodes whose instances the roll has terminated. */
  readonly terminated = new Set<string>();
  /** left.ts: instances found gone by someone else's hand; the upgrade does not come back. */
  readonly left = new Set<string>();
  /** surge-tag.ts: the surge tag was refused (no ec2:CreateTags), and that was said once. */
  untagged = false;
  /** surge.ts: instances this run detached for surge. */
  surged = 0;
  /**
   * surge.ts: surge nodes given up when Auto Scaling refused a detach; they may be out of
   * service instead (capacity.ts adds them to maxUnavailable), as kOps' window stays as wide.
   */
  surgeGivenUp = 0;
  /** gates.ts: the group's health gates, read while it rolls. */
  gates?: GateWatch;
  /** window.ts: the nodes started since the last validation (the wave a halt names). */
  wave: string[] = [];
  /** gates.ts: the checkpoints this run has reached. */
  readonly checkpointsPassed = new Set<number>();

  constructor(plan: ReadyPlan) {
    this.replaced = new Set(plan.replacements.flatMap((r) => (r.node ? [r.node] : [])));
    this.planned = new Set(plan.replacements.map((r) => r.instance));
    this.noNode = new Set(
      plan.replacements.flatMap((r) => (r.down === "no-node" ? [r.instance] : [])),
    );
  }
}

/** A self-managed group's job: the plan and the run around it, and its roll's own state. */
export type Job = GroupJob<SelfManagedGroupInfo> & { readonly roll: GroupRoll };

/** The job of a group's roll, with a fresh state. */
export function selfManagedJob(job: GroupJob<SelfManagedGroupInfo>): Job {
  return { ...job, roll: new GroupRoll(job.plan) };
}
