// What stopped EKS's drain, in the words the self-managed path uses: EKS reports only
// PodEvictionFailure and the nodes; noderoll looks at the pods still on them and the
// PodDisruptionBudgets that select those pods, names both, and puts an eviction.blocked event in
// the log for each — so a reader of either engine's failure learns the same things.
import type { ManagedGroupInfo } from "../../plan/index.js";
import { heldPastDeletion, matchesSelector } from "../../plan/index.js";
import {
  instanceIdOf,
  noBudgetHeld,
  listAll,
  pageOf,
  type PodDisruptionBudget,
  type Pod,
} from "../../ports/index.js";
import type { RollContext } from "../../roll/context.js";
import { podsToMove } from "../../roll/drain-filters.js";
import type { GroupJob } from "../kind.js";

const MAX_NODES = 10;

export interface Blocked {
  node: string;
  pod: string;
  pdb: string;
}

function nodeNames(job: GroupJob<ManagedGroupInfo>, ids: string[]): string[] {
  const byInstance = new Map(
    [...job.nodes.byName.values()].flatMap((n) => {
      const id = instanceIdOf(n);
      return id ? [[id, n.metadata.name] as const] : [];
    }),
  );
  const names = ids.map((id) => byInstance.get(id) ?? id).filter((n) => job.nodes.byName.has(n));
  return [...new Set(names)].slice(0, MAX_NODES);
}

function why(pod: Pod, pdbs: PodDisruptionBudget[], now: Date): string {
  // No budget holds a pod being deleted (the API lets it go): its grace, a finalizer or an
  // unreachable kubelet does.
  const due = pod.metadata.deletionTimestamp;
  if (due) {
    const by = heldPastDeletion(pod.metadata, now)
      ? ": a finalizer or an unreachable kubelet holds it"
      : "";
    return `none (the pod is being deleted, due ${due}${by})`;
  }
  const ns = pod.metadata.namespace ?? "default";
  const selecting = pdbs.filter(
    (b) =>
      b.metadata.namespace === ns && matchesSelector(b.spec.selector, pod.metadata.labels ?? {}),
  );
  if (selecting.length > 1) return `several: ${selecting.map((b) => b.metadata.name).join(", ")}`;
  const closed = selecting.find((b) => b.status.disruptionsAllowed === 0);
  if (closed) return closed.metadata.name;
  const everything = pod.spec.tolerations?.some(
    (t) => t.operator === "Exists" && !t.key && !t.effect,
  );
  return everything ? "none (the pod tolerates every taint)" : "unknown";
}

/** The pods EKS could not evict from `ids` (node names or instance ids), and what held each. */
export async function evictionBlockers(
  ctx: RollContext,
  job: GroupJob<ManagedGroupInfo>,
  ids: string[],
): Promise<Blocked[]> {
  const out: Blocked[] = [];
  const budgets = new Map<string, PodDisruptionBudget[]>();
  for (const node of nodeNames(job, ids)) {
    const pods = podsToMove(
      (
        await listAll((cont) =>
          ctx.cluster.listPods(undefined, {
            ...pageOf(cont, { fieldSelector: `spec.nodeName=${node}` }),
            resourceVersion: "0",
          }),
        )
      ).items,
    );
    for (const ns of new Set(pods.map((p) => p.metadata.namespace ?? "default")))
      if (!budgets.has(ns))
        budgets.set(
          ns,
          (await listAll((cont) => ctx.cluster.listPodDisruptionBudgets(ns, pageOf(cont)))).items,
        );
    const pdbs = [...budgets.values()].flat();
    for (const p of pods)
      out.push({
        node,
        pod: `${p.metadata.namespace ?? "default"}/${p.metadata.name}`,
        pdb: why(p, pdbs, ctx.clock.now()),
      });
  }
  // EKS's update has already failed: nothing asks these pods again.
  for (const b of out)
    ctx.emit({ type: "eviction.blocked", group: job.plan.name, ...b, final: true });
  return out;
}

export function describeBlockers(blocked: Blocked[]): string {
  if (blocked.length === 0) return "";
  const shown = blocked
    .slice(0, 10)
    .map((b) =>
      noBudgetHeld(b.pdb)
        ? `${b.pod} on ${b.node} (${b.pdb})`
        : `${b.pod} on ${b.node} (PodDisruptionBudget ${b.pdb} allows no disruption)`,
    );
  const more = blocked.length > 10 ? ` and ${blocked.length - 10} more` : "";
  return ` Pods EKS could not evict: ${shown.join("; ")}${more}.`;
}
