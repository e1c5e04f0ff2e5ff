// The marks noderoll leaves on objects, so that every decision can be recomputed from live
// state by a later run (stateless resume), and the node patches that set and clear them.
import { instanceIdOf, KubeApiError, type Node, type Taint } from "../ports/index.js";
import {
  CORDONED_ANNOTATION,
  DETACHED_LABEL,
  EXCLUDE_LB_LABEL,
  SCALE_DOWN_BY_US,
  SCALE_DOWN_DISABLED,
  SCHEDULED_TAINT as SCHEDULED,
} from "../plan/marks.js";
import type { RollContext } from "./context.js";

export {
  CORDONED_ANNOTATION,
  DETACHED_LABEL,
  EXCLUDE_LB_LABEL,
  SCALE_DOWN_BY_US,
  SCALE_DOWN_DISABLED,
} from "../plan/marks.js";
/** kOps' PreferNoSchedule taint, under our own key (plan/marks.ts names every mark). */
export const SCHEDULED_TAINT: Taint = { ...SCHEDULED };

/**
 * Read, change, write with the node's resourceVersion; retried on conflicts. `known` is the
 * node as the watched cache has it: the first write goes from it without a read — the
 * resourceVersion precondition makes that safe, a stale copy only costs a 409 and a read. When
 * the cached copy needs no change it is read from the API to make sure.
 */
export async function updateNode(
  ctx: RollContext,
  name: string,
  change: (n: Node) => Parameters<RollContext["cluster"]["patchNode"]>[1] | undefined,
  known?: Node,
): Promise<Node | undefined> {
  let cached = known?.metadata.resourceVersion ? known : undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const node =
      cached ??
      (await ctx.cluster.getNode(name).catch((e: unknown) => {
        if (e instanceof KubeApiError && e.status === 404) return undefined;
        throw e;
      }));
    const fromCache = cached !== undefined;
    cached = undefined;
    if (!node) return undefined;
    const patch = change(node);
    if (!patch) {
      if (fromCache) {
        attempt--;
        continue;
      }
      return node;
    }
    try {
      return await ctx.cluster.patchNode(name, {
        ...patch,
        ...(node.metadata.resourceVersion && { resourceVersion: node.metadata.resourceVersion }),
      });
    } catch (e) {
      if (!(e instanceof KubeApiError) || e.status !== 409) throw e;
    }
  }
  throw new Error(`node ${name} kept changing under us; gave up after 5 attempts`);
}

export const hasTaint = (n: Node, t: Taint) =>
  (n.spec.taints ?? []).some((x) => x.key === t.key && x.effect === t.effect);

export async function addTaint(
  ctx: RollContext,
  name: string,
  taint: Taint,
  known?: Node,
): Promise<boolean> {
  let added = false;
  await updateNode(
    ctx,
    name,
    (n) => {
      added = false;
      if (hasTaint(n, taint)) return undefined;
      added = true;
      return { taints: [...(n.spec.taints ?? []), taint] };
    },
    known,
  );
  return added;
}

/**
 * Cordon (our mark with it), and with `excludeLb` exclude from external load balancers: one
 * patch, from the cached node when there is one.
 */
export async function cordon(
  ctx: RollContext,
  name: string,
  runId: string,
  o: { excludeLb?: boolean; known?: Node } = {},
): Promise<void> {
  await updateNode(
    ctx,
    name,
    (n) => {
      const cordoned = n.spec.unschedulable && n.metadata.annotations?.[CORDONED_ANNOTATION];
      const excluded = !o.excludeLb || n.metadata.labels?.[EXCLUDE_LB_LABEL] === "true";
      if (cordoned && excluded) return undefined;
      return {
        ...(!cordoned && { unschedulable: true, annotations: { [CORDONED_ANNOTATION]: runId } }),
        ...(!excluded && { labels: { [EXCLUDE_LB_LABEL]: "true" } }),
      };
    },
    o.known,
  );
}

/**
 * Marks left on nodes that no longer need replacing (a policy change, an earlier run): cleared.
 * `members`: the group's instances; a member's node marked for surge was never detached (the
 * run died between the mark and the detach), and loses the mark too.
 */
export async function clearStaleMarks(
  ctx: RollContext,
  keep: Set<string>,
  groupNodes: Node[],
  members: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (const n of groupNodes)
    if (!keep.has(n.metadata.name))
      await clearMarks(ctx, n.metadata.name, members.has(instanceIdOf(n) ?? ""));
}

/**
 * Undo our marks on a node that no longer needs replacing; someone else's cordon stays. The
 * surge mark only on a `member` of its group: a detached instance's node keeps it.
 */
export async function clearMarks(ctx: RollContext, name: string, member = false): Promise<boolean> {
  let changed = false;
  await updateNode(ctx, name, (n) => {
    const ours = n.metadata.annotations?.[CORDONED_ANNOTATION] !== undefined;
    const tainted = hasTaint(n, SCHEDULED_TAINT);
    const excluded = ours && n.metadata.labels?.[EXCLUDE_LB_LABEL] !== undefined;
    const marked = member && n.metadata.labels?.[DETACHED_LABEL] !== undefined;
    if (!ours && !tainted && !marked) return undefined;
    changed = true;
    return {
      ...(ours && { unschedulable: false, annotations: { [CORDONED_ANNOTATION]: null } }),
      ...((excluded || marked) && {
        labels: {
          ...(excluded && { [EXCLUDE_LB_LABEL]: null }),
          ...(marked && { [DETACHED_LABEL]: null }),
        },
      }),
      ...(tainted && {
        taints: (n.spec.taints ?? []).filter((x) => x.key !== SCHEDULED_TAINT.key),
      }),
    };
  });
  return changed;
}

/**
 * Give nodes back to the cluster autoscaler where noderoll kept it off them (a run killed before
 * its scale-down did it): nodes of a group with nothing left to replace. True when any changed.
 */
export async function releaseScaleDown(ctx: RollContext, nodes: readonly Node[]): Promise<boolean> {
  let changed = false;
  for (const n of nodes) {
    if (n.metadata.annotations?.[SCALE_DOWN_BY_US] === undefined) continue;
    await updateNode(
      ctx,
      n.metadata.name,
      (x) => {
        if (x.metadata.annotations?.[SCALE_DOWN_BY_US] === undefined) return undefined;
        changed = true;
        return { annotations: { [SCALE_DOWN_DISABLED]: null, [SCALE_DOWN_BY_US]: null } };
      },
      n,
    );
  }
  return changed;
}
