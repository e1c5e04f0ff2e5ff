// Nodes the roll is to replace that are out of service already: NotReady, or unreachable (their
// kubelets no longer reporting); and instances to replace that have no node at all (isNoNode),
// which are told apart because they are not known to be out of service. The plan puts them first (schedule.ts); starting one costs the
// capacity budget nothing (window.ts); validation does not stop on them (validate.ts) and a wait
// for the group's capacity does not wait for them (capacity.ts): a dead node must not stop the
// roll that replaces it. Once the roll has terminated its instance, such a node is like any it
// terminated: the group's last validation waits for it to go.
import { isReady, type Node } from "../../ports/index.js";
import type { Job } from "./job.js";

/** Whether `n` is one of the job's nodes to replace, not Ready now, its instance still running. */
export function isDownReplacement(job: Job, n: Node): boolean {
  const { replaced, terminated } = job.roll;
  const name = n.metadata.name;
  return replaced.has(name) && !terminated.has(name) && !isReady(n);
}

/**
 * Whether instance `id` is one the plan named with no node that still has none: replaced first
 * and without a drain, but counted as available until the roll takes it out (a capacity wait
 * does not wait for it either).
 */
export function isNoNode(job: Job, id: string): boolean {
  return job.roll.noNode.has(id) && !job.nodes.byInstance(id);
}

/** The roll terminated the instance of `node`. */
export function noteTerminated(job: Job, node: string): void {
  job.roll.terminated.add(node);
}
