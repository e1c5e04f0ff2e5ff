// Which pods a drain moves and which it refuses, as kubectl drain's pod filters decide
// (k8s.io/kubectl/pkg/drain): mirror pods and pods a DaemonSet controls stay on the node; a pod
// with no controller is refused unless force, since nothing would bring it back — unless it has
// finished, when it runs nowhere and may go.
import { drainLeaves } from "../plan/index.js";
import { controllerOf, isFinished, isMirrorPod, type Pod } from "../ports/index.js";
import { RollError } from "./context.js";

export const podId = (p: Pod) => `${p.metadata.namespace ?? "default"}/${p.metadata.name}`;

/** The pods a drain must move: not mirror pods, not pods a DaemonSet controls. */
export function podsToMove(pods: Pod[]): Pod[] {
  return pods.filter((p) => !drainLeaves(isMirrorPod(p), controllerOf(p)?.kind));
}

/**
 * Refuse to drain `node` when a running pod on it has no controller, unless `force`. One already
 * being deleted is refused too, as kubectl drain does, until it is gone: the user waits for it
 * rather than deleting it.
 */
export function refuseOrphans(node: string, force: boolean, pods: Pod[]): void {
  const orphans = pods.filter((p) => !controllerOf(p) && !isFinished(p.status.phase));
  if (orphans.length === 0 || force) return;
  const staying = orphans.filter((p) => p.metadata.deletionTimestamp === undefined);
  const going = orphans.filter((p) => p.metadata.deletionTimestamp !== undefined);
  const why = [
    ...(staying.length > 0
      ? [
          `${named(staying, "has")} no controller, so nothing would recreate ${them(staying)} elsewhere: delete ${them(staying)} or run ${them(staying)} under a controller`,
        ]
      : []),
    ...(going.length > 0
      ? [
          `${named(going, "has")} no controller and ${going.length === 1 ? "is" : "are"} already being deleted: wait until ${them(going)} ${going.length === 1 ? "is" : "are"} gone`,
        ]
      : []),
  ];
  throw new RollError(
    "PodEvictionFailure",
    `cannot drain ${node} (kubectl drain refuses pods with no controller too): ${why.join("; ")}; or roll with force to delete ${them(orphans)}`,
  );
}

/** "a, b have" / "a has": the pods (ten at most) and the verb. */
const named = (pods: Pod[], verb: "has") =>
  `${pods.slice(0, 10).map(podId).join(", ")} ${pods.length === 1 ? verb : "have"}`;
const them = (pods: Pod[]) => (pods.length === 1 ? "it" : "them");
