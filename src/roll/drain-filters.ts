// Which pods a drain moves and which it refuses, as kubectl drain's pod filters decide
// (k8s.io/kubectl/pkg/drain): mirror pods and pods a DaemonSet controls stay on the node; a pod
// with no controller is evicted, as kOps drains with kubectl's --force, or refused where the
// policy says unmanagedPods: refuse, since nothing would bring it back — unless it has finished,
// when it runs nowhere and may go.
import { drainLeaves } from "../plan/index.js";
import { controllerOf, isFinished, isMirrorPod, type Pod } from "../ports/index.js";
import { RollError } from "./context.js";

export const podId = (p: Pod) => `${p.metadata.namespace ?? "default"}/${p.metadata.name}`;

/** The pods a drain must move: not mirror pods, not pods a DaemonSet controls. */
export function podsToMove(pods: Pod[]): Pod[] {
  return pods.filter((p) => !drainLeaves(isMirrorPod(p), controllerOf(p)?.kind));
}

/**
 * Refuse to drain `node` when a running pod on it has no controller, unless `evict` (kubectl's
 * --force). One already being deleted is refused too, as kubectl drain does, until it is gone:
 * the user waits for it rather than deleting it. With `evict` the drain evicts the one and
 * waits for the other.
 */
export function refuseOrphans(node: string, evict: boolean, pods: Pod[]): void {
  const orphans = pods.filter((p) => !controllerOf(p) && !isFinished(p.status.phase));
  if (orphans.length === 0 || evict) return;
  const staying = orphans.filter((p) => p.metadata.deletionTimestamp === undefined);
  const going = orphans.filter((p) => p.metadata.deletionTimestamp !== undefined);
  const s = pronouns(staying);
  const g = pronouns(going);
  const why = [
    ...(staying.length > 0
      ? [
          `${named(staying)} no controller, so nothing would recreate ${s.them} elsewhere: delete ${s.them} or run ${s.them} under a controller`,
        ]
      : []),
    ...(going.length > 0
      ? [
          `${named(going)} no controller and ${g.are} already being deleted: wait until ${g.they} ${g.are} gone`,
        ]
      : []),
  ];
  throw new RollError(
    "PodEvictionFailure",
    `cannot drain ${node} (the policy says unmanagedPods: refuse, as kubectl drain without --force): ${why.join("; ")}; or set unmanagedPods: evict`,
  );
}

/** "a, b have" / "a has": the pods (the first ten, and how many more) and the verb. */
function named(pods: Pod[]): string {
  const more = pods.length > 10 ? ` and ${pods.length - 10} more` : "";
  return `${pods.slice(0, 10).map(podId).join(", ")}${more} ${pods.length === 1 ? "has" : "have"}`;
}

const pronouns = (pods: Pod[]) =>
  pods.length === 1
    ? { they: "it", them: "it", are: "is" }
    : { they: "they", them: "them", are: "are" };
