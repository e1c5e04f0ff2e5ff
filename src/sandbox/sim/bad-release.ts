// What a bad release (faults.badRelease) does to the workloads, as the health signals see it: which
// workload pods serve on a bad release's nodes (the alarms that follow it, sim/aws/cloudwatch.ts)
// and the share of the workloads' requests that fail (the error ratio the sandbox's Prometheus
// answers, sim/prometheus.ts).
//
// A workload pod is one a ReplicaSet (a Deployment's) or a StatefulSet owns — not a DaemonSet's,
// nor a bare Pod; it serves while it is Running and not being deleted (Ready or not: a
// crash-looping pod is Running too). A node is a bad release's when its instance was launched
// from one (ec2.ts). Which pods serve on such nodes is kept as pods change (every pod event), so
// that the moment the first one starts, and the moment the last one goes, are known exactly in
// virtual time; the error ratio is counted when asked.
import type { BadReleaseMark, PodRec } from "../model/records.js";
import type { Ec2Sim } from "./aws/ec2.js";
import type { KubeSim } from "./kube/kube.js";

/** The share of requests that fail on a good node: the workloads' own background errors. */
export const BASELINE_ERROR_RATIO = 0.001;

export interface BadReleaseView {
  kube: Pick<KubeSim, "nodes" | "workloads" | "onPodEvent">;
  ec2: Pick<Ec2Sim, "instances">;
}

/** Whether `p` is a workload's pod that serves (see above). */
export function serving(p: PodRec): boolean {
  const kind = p.workload?.kind;
  return (
    (kind === "Deployment" || kind === "StatefulSet") &&
    !p.gone &&
    p.phase === "Running" &&
    p.deletionAt === undefined
  );
}

/** What a bad release is, in words: "launch template version 3 of group web". */
export function describeRelease(f: BadReleaseMark): string {
  const what = [
    f.launchTemplateVersion !== undefined && `launch template version ${f.launchTemplateVersion}`,
    f.releaseVersion !== undefined && `EKS AMI release ${f.releaseVersion}`,
  ].filter(Boolean);
  return `${what.join(", ")}${f.group ? ` of group ${f.group}` : ""}`;
}

/** Told when the first workload pod starts serving on a bad release's node, or the last stops. */
export type BadReleaseListener = (serving: boolean, reason: string) => void;

export class BadReleases {
  /** Workload pods serving on a bad release's nodes now. */
  readonly pods = new Set<PodRec>();
  readonly #listeners: BadReleaseListener[] = [];

  /** `watching`: whether to follow the pods at all (a scenario without bad releases: no). */
  constructor(
    private readonly view: BadReleaseView,
    watching: boolean,
  ) {
    if (watching) view.kube.onPodEvent((type, p) => this.#see(type === "DELETED", p));
  }

  onChange(listener: BadReleaseListener): void {
    this.#listeners.push(listener);
  }

  /** The bad release the node was launched from, if any. */
  of(nodeName: string | undefined): BadReleaseMark | undefined {
    const node = nodeName === undefined ? undefined : this.view.kube.nodes.get(nodeName);
    return node && this.view.ec2.instances.get(node.instanceId)?.badRelease;
  }

  /** Why the followed signal is as it is now (an alarm's StateReason). */
  reason(): string {
    const [first] = this.pods;
    if (!first) return "no workload pod runs on a node of a bad release";
    const release = this.of(first.nodeName);
    const others = this.pods.size - 1;
    return `workload pod ${first.key} runs on node ${first.nodeName}, of a bad release (${release ? describeRelease(release) : "?"})${others > 0 ? `, and ${others} more` : ""}`;
  }

  /**
   * The share of the workloads' requests that fail now, spread evenly over the serving workload
   * pods: each fails BASELINE_ERROR_RATIO of its own on a good node, its release's errorRatio on a
   * node of an `errors` or `crashLoop` bad release. Undefined when no workload pod serves (no
   * requests: nothing to divide).
   */
  errorRatio(): number | undefined {
    let pods = 0;
    let failing = 0;
    for (const w of this.view.kube.workloads.values()) {
      if (w.kind !== "Deployment" && w.kind !== "StatefulSet") continue;
      for (const p of w.pods) {
        if (!serving(p)) continue;
        pods++;
        const bad = this.of(p.nodeName);
        failing += bad && bad.effect !== "neverReady" ? bad.errorRatio : BASELINE_ERROR_RATIO;
      }
    }
    return pods === 0 ? undefined : failing / pods;
  }

  #see(deleted: boolean, p: PodRec): void {
    const on = !deleted && serving(p) && this.of(p.nodeName) !== undefined;
    if (on === this.pods.has(p)) return;
    const before = this.pods.size > 0;
    if (on) this.pods.add(p);
    else this.pods.delete(p);
    const after = this.pods.size > 0;
    if (before !== after) for (const l of this.#listeners) l(after, this.reason());
  }
}
