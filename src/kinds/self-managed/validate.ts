// Cluster validation for a self-managed group's roll, from the engine's watched node cache.
import type { Node } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";
import { concerns, nodeFailures, validateUntilStable } from "../../roll/validate.js";
import type { Job } from "./job.js";
import { isDownReplacement } from "./down.js";
import { machineFailures } from "./capacity.js";

/**
 * The group's nodes as validation sees them: without the nodes whose instances this roll has
 * terminated (kOps deletes such a node before terminating its instance; here the node
 * controller removes it shortly after, and until then it is gone by our hand, not failing),
 * and without the nodes it is to replace while they are not Ready (down.ts). kOps validates
 * them all and stops on a dead node; its issue 11367
 * (https://github.com/kubernetes/kops/issues/11367) proposed this instead. New nodes that do
 * not turn Ready still fail it.
 */
function seen(job: Job, gone: ReadonlySet<string>): () => Iterable<Node> {
  return () =>
    [...job.nodes.byName.values()].filter(
      (n) => !gone.has(n.metadata.name) && !isDownReplacement(job, n),
    );
}

/**
 * Which validation: kOps' whole (`machines`: every member of the group joined the cluster, as
 * many as its desired capacity), or the cluster's alone — what the sliding window asks between
 * nodes once the canary's replacement has joined (window.ts says why).
 */
export interface GroupValidation {
  /** Nodes of instances this roll terminated: gone by our hand, not failing validation. */
  gone?: ReadonlySet<string>;
  /** When part of the validation timeout was spent waiting already. */
  startedAt?: number;
  /** Count the group's machines (default): false only between nodes after the canary. */
  machines?: boolean;
}

/**
 * Validate `count` times in a row, within the group's validation timeout (counted from
 * `startedAt` when part of it has been spent waiting already).
 */
export function validateGroup(
  ctx: RollContext,
  job: Job,
  count: number,
  o: GroupValidation = {},
): Promise<void> {
  return validateUntilStable(ctx, job.ownerOf, job.plan.name, {
    count,
    learn: job.learnOwners,
    timeoutMs: job.plan.settings.validation.timeoutMs,
    nodes: seen(job, o.gone ?? new Set()),
    ...(o.machines !== false && { machines: () => machineFailures(ctx, job) }),
    ...(o.startedAt !== undefined && { startedAt: o.startedAt }),
  });
}

/**
 * Whether validation would pass now, from the watched cache and the read of the group that
 * stands (a request only for a node not Ready that no group read places, once per run, or when
 * a node joined that no read knows): the window asks this on every node change and validates
 * only once it holds, so a validation runs as soon as it can pass instead of on a fixed period.
 */
export async function nodesValid(
  ctx: RollContext,
  job: Job,
  o: GroupValidation = {},
): Promise<boolean> {
  const nodes = [...seen(job, o.gone ?? new Set())()];
  // A node no group read places (another group's) is looked up once, then known.
  await job.learnOwners(nodes);
  if (!nodeFailures(nodes, job.ownerOf).every((f) => !concerns(f, job.plan.name))) return false;
  return o.machines === false || (await machineFailures(ctx, job)).length === 0;
}
