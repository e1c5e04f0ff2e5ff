// Which pods a drain moves and which it refuses, as kubectl drain's pod filters decide
// (k8s.io/kubectl/pkg/drain): mirror pods and pods a DaemonSet controls stay on the node; a pod
// with no controller is refused unless force, since nothing would bring it back — unless it has
// finished, when it runs nowhere and may go.
import { drainLeaves } from "../plan/index.js";
import { controllerOf, isMirrorPod, type Pod } from "../ports/index.js";
import { RollError } from "./context.js";

export const podId = (p: Pod) => `${p.metadata.namespace ?? "default"}/${p.metadata.name}`;

/** The pods a drain must move: not mirror pods, not pods a DaemonSet controls. */
export function podsToMove(pods: Pod[]): Pod[] {
  return pods.filter((p) => !drainLeaves(isMirrorPod(p), controllerOf(p)?.kind));
}

const finished = (p: Pod) => p.status.phase === "Succeeded" || p.status.phase === "Failed";

/** Refuse to drain `node` when a running pod on it has no controller, unless `force`. */
export function refuseOrphans(node: string, force: boolean, pods: Pod[]): void {
  const orphans = pods.filter((p) => !controllerOf(p) && !finished(p)).map(podId);
  if (orphans.length === 0 || force) return;
  const one = orphans.length === 1;
  const them = one ? "it" : "them";
  throw new RollError(
    "PodEvictionFailure",
    `cannot drain ${node}: ${orphans.slice(0, 10).join(", ")} ${one ? "has" : "have"} no controller, so nothing would recreate ${them} elsewhere (kubectl drain refuses such pods too). Delete ${them} or run ${them} under a controller, or roll with force to delete ${them}`,
  );
}
