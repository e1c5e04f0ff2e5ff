// Cluster validation between nodes (kOps' `validate cluster`, reduced to what the ports show):
// every node Ready, every pod of a critical priority class Ready (critical-pods.ts). A failure
// blocks a group only when it concerns that group, a control plane, or no group at all (a
// cluster-critical pod); a NotReady node of another group, or a node-critical pod on it, is that
// group's business (kOps pkg/instancegroups, hasFailureRelevantToGroup). Success must hold
// `count` times in a row, 10 s apart.
import { hasReadyCondition, listAll, pageOf, type Node, type Pod } from "../ports/index.js";
import { RollError, type RollContext } from "./context.js";
import { criticalPriority, watchedPodsOf } from "./critical-pods.js";

export interface ValidationFailure {
  message: string;
  /** The group the failure concerns, when it concerns one. */
  group?: string;
  controlPlane?: boolean;
}

export interface NodeOwner {
  group?: string;
  controlPlane?: boolean;
}

export const VALIDATION_PERIOD_MS = 10_000;

/** The nodes' part of validation: every node Ready (a node being deleted is going anyway). */
export function nodeFailures(
  nodes: Iterable<Node>,
  ownerOf: (node: Node) => NodeOwner,
): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  for (const n of nodes) {
    if (n.metadata.deletionTimestamp || hasReadyCondition(n.status.conditions)) continue;
    const owner = ownerOf(n);
    failures.push({
      message: `node ${n.metadata.name} is not Ready`,
      ...(owner.group && { group: owner.group }),
      ...(owner.controlPlane && { controlPlane: true }),
    });
  }
  return failures;
}

/**
 * `cached` is the engine's watched node cache: validating from it spares the API server a
 * cluster-wide node list every 10 s (the Kubernetes docs' "efficient detection of changes":
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes).
 */
export async function validateCluster(
  ctx: RollContext,
  ownerOf: (node: Node) => NodeOwner,
  cached?: () => Iterable<Node>,
  learn?: (nodes: Iterable<Node>) => Promise<void>,
): Promise<ValidationFailure[]> {
  const [nodes, critical] = await Promise.all([
    cached
      ? [...cached()]
      : listAll((cont) => ctx.cluster.listNodes(pageOf(cont))).then((r) => r.items),
    criticalPods(ctx),
  ]);
  // Nodes no group read places are looked up first: another group's failure is not this one's.
  await learn?.(nodes);
  return [...nodeFailures(nodes, ownerOf), ...podFailures(critical, nodes, ownerOf)];
}

/** The critical pods' part: each Ready, unless finished, going, or bound to a node that is gone
 * (it will be replaced; it is not the cluster's state). kOps counts a Pending one too. */
export function podFailures(
  pods: Iterable<Pod>,
  nodes: readonly Node[],
  ownerOf: (node: Node) => NodeOwner,
): ValidationFailure[] {
  const byName = new Map(nodes.map((n) => [n.metadata.name, n]));
  const failures: ValidationFailure[] = [];
  for (const p of pods) {
    const priority = criticalPriority(p);
    if (!priority || p.status.phase === "Succeeded" || p.metadata.deletionTimestamp) continue;
    if (hasReadyCondition(p.status.conditions)) continue;
    const node = p.spec.nodeName ? byName.get(p.spec.nodeName) : undefined;
    if (p.spec.nodeName && !node) continue;
    // A node-critical pod (a CNI or proxy DaemonSet's) fails with its node's group; a
    // cluster-critical one (DNS, say) fails every group, as in kOps.
    const owner = priority === "system-node-critical" && node ? ownerOf(node) : {};
    failures.push({
      message: `${priority} pod ${p.metadata.namespace}/${p.metadata.name} is not Ready`,
      ...(owner.group && { group: owner.group }),
      ...(owner.controlPlane && { controlPlane: true }),
    });
  }
  return failures;
}

/** The critical pods: from the run's watched cache (critical-pods.ts), or, while it cannot
 * answer, from the API server's watch cache (resourceVersion "0") rather than a quorum read of
 * etcd: a moment's staleness is what validating `count` times in a row absorbs (EKS Best
 * Practices, control plane scalability: "resourceVersion=0" reads). */
async function criticalPods(ctx: RollContext): Promise<Pod[]> {
  const cached = (await watchedPodsOf(ctx))?.critical();
  if (cached) return cached;
  const r = await listAll((cont) =>
    ctx.cluster.listPods(undefined, { ...pageOf(cont), resourceVersion: "0" }),
  );
  return r.items.filter((p) => criticalPriority(p));
}

export function concerns(f: ValidationFailure, group: string | undefined): boolean {
  return f.group === undefined || f.controlPlane === true || f.group === group;
}

/**
 * Validate until `count` consecutive successes (10 s apart) or `timeoutMs` passes (counted from
 * `startedAt` when the caller has already waited part of it); failures of other groups are
 * reported but do not count against this one.
 */
export async function validateUntilStable(
  ctx: RollContext,
  ownerOf: (n: Node) => NodeOwner,
  group: string | undefined,
  o: {
    count: number;
    timeoutMs: number;
    nodes?: () => Iterable<Node>;
    startedAt?: number;
    learn?: (nodes: Iterable<Node>) => Promise<void>;
    /** The group's machines: each joined the cluster, as many as it should have (its kind's). */
    machines?: () => Promise<ValidationFailure[]>;
  },
): Promise<void> {
  const deadline = (o.startedAt ?? ctx.clock.now().getTime()) + o.timeoutMs;
  let streak = 0;
  let last: ValidationFailure[];
  for (;;) {
    const [cluster, machines] = await Promise.all([
      validateCluster(ctx, ownerOf, o.nodes, o.learn),
      o.machines?.() ?? [],
    ]);
    const failures = [...cluster, ...machines];
    last = failures.filter((f) => concerns(f, group));
    ctx.emit({
      type: "validation",
      ...(group && { group }),
      ok: last.length === 0,
      failures: failures.map((f) => f.message),
    });
    streak = last.length === 0 ? streak + 1 : 0;
    if (streak >= o.count) return;
    if (ctx.clock.now().getTime() + VALIDATION_PERIOD_MS > deadline) break;
    await ctx.clock.sleep(VALIDATION_PERIOD_MS, ctx.signal);
  }
  throw new RollError(
    "ValidationFailed",
    `the cluster did not validate ${o.count} time${o.count === 1 ? "" : "s"} in a row within ${Math.round(o.timeoutMs / 1000)} s: ${
      last
        .map((f) => f.message)
        .slice(0, 5)
        .join("; ") || "flapping"
    }`,
  );
}
