// Draining a node with kubectl drain's semantics: DaemonSet and mirror pods stay, the rest are
// evicted through the eviction API (so PodDisruptionBudgets decide), a 429 is retried after
// its Retry-After (or 5 s), a 500 (several PDBs select the pod) is reported as such and retried,
// and deletion is awaited by a watch. Past drainTimeout the drain fails with
// PodEvictionFailure naming pods and PDBs — unless force, which deletes what is left and says so.
import { listAll, pageOf, type Pod } from "../ports/index.js";
import { RollError, isAbort, type RollContext } from "./context.js";

export interface DrainOptions {
  group: string;
  node: string;
  timeoutMs: number;
  force: boolean;
}

export interface DrainResult {
  evicted: number;
  deleted: string[];
}

const RETRY_MS = 5_000;
const podId = (p: Pod) => `${p.metadata.namespace}/${p.metadata.name}`;

/** The pods a drain must move: not DaemonSet pods, not mirror pods. */
export function podsToMove(pods: Pod[]): Pod[] {
  return pods.filter((p) => {
    if (p.metadata.annotations?.["kubernetes.io/config.mirror"] !== undefined) return false;
    return !p.metadata.ownerReferences?.some(
      (o) => o.kind === "DaemonSet" && o.controller !== false,
    );
  });
}

async function podsOn(
  ctx: RollContext,
  node: string,
): Promise<{ pods: Pod[]; resourceVersion: string }> {
  const r = await listAll((cont) =>
    ctx.cluster.listPods(undefined, pageOf(cont, { fieldSelector: `spec.nodeName=${node}` })),
  );
  return { pods: podsToMove(r.items), resourceVersion: r.resourceVersion };
}

interface Blocker {
  pod: string;
  why: string;
}

/** Evict one pod until the API accepts it, the deadline passes (returns the blocker) or it is gone. */
async function evict(
  ctx: RollContext,
  o: DrainOptions,
  pod: Pod,
  deadline: number,
  signal: AbortSignal,
): Promise<Blocker | undefined> {
  const ns = pod.metadata.namespace ?? "default";
  const name = pod.metadata.name;
  let reported = "";
  for (;;) {
    const r = await ctx.cluster.evictPod(ns, name);
    if (r.status === 201 || r.status === 404) return undefined;
    const pdb =
      r.status === 429
        ? (r.pdb ?? [...r.causes, r.message].map(pdbFromMessage).find(Boolean) ?? "")
        : r.status === 500
          ? "several PodDisruptionBudgets"
          : "";
    const why =
      r.status === 429
        ? `PodDisruptionBudget ${pdb || "(unnamed)"} allows no disruption`
        : r.status === 500
          ? `more than one PodDisruptionBudget selects it (${r.message})`
          : r.message;
    if (why !== reported && (r.status === 429 || r.status === 500)) {
      ctx.emit({
        type: "eviction.blocked",
        group: o.group,
        node: o.node,
        pod: `${ns}/${name}`,
        pdb: pdb || "unknown",
      });
      reported = why;
    }
    const wait =
      r.status === 429 && r.retryAfterSeconds !== undefined ? r.retryAfterSeconds * 1000 : RETRY_MS;
    if (ctx.clock.now().getTime() + wait > deadline) return { pod: `${ns}/${name}`, why };
    await ctx.clock.sleep(wait, signal);
  }
}

/** The API server names the budget in the Status cause: "The disruption budget web needs 2 healthy pods…". */
function pdbFromMessage(message: string): string {
  return /disruption budget "?([a-z0-9][\w.-]*)"? needs/i.exec(message)?.[1] ?? "";
}

/** Wait, by watch, until none of `names` is left on the node; false at the deadline. */
async function waitGone(
  ctx: RollContext,
  node: string,
  names: Set<string>,
  resourceVersion: string,
  deadline: number,
  signal: AbortSignal,
): Promise<boolean> {
  if (names.size === 0) return true;
  const timer = new AbortController();
  const stop = () => timer.abort();
  signal.addEventListener("abort", stop, { once: true });
  void ctx.clock
    .sleep(Math.max(0, deadline - ctx.clock.now().getTime()), timer.signal)
    .then(stop, () => {});
  try {
    // A watch can end (an idle connection cut, the server's watch timeout) or fail (410, a
    // reset) while pods are still terminating: re-list and watch again until the deadline.
    while (!timer.signal.aborted) {
      try {
        const now = await podsOn(ctx, node);
        const present = new Set(now.pods.map(podId));
        for (const id of [...names]) if (!present.has(id)) names.delete(id);
        if (names.size === 0) return true;
        for await (const e of ctx.cluster.watchPods(undefined, {
          fieldSelector: `spec.nodeName=${node}`,
          resourceVersion: now.resourceVersion || resourceVersion,
          signal: timer.signal,
        })) {
          if (e.type === "DELETED") names.delete(podId(e.object));
          if (names.size === 0) return true;
        }
        // The watch ended by itself: pause before asking again, to be kind to the server.
        await ctx.clock.sleep(1000, timer.signal);
      } catch (e) {
        if (isAbort(e) || timer.signal.aborted) break;
        await ctx.clock.sleep(1000, timer.signal).catch(() => undefined);
      }
    }
    return names.size === 0;
  } finally {
    timer.abort();
    signal.removeEventListener("abort", stop);
  }
}

export async function drainNode(ctx: RollContext, o: DrainOptions): Promise<DrainResult> {
  ctx.emit({ type: "node.drain.start", group: o.group, node: o.node });
  const deadline = ctx.clock.now().getTime() + o.timeoutMs;
  const { pods, resourceVersion } = await podsOn(ctx, o.node);
  const blockers = (
    await Promise.all(pods.map((p) => evict(ctx, o, p, deadline, ctx.signal)))
  ).filter((b): b is Blocker => b !== undefined);
  const evictedNames = new Set(pods.map(podId).filter((id) => !blockers.some((b) => b.pod === id)));
  const evicted = evictedNames.size;
  let deleted: string[] = [];
  if (blockers.length > 0) {
    if (!o.force) {
      const list = blockers.map((b) => `${b.pod} (${b.why})`).join("; ");
      throw new RollError(
        "PodEvictionFailure",
        `could not drain ${o.node} within ${Math.round(o.timeoutMs / 60_000)} min: ${list}. Scale the workloads up or relax the PodDisruptionBudgets, or set force to delete them`,
      );
    }
    deleted = blockers.map((b) => b.pod);
    for (const id of deleted) {
      const [ns, name] = id.split("/") as [string, string];
      await ctx.cluster.deletePod(ns, name).catch(() => undefined);
    }
  }
  const all = new Set([...evictedNames, ...deleted]);
  const gone = await waitGone(
    ctx,
    o.node,
    all,
    resourceVersion,
    Math.max(deadline, ctx.clock.now().getTime() + 120_000),
    ctx.signal,
  );
  if (!gone && !o.force) {
    throw new RollError(
      "PodEvictionFailure",
      `pods on ${o.node} did not terminate in time: ${[...all].slice(0, 10).join(", ")}`,
    );
  }
  ctx.emit({
    type: "node.drain.end",
    group: o.group,
    node: o.node,
    evicted,
    ...(deleted.length > 0 && { deleted }),
  });
  return { evicted, deleted };
}
