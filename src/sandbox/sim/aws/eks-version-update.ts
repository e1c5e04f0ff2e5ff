// One UpdateNodegroupVersion of a managed node group, phase by phase on the virtual clock, as
// the EKS user guide's page on managed node update behavior describes them
// (https://docs.aws.amazon.com/eks/latest/userguide/managed-node-update-behavior.html):
//
//   setup       a new launch template version (the target AMI, or the customer's version);
//               the Auto Scaling group now launches from it; maxUnavailable from updateConfig
//               (a number, or a percentage of the group, at least 1, at most 100).
//   scale-up    max and desired grow by max(2 × zones, maxUnavailable); wait until at least one
//               new node per zone of the group is there and every new node is Ready with the
//               EKS labels (else NodeCreationFailure); taint every node without the latest
//               labels eks.amazonaws.com/nodegroup=unschedulable:NoSchedule — and, with the
//               scenario's eks.cordon: when-new-nodes-ready, cordon them all now (an open
//               correction to the guide: awsdocs/amazon-eks-user-guide pull request 1229).
//   upgrade     pick up to maxUnavailable old nodes at random; drain each (evictions, PDBs
//               honoured, 429s retried) for at most 15 minutes, then PodEvictionFailure unless
//               `force`, which goes on with the pods still running (they end with the node:
//               UpdateNodegroupVersion's force, EKS API reference); cordon; wait 60 s; label it
//               node.kubernetes.io/exclude-from-external-load-balancers=true; terminate it
//               through the group (no decrement, so a new node replaces it); repeat.
//   scale-down  max and desired shrink by one at a time back to the sizes before the update
//               (each surplus node drained, then terminated with a decrement); when something
//               else (the cluster autoscaler) changes the group meanwhile, stop at once and
//               leave the sizes as they are.
//
// Where the guide is silent the sandbox chooses, and says so here: a failed update leaves the
// group scaled up and tainted (EKS does not roll back) and ACTIVE, so another update may start
// (a NodeCreationFailure stays a health issue while its instances do); the surplus removed in
// scale-down is drained like the old nodes.
//
// Each phase is a generator that yields what it waits for; the driver awaits it and resumes the
// phase. So the driver adds no wait of its own between phases, and the update interleaves with
// the rest of the world exactly as one straight async function would.
import type { EksUpdate } from "../../../ports/cloud.js";
import type { AsgRec, InstanceRec, LtVersion, NodegroupRec, NodeRec } from "../../model/records.js";
import type { EksContext, Phase, UpdateRec } from "./eks-context.js";
import { drainNode, replaceNode } from "./eks-drain.js";
import {
  EXCLUDE_LB_LABEL,
  NODEGROUP_IMAGE_LABEL,
  NODEGROUP_LABEL,
  SOURCE_LT_VERSION_LABEL,
  UPDATE_TAINT,
} from "./eks-labels.js";

export interface VersionTarget {
  version: string;
  release: string | undefined;
  ltVersion: number | undefined;
  force: boolean;
}

/** What an update needs of the EKS simulator. */
export interface UpdateHost {
  readonly ctx: EksContext;
  amiFor(release: string): string;
  maxUnavailable(ng: NodegroupRec, g: AsgRec): number;
  nodesOf(ng: NodegroupRec): NodeRec[];
  finish(rec: UpdateRec, status: EksUpdate["status"], errors?: EksUpdate["errors"]): void;
}

/** A phase's steps: it yields each promise it waits for, and returns false when it failed. */
type PhaseSteps = Generator<Promise<unknown>, boolean, unknown>;

export class VersionUpdate {
  readonly #ctx: EksContext;
  readonly #name: string;
  /** The node group's Auto Scaling group (looked up when the update starts). */
  #g!: AsgRec;
  /** Set by setup: the launch template version new nodes run, and their AMI. */
  #image!: LtVersion;
  #imageId = "";
  #maxUnavailable = 1;
  /** The group's sizes before scale-up, which scale-down returns to. */
  #original = { min: 0, max: 0, desired: 0 };

  constructor(
    private readonly eks: UpdateHost,
    private readonly rec: UpdateRec,
    private readonly ng: NodegroupRec,
    private readonly target: VersionTarget,
  ) {
    this.#ctx = eks.ctx;
    this.#name = ng.name;
  }

