// How an EKS update empties and replaces a node: evict every pod but DaemonSet pods (PDBs
// honoured, 429s retried) for at most the drain timeout — then fail, or with `force` go on with
// the pods still running, since force terminates the old node whatever still runs on it (the
// `force` parameter of UpdateNodegroupVersion, EKS API reference) — cordon, wait, take
// the node out of load balancers, and terminate its instance through the group without a
// decrement, so a new node takes its place. The pods left die with the node.
import type { NodeRec, PodRec } from "../../model/records.js";
import type { EksContext } from "./eks-context.js";
import { EXCLUDE_LB_LABEL } from "./eks-labels.js";

/** Drain, cordon, wait, label, terminate. Returns the node's name when the drain failed. */
export async function replaceNode(
  ctx: EksContext,
  group: string,
  node: NodeRec,
  force: boolean,
): Promise<string[]> {
  const { clock, ec2, autoScaling, kube } = ctx;
  const ok = await drainNode(ctx, group, node, force);
  if (!ok) return [node.name];
  if (!node.unschedulable) kube.patchNode(node.name, { unschedulable: true }, "eks");
  ctx.timeline.record("eks.wait", {
    group,
    node: node.name,
    seconds: ctx.timings.postDrainSeconds,
  });
  await clock.sleep(ctx.timings.postDrainSeconds * 1000);
  if (kube.nodes.has(node.name))
    kube.patchNode(node.name, { labels: { [EXCLUDE_LB_LABEL]: "true" } }, "eks");
  const inst = ec2.instances.get(node.instanceId);
  if (inst && inst.asg) autoScaling.terminateInGroup(inst.id, false, "eks");
  return [];
}

/** Evict every pod but DaemonSet pods until the node is empty, for at most drainTimeout. */
export async function drainNode(
  ctx: EksContext,
  group: string,
  node: NodeRec,
  force: boolean,
): Promise<boolean> {
  const { clock, kube, timeline } = ctx;
  const deadline = clock.nowMs() + ctx.timings.drainTimeoutSeconds * 1000;
  timeline.record("node.drain.start", { group, node: node.name, by: "eks" });
  const evicted = new Set<string>();
  const movable = () =>
    [...node.pods].filter((p: PodRec) => !p.gone && p.workload?.kind !== "DaemonSet");
  const names = (pods: PodRec[]) => pods.map((p) => `${p.namespace}/${p.name}`);
  for (;;) {
    const left = movable();
    if (left.length === 0) break;
    for (const p of left) {
      if (p.deletionAt !== undefined) continue;
      const out = kube.evict(p.namespace, p.name, { by: "eks" });
      if (out.status === 201) evicted.add(`${p.namespace}/${p.name}`);
    }
    if (movable().length === 0) break;
    if (clock.nowMs() >= deadline) {
      const end = { group, node: node.name, evicted: evicted.size };
      if (!force) {
        timeline.record("node.drain.end", {
          ...end,
          result: "failure",
          remaining: names(movable()),
        });
        return false;
      }
      // Nothing is deleted: the node is terminated with them (see replaceNode).
      timeline.record("node.drain.end", { ...end, remaining: names(movable()), result: "forced" });
      return true;
    }
    await clock.sleep(ctx.timings.evictionRetrySeconds * 1000);
  }
  timeline.record("node.drain.end", {
    group,
    node: node.name,
    evicted: evicted.size,
    result: "success",
  });
  return true;
}
