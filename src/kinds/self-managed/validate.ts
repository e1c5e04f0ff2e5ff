// Cluster validation for a self-managed group's roll, from the engine's watched node cache.
import type { Node } from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";
import { concerns, nodeFailures, validateUntilStable } from "../../roll/validate.js";
import type { Job } from "./job.js";
import { isDownReplacement } from "./down.js";

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
 * Validate `count` times in a row, within the group's validation timeout (counted from
 * `startedAt` when part of it has been spent waiting already).
 */
export function validateGroup(
  ctx: RollContext,
  job: Job,
  count: number,
  gone: ReadonlySet<string> = new Set(),
  startedAt?: number,
): Promise<void> {
  return validateUntilStable(ctx, job.ownerOf, job.plan.name, {
    count,
    learn: job.learnOwners,
    timeoutMs: job.plan.settings.validation.timeoutMs,
    nodes: seen(job, gone),
    ...(startedAt !== undefined && { startedAt }),
  });
}

/**
 * Whether the nodes' part of validation would pass now, from the watched cache (a request only
 * for a node not Ready that no group read places, once per run): the window asks this on every node change and validates only once it holds, so a
 * validation runs as soon as it can pass instead of on a fixed period.
 */
export async function nodesValid(job: Job, gone: ReadonlySet<string>): Promise<boolean> {
  const nodes = [...seen(job, gone)()];
  // A node no group read places (another group's) is looked up once, then known.
  await job.learnOwners(nodes);
  return nodeFailures(nodes, job.ownerOf).every((f) => !concerns(f, job.plan.name));
}