  /** The driver: each phase in turn, until one fails; then the node group is at its target. */
  async run(): Promise<void> {
    this.#g = this.#ctx.autoScaling.group(this.ng.asg);
    this.#setup();
    for (const phase of [this.#scaleUp, this.#upgrade, this.#scaleDown]) {
      const steps = phase.call(this);
      let step = steps.next();
      while (!step.done) step = steps.next(await step.value);
      if (!step.value) return;
    }
    const { ng, target } = this;
    ng.version = target.version;
    if (target.release) ng.releaseVersion = target.release;
    ng.status = "ACTIVE";
    ng.modifiedAt = this.#ctx.clock.nowMs();
    this.eks.finish(this.rec, "Successful");
  }

  /** setup (waits for nothing): the launch template version new nodes run, and how many go at once. */
  #setup(): void {
    const { ec2, timeline } = this.#ctx;
    this.#phase("setup");
    const t = ec2.template(this.ng.ltId);
    this.#image =
      this.target.ltVersion !== undefined
        ? ec2.resolveVersion(t, String(this.target.ltVersion))
        : ec2.addTemplateVersion(t, {
            imageId: this.eks.amiFor(this.target.release as string),
            releaseVersion: this.target.release as string,
            kubernetesVersion: this.target.version,
          });
    this.#g.ltVersion = String(this.#image.number);
    // A customer template that leaves the AMI to EKS: EKS launches the release's optimized AMI.
    if (this.#g.eksImage && this.target.release)
      this.#g.eksImage = {
        imageId: this.eks.amiFor(this.target.release),
        releaseVersion: this.target.release,
        kubernetesVersion: this.target.version,
      };
    this.#imageId = this.#g.eksImage?.imageId ?? this.#image.imageId;
    timeline.record("eks.launch-template", {
      group: this.#name,
      launchTemplate: t.id,
      version: this.#image.number,
      imageId: this.#imageId,
    });
    this.#maxUnavailable = this.eks.maxUnavailable(this.ng, this.#g);
    this.#phase("setup", "success");
  }

  /** scale-up: surge, wait for the new nodes to be Ready in every zone, taint the old ones. */
  *#scaleUp(): PhaseSteps {
    const { clock, autoScaling, kube } = this.#ctx;
    const g = this.#g;
    this.#phase("scale-up");
    this.#original = { min: g.min, max: g.max, desired: g.desired };
    // MINIMAL (for scarce capacity) launches nothing ahead: each old node is replaced after it
    // is terminated. DEFAULT surges by max(2 × zones, maxUnavailable).
    const minimal = this.ng.updateConfig.updateStrategy === "MINIMAL";
    const increase = minimal ? 0 : Math.max(2 * g.zones.length, this.#maxUnavailable);
    if (increase > 0)
      autoScaling.setCapacity(g, { max: g.max + increase, desired: g.desired + increase }, "eks");
    const isNew = (i: InstanceRec) => this.#isNew(i);
    const zonesWithNodes = new Set(
      autoScaling
        .active(g)
        .filter((i) => !isNew(i))
        .map((i) => i.zone),
    );
    const deadline = clock.nowMs() + this.#ctx.timings.nodeCreationTimeoutSeconds * 1000;
    while (increase > 0 && !this.#newNodesReady(isNew, zonesWithNodes)) {
      if (clock.nowMs() >= deadline) {
        const bad = autoScaling
          .active(g)
          .filter((i) => isNew(i) && !kube.nodes.get(i.nodeName)?.ready)
          .map((i) => i.id);
        const message = "Instances failed to join the kubernetes cluster";
        return this.#fail("NodeCreationFailure", message, bad, "scale-up");
      }
      yield clock.sleep(10_000);
    }
    const cordonAll = this.#ctx.behaviour?.cordon === "when-new-nodes-ready";
    for (const node of this.eks.nodesOf(this.ng)) {
      if (this.#isNewNode(node)) continue;
      if (!node.taints.some((x) => x.key === UPDATE_TAINT.key && x.effect === UPDATE_TAINT.effect))
        kube.patchNode(node.name, { taints: [...node.taints, { ...UPDATE_TAINT }] }, "eks");
      // What an open correction to the user guide says EKS does (awsdocs/amazon-eks-user-guide
      // pull request 1229): every old node cordoned as soon as the new ones are Ready.
      if (cordonAll && !node.unschedulable)
        kube.patchNode(node.name, { unschedulable: true }, "eks");
    }
    this.#phase("scale-up", "success");
    return true;
  }

  /**
   * An instance at the update's target: its AMI, and for a customer's launch template its
   * version too — what EKS's labels on the node say (nodegroup-image, sourceLaunchTemplateVersion).
   */
  #isNew(i: InstanceRec): boolean {
    const custom = this.ng.customLaunchTemplate;
    return i.imageId === this.#imageId && (!custom || i.ltVersion === this.#image.number);
  }

  /** A node with the latest labels: those without them are tainted and replaced. */
  #isNewNode(n: NodeRec): boolean {
    const custom = this.ng.customLaunchTemplate;
    return (
      n.labels[NODEGROUP_IMAGE_LABEL] === this.#imageId &&
      (!custom || n.labels[SOURCE_LT_VERSION_LABEL] === String(this.#image.number))
    );
  }

  /** Every new node Ready with EKS's labels, and one in each zone that had old nodes. */
  #newNodesReady(isNew: (i: InstanceRec) => boolean, zones: Set<string>): boolean {
    const fresh = this.#ctx.autoScaling.active(this.#g).filter(isNew);
    const covered = new Set<string>();
    for (const i of fresh) {
      const node = this.#ctx.kube.nodes.get(i.nodeName);
      if (
        !node ||
        !node.ready ||
        node.labels[NODEGROUP_IMAGE_LABEL] !== this.#imageId ||
        node.labels[NODEGROUP_LABEL] !== this.#name
      )
        return false;
      covered.add(i.zone);
    }
    return fresh.length > 0 && [...zones].every((z) => covered.has(z));
  }

