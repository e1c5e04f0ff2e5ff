// After a group's nodes are drained, the pods the roll moved must find a node again. A pod tied
// to a zone — a zonal volume's node affinity, a nodeSelector or required affinity on the zone
// label (src/plan/placement.ts) — can only go to a node of that zone; when the roll left none
// there that could take it (the zone out of capacity, its replacement launched elsewhere), its
// successor stays Pending, and a roll that said "success" would hide an outage (issue 44,
// defect 7). So the group waits for them a bounded time (its validation timeout) and otherwise
// fails naming them, their zones and the scheduler's reason: their PodScheduled condition,
// False with reason Unschedulable, which kube-scheduler sets when no node fits
// (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-conditions).
// Read scoped: only pods on no node (spec.nodeName=), paginated, in the moved pods' namespace
// when there is one.
import { VALIDATION_PERIOD_MS } from "../policy/index.js";
import {
  drainMoves,
  placementOf,
  readClaims,
  zoneBinding,
  type ClaimInfo,
  type NodePods,
} from "../plan/index.js";
import { controllerOf, listAll, pageOf, type Node, type Pod } from "../ports/index.js";
import { RollError, type RollContext } from "./context.js";

/** A pod a drain moved (evicted or, at the drain timeout, deleted); another pod of its controller takes its place. */
export interface MovedPod {
  namespace: string;
  name: string;
  /** Its controller: a StatefulSet makes it again under its name, a ReplicaSet under another. */
  owner: { kind: string; name: string };
  /** When its drain began (ms): its successor was made after. */
  at: number;
}

/** The pods a drain moved that have a controller, their drain begun at `at` (ms). */
export function movedPods(pods: readonly Pod[], at: number): MovedPod[] {
  return pods.flatMap((p) => {
    const o = controllerOf(p);
    const namespace = p.metadata.namespace ?? "default";
    return o
      ? [{ namespace, name: p.metadata.name, owner: { kind: o.kind, name: o.name }, at }]
      : [];
  });
}

/**
 * The pods a plan found on `nodes` that a drain moves and that have a controller, as moved at
 * `at` (ms): what EKS's drains of those nodes move.
 */
export function plannedMoves(pods: NodePods, nodes: readonly string[], at: number): MovedPod[] {
  return nodes.flatMap((node) =>
    pods
      .on(node)
      .flatMap((p) =>
        drainMoves(p) && p.owner
          ? [{ namespace: p.namespace, name: p.name, owner: p.owner, at }]
          : [],
      ),
  );
}

/** A controller's pods moved: their names, and the earliest drain (ms). */
interface Controller {
  names: Set<string>;
  at: number;
}

/** The moved pods' controllers by namespace, then by "Kind/name". */
type Moved = Map<string, Map<string, Controller>>;

function byController(moved: readonly MovedPod[]): Moved {
  const out: Moved = new Map();
  for (const m of moved) {
    if (m.owner.kind === "DaemonSet") continue;
    let ns = out.get(m.namespace);
    if (!ns) out.set(m.namespace, (ns = new Map()));
    const key = `${m.owner.kind}/${m.owner.name}`;
    const c = ns.get(key);
    if (c) {
      c.names.add(m.name);
      c.at = Math.min(c.at, m.at);
    } else ns.set(key, { names: new Set([m.name]), at: m.at });
  }
  return out;
}

/** The scheduler's word on a pod it could not place, or undefined. */
function unschedulable(p: Pod): string | undefined {
  const c = p.status.conditions?.find((x) => x.type === "PodScheduled");
  return c?.status === "False" && c.reason === "Unschedulable" ? (c.message ?? "") : undefined;
}

/**
 * The controller whose moved pod this one succeeds, if it does: the same controller's, under the
 * moved pod's name (a StatefulSet's) or made since the drain (a ReplicaSet's, another name).
 */
function succeeded(p: Pod, moved: Moved): Controller | undefined {
  const o = controllerOf(p);
  const c = o && moved.get(p.metadata.namespace ?? "default")?.get(`${o.kind}/${o.name}`);
  if (!c || p.metadata.deletionTimestamp !== undefined) return undefined;
  if (o.kind === "StatefulSet") return c.names.has(p.metadata.name) ? c : undefined;
  // A second of slack: the API server's timestamps have whole seconds.
  return Date.parse(p.metadata.creationTimestamp ?? "") >= c.at - 1000 ? c : undefined;
}

/**
 * The moved pods' successors the scheduler could not place, now: no more of a controller's than
 * it had pods moved (others made since, a scale-up's, are not the roll's). The pods on no node
 * (spec.nodeName=, which the API server's watch cache indexes), of the one namespace, or of all.
 */
async function stuckNow(ctx: RollContext, moved: Moved): Promise<Pod[]> {
  const only = moved.size === 1 ? [...moved.keys()][0] : undefined;
  const { items } = await listAll((cont) =>
    ctx.cluster.listPods(only, pageOf(cont, { fieldSelector: "spec.nodeName=" })),
  );
  const counted = new Map<Controller, number>();
  const out: Pod[] = [];
  for (const p of items) {
    const c = p.spec.nodeName ? undefined : succeeded(p, moved);
    if (c === undefined || unschedulable(p) === undefined) continue;
    const n = (counted.get(c) ?? 0) + 1;
    counted.set(c, n);
    if (n <= c.names.size) out.push(p);
  }
  return out;
}

/** Each pod with its zones and the scheduler's reason, its volumes' zones read for it. */
async function described(ctx: RollContext, pods: Pod[], zones: ReadonlySet<string>) {
  const refs = pods.flatMap((p) =>
    (placementOf(p)?.claims ?? []).map((name) => ({ namespace: p.metadata.namespace ?? "", name })),
  );
  const { claims } = await readClaims(ctx.cluster, refs);
  const index = new Map<string, ClaimInfo>(claims.map((c) => [`${c.namespace}/${c.name}`, c]));
  return pods.map((p) => {
    const namespace = p.metadata.namespace ?? "default";
    const placement = placementOf(p);
    const b = zoneBinding({ namespace, ...(placement && { placement }) }, index, zones);
    const where = b ? `zone ${b.zones.join(" or ")} by ${b.why.join(", ")}; ` : "";
    return `${namespace}/${p.metadata.name} (${where}${unschedulable(p)})`;
  });
}

export interface RescheduledOptions {
  group: string;
  moved: readonly MovedPod[];
  /** How long to wait for them (the group's validation timeout). */
  timeoutMs: number;
  /** The cluster's nodes, for its zones (a NotIn affinity allows the others). */
  nodes: Iterable<Node>;
}

/**
 * Wait until no successor of a moved pod is unschedulable, or fail after `timeoutMs` with
 * PodsUnschedulable naming them. Pods Pending that the scheduler has not yet refused are not
 * waited for: a pod the scheduler can place is placed within seconds.
 */
export async function awaitRescheduled(ctx: RollContext, o: RescheduledOptions): Promise<void> {
  const moved = byController(o.moved);
  if (moved.size === 0) return;
  const deadline = ctx.clock.now().getTime() + o.timeoutMs;
  let said = false;
  for (;;) {
    const stuck = await stuckNow(ctx, moved);
    if (stuck.length === 0) return;
    const minutes = Math.round(o.timeoutMs / 60_000);
    if (ctx.clock.now().getTime() >= deadline) {
      const zones = new Set<string>();
      for (const n of o.nodes) {
        const z = n.metadata.labels?.["topology.kubernetes.io/zone"];
        if (z) zones.add(z);
      }
      const pods = await described(ctx, stuck, zones);
      throw new RollError(
        "PodsUnschedulable",
        `${stuck.length} pod${stuck.length === 1 ? "" : "s"} the roll of ${o.group} moved could not be scheduled within ${minutes} min: ${pods.slice(0, 10).join("; ")}${pods.length > 10 ? `; and ${pods.length - 10} more` : ""}. Nothing the roll does will place them: give their zone a node that can take them (the group's launches there may be failing: see its scaling activities)`,
      );
    }
    if (!said)
      ctx.emit({
        type: "note",
        group: o.group,
        message: `${o.group}: ${stuck.length} pod${stuck.length === 1 ? "" : "s"} moved by the roll cannot be scheduled yet (${stuck
          .slice(0, 5)
          .map((p) => `${p.metadata.namespace}/${p.metadata.name}`)
          .join(", ")}); waiting up to ${minutes} min`,
      });
    said = true;
    await ctx.clock.sleep(VALIDATION_PERIOD_MS, ctx.signal);
  }
}