  /** upgrade: replace old nodes, up to maxUnavailable at a time, picked at random. */
  *#upgrade(): PhaseSteps {
    this.#phase("upgrade");
    for (;;) {
      const old = this.eks
        .nodesOf(this.ng)
        .filter((n) => !this.#isNewNode(n) && !n.labels[EXCLUDE_LB_LABEL]);
      if (old.length === 0) break;
      const batch = this.#ctx.random.sample(old, this.#maxUnavailable);
      const replacing = batch.map((n) => replaceNode(this.#ctx, this.#name, n, this.target.force));
      const results = (yield Promise.all(replacing)) as string[][];
      const stuck = results.flatMap((r) => r);
      if (stuck.length > 0)
        return this.#fail(
          "PodEvictionFailure",
          "Reached max retries while trying to evict pods from nodes in node group " + this.#name,
          stuck,
          "upgrade",
        );
    }
    this.#phase("upgrade", "success");
    return true;
  }

  /** scale-down: back to the sizes before the update, one surplus node at a time. */
  *#scaleDown(): PhaseSteps {
    const { clock, autoScaling, kube } = this.#ctx;
    const g = this.#g;
    const original = this.#original;
    this.#phase("scale-down");
    let expected = g.desired;
    while (g.desired > original.desired) {
      if (g.desired !== expected) {
        this.#scaleDownExit(expected);
        break;
      }
      const victim = this.#surplus();
      if (!victim) break;
      const node = kube.nodes.get(victim.nodeName);
      if (node) {
        kube.patchNode(node.name, { unschedulable: true }, "eks");
        yield drainNode(this.#ctx, this.#name, node, this.target.force);
      }
      if (g.desired !== expected) {
        this.#scaleDownExit(expected);
        break;
      }
      if (victim.asg === g.name && victim.lifecycle === "InService")
        autoScaling.terminateInGroup(victim.id, true, "eks");
      else autoScaling.setCapacity(g, { desired: g.desired - 1 }, "eks");
      autoScaling.setCapacity(g, { max: Math.max(original.max, g.max - 1) }, "eks");
      expected = g.desired;
      // One at a time: the next step starts once this instance is gone.
      while (victim.state !== "terminated") yield clock.sleep(5_000);
    }
    if (g.desired === original.desired && g.max !== original.max)
      autoScaling.setCapacity(g, { max: original.max }, "eks");
    this.#phase("scale-down", "success");
    return true;
  }

  /** Someone else resized the group during scale-down: EKS stops and leaves it so. */
  #scaleDownExit(expected: number): void {
    this.#ctx.timeline.record("eks.scale-down.exit", {
      group: this.#name,
      desired: this.#g.desired,
      expected,
    });
  }

  /** A surplus new node for scale-down: from the most populated zone, the one with fewest pods. */
  #surplus(): InstanceRec | undefined {
    const active = this.#ctx.autoScaling.active(this.#g);
    const zones = new Map<string, number>();
    for (const i of active) zones.set(i.zone, (zones.get(i.zone) ?? 0) + 1);
    const pods = (i: InstanceRec) => this.#ctx.kube.nodes.get(i.nodeName)?.pods.length ?? 0;
    return active
      .filter((i) => i.lifecycle === "InService")
      .sort(
        (a, b) =>
          (zones.get(b.zone) ?? 0) - (zones.get(a.zone) ?? 0) ||
          pods(a) - pods(b) ||
          (a.id < b.id ? -1 : 1),
      )[0];
  }

  #phase(phase: Phase, end?: string): void {
    this.#ctx.timeline.record(end ? "eks.phase.end" : "eks.phase.start", {
      group: this.#name,
      phase,
      ...(end ? { result: end } : {}),
    });
  }

  /** The update fails in `phase` with EKS's error code; the node group says so. */
  #fail(code: string, message: string, ids: string[], phase: Phase): false {
    const ng = this.ng;
    this.#phase(phase, "failure");
    // The node group is ACTIVE again: another update may be started. Instances that did not
    // join are a health issue for as long as they stay (EksSim.healthIssues), not a lock-out.
    ng.status = "ACTIVE";
    if (code === "NodeCreationFailure") ng.issues = [{ code, message, resourceIds: ids }];
    ng.modifiedAt = this.#ctx.clock.nowMs();
    this.eks.finish(this.rec, "Failed", [
      { errorCode: code, errorMessage: message, resourceIds: ids },
    ]);
    return false;
  }
}
