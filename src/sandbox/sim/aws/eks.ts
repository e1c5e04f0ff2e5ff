// Amazon EKS: the cluster, its managed node groups, and their updates. A version update runs
// the four phases of reference 000 step by step, on the virtual clock:
//
//   setup       a new launch template version (the target AMI, or the customer's version);
//               the Auto Scaling group now launches from it; maxUnavailable from updateConfig
//               (a number, or a percentage of the group, at least 1, at most 100).
//   scale-up    max and desired grow by max(2 × zones, maxUnavailable); wait until at least one
//               new node per zone of the group is there and every new node is Ready with the
//               EKS labels (else NodeCreationFailure); taint every node without the latest
//               labels eks.amazonaws.com/nodegroup=unschedulable:NoSchedule.
//   upgrade     pick up to maxUnavailable old nodes at random; drain each (evictions, PDBs
//               honoured, 429s retried) for at most 15 minutes, then PodEvictionFailure unless
//               `force`, which deletes what is left; cordon; wait 60 s; label it
//               node.kubernetes.io/exclude-from-external-load-balancers=true; terminate it
//               through the group (no decrement, so a new node replaces it); repeat.
//   scale-down  max and desired shrink by one at a time back to the sizes before the update
//               (each surplus node drained, then terminated with a decrement); when something
//               else (the cluster autoscaler) changes the group meanwhile, stop at once and
//               leave the sizes as they are.
//
// Where the reference is silent the sandbox chooses, and says so here: a failed update leaves
// the group scaled up and tainted (EKS does not roll back); the surplus removed in scale-down
// is drained like the old nodes.
import type { EksUpdate, UpdateConfig, UpdateNodegroupVersionInput } from "../../../ports/cloud.js";
import { AwsApiError } from "../../../ports/errors.js";
import type { AwsSim } from "./aws.js";
import type { VirtualClock } from "../../model/clock.js";
import type { KubeSim } from "../kube/kube.js";
import type { AsgRec, InstanceRec, NodegroupRec, NodeRec, PodRec } from "../../model/records.js";
import type { Timeline } from "../../model/observers.js";
import type { Random } from "../../model/random.js";

export const NODEGROUP_LABEL = "eks.amazonaws.com/nodegroup";
export const NODEGROUP_IMAGE_LABEL = "eks.amazonaws.com/nodegroup-image";
export const EXCLUDE_LB_LABEL = "node.kubernetes.io/exclude-from-external-load-balancers";
export const UPDATE_TAINT = {
  key: NODEGROUP_LABEL,
  value: "unschedulable",
  effect: "NoSchedule" as const,
};

export interface EksTimings {
  /** How long a drain may take before PodEvictionFailure (15 minutes). */
  drainTimeoutSeconds: number;
  /** The wait after a drain before terminating (60 s). */
  postDrainSeconds: number;
  /** How long scale-up waits for new nodes before NodeCreationFailure. */
  nodeCreationTimeoutSeconds: number;
  /** Between eviction retries. */
  evictionRetrySeconds: number;
  /** An UpdateNodegroupConfig takes this long. */
  configUpdateSeconds: number;
}

export interface EksContext {
  clock: VirtualClock;
  random: Random;
  timeline: Timeline;
  aws: AwsSim;
  kube: KubeSim;
  timings: EksTimings;
  clusterName: string;
}

interface UpdateRec {
  update: EksUpdate;
  nodegroup?: string;
}

export const PHASES = ["setup", "scale-up", "upgrade", "scale-down"] as const;

export class EksSim {
  version: string;
  /** Release versions per Kubernetes minor version, oldest first; the last is the latest. */
  releases: Record<string, string[]> = {};
  readonly nodegroups = new Map<string, NodegroupRec>();
  readonly updates = new Map<string, UpdateRec>();
  /** Update ids per node group ("" for the cluster), newest first. */
  readonly updateIds = new Map<string, string[]>();

  constructor(
    readonly ctx: EksContext,
    version: string,
  ) {
    this.version = version;
  }

  latestRelease(minor: string): string | undefined {
    const list = this.releases[minor];
    return list?.[list.length - 1];
  }
  /** The AMI id an EKS release version maps to (stable, so labels can be compared). */
  amiFor(release: string): string {
    let h = 0x811c9dc5;
    for (const ch of release) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    return `ami-0${h.toString(16).padStart(8, "0")}${(h ^ 0x5bd1e995).toString(16).padStart(8, "0")}`;
  }

  nodegroup(name: string): NodegroupRec {
    const ng = this.nodegroups.get(name);
    if (!ng)
      throw new AwsApiError(
        "ResourceNotFoundException",
        `No node group found for name: ${name}.`,
        404,
      );
    return ng;
  }

  /** Nodes of a managed group. */
  nodesOf(ng: NodegroupRec): NodeRec[] {
    const g = this.ctx.aws.group(ng.asg);
    const out: NodeRec[] = [];
    for (const id of g.instances) {
      const inst = this.ctx.aws.instances.get(id);
      const node = inst ? this.ctx.kube.nodes.get(inst.nodeName) : undefined;
      if (node && !node.deleted) out.push(node);
    }
    return out;
  }

  maxUnavailable(ng: NodegroupRec, g: AsgRec): number {
    const c = ng.updateConfig;
    const n =
      c.maxUnavailablePercentage !== undefined
        ? Math.floor((c.maxUnavailablePercentage * g.desired) / 100)
        : (c.maxUnavailable ?? 1);
    return Math.min(100, Math.max(1, n));
  }

  #newUpdate(
    ng: string | undefined,
    type: string,
    params: { type: string; value: string }[],
  ): UpdateRec {
    const update: EksUpdate = {
      id: this.ctx.random.uuid(),
      status: "InProgress",
      type,
      params,
      createdAt: this.ctx.clock.now(),
      errors: [],
    };
    const rec: UpdateRec = { update, ...(ng ? { nodegroup: ng } : {}) };
    this.updates.set(update.id, rec);
    const key = ng ?? "";
    this.updateIds.set(key, [update.id, ...(this.updateIds.get(key) ?? [])]);
    this.ctx.timeline.record("eks.update", {
      group: ng,
      updateId: update.id,
      updateType: type,
      status: "InProgress",
    });
    return rec;
  }

  #finish(rec: UpdateRec, status: EksUpdate["status"], errors: EksUpdate["errors"] = []): void {
    rec.update.status = status;
    rec.update.errors = errors;
    this.ctx.timeline.record("eks.update", {
      group: rec.nodegroup,
      updateId: rec.update.id,
      updateType: rec.update.type,
      status,
      errors: errors.map((e) => e.errorCode),
    });
  }

  #busy(ng: NodegroupRec): void {
    if (ng.status === "UPDATING")
      throw new AwsApiError(
        "ResourceInUseException",
        `Nodegroup ${ng.name} is currently in use: an update is in progress.`,
        409,
      );
  }

  updateNodegroupConfig(
    name: string,
    config: {
      updateConfig?: UpdateConfig;
      scalingConfig?: { minSize?: number; maxSize?: number; desiredSize?: number };
    },
  ): EksUpdate {
    const ng = this.nodegroup(name);
    this.#busy(ng);
    const u = config.updateConfig;
    if (u) {
      if (u.maxUnavailable !== undefined && u.maxUnavailablePercentage !== undefined)
        throw new AwsApiError(
          "InvalidParameterException",
          "Only one of maxUnavailable and maxUnavailablePercentage may be set.",
        );
      if (
        u.maxUnavailable !== undefined &&
        (u.maxUnavailable < 1 || u.maxUnavailable > 100 || !Number.isInteger(u.maxUnavailable))
      )
        throw new AwsApiError(
          "InvalidParameterException",
          "maxUnavailable must be an integer between 1 and 100.",
        );
      if (
        u.maxUnavailablePercentage !== undefined &&
        (u.maxUnavailablePercentage < 1 || u.maxUnavailablePercentage > 100)
      )
        throw new AwsApiError(
          "InvalidParameterException",
          "maxUnavailablePercentage must be between 1 and 100.",
        );
    }
    const params: { type: string; value: string }[] = [];
    if (u?.maxUnavailable !== undefined)
      params.push({ type: "MaxUnavailable", value: String(u.maxUnavailable) });
    if (u?.maxUnavailablePercentage !== undefined)
      params.push({ type: "MaxUnavailablePercentage", value: String(u.maxUnavailablePercentage) });
    if (u?.updateStrategy) params.push({ type: "UpdateStrategy", value: u.updateStrategy });
    const s = config.scalingConfig;
    if (s?.minSize !== undefined) params.push({ type: "MinSize", value: String(s.minSize) });
    if (s?.maxSize !== undefined) params.push({ type: "MaxSize", value: String(s.maxSize) });
    if (s?.desiredSize !== undefined)
      params.push({ type: "DesiredSize", value: String(s.desiredSize) });
    const rec = this.#newUpdate(name, "ConfigUpdate", params);
    ng.status = "UPDATING";
    this.ctx.clock.after(this.ctx.timings.configUpdateSeconds * 1000, () => {
      if (u) {
        const next: UpdateConfig = {
          ...(ng.updateConfig.updateStrategy
            ? { updateStrategy: ng.updateConfig.updateStrategy }
            : {}),
        };
        if (u.maxUnavailable !== undefined) next.maxUnavailable = u.maxUnavailable;
        else if (u.maxUnavailablePercentage !== undefined)
          next.maxUnavailablePercentage = u.maxUnavailablePercentage;
        else {
          if (ng.updateConfig.maxUnavailable !== undefined)
            next.maxUnavailable = ng.updateConfig.maxUnavailable;
          if (ng.updateConfig.maxUnavailablePercentage !== undefined)
            next.maxUnavailablePercentage = ng.updateConfig.maxUnavailablePercentage;
        }
        if (u.updateStrategy) next.updateStrategy = u.updateStrategy;
        ng.updateConfig = next;
      }
      ng.status = "ACTIVE";
      ng.modifiedAt = this.ctx.clock.nowMs();
      try {
        if (s)
          this.ctx.aws.setCapacity(
            this.ctx.aws.group(ng.asg),
            { min: s.minSize, max: s.maxSize, desired: s.desiredSize } as {
              min?: number;
              max?: number;
              desired?: number;
            },
            "eks",
          );
        this.#finish(rec, "Successful");
      } catch (e) {
        this.#finish(rec, "Failed", [
          {
            errorCode: "InvalidParameterException" as string,
            errorMessage: (e as Error).message,
            resourceIds: [name],
          },
        ]);
      }
    });
    return structuredClone(rec.update);
  }

  updateNodegroupVersion(input: UpdateNodegroupVersionInput): EksUpdate {
    const ng = this.nodegroup(input.nodegroupName);
    this.#busy(ng);
    const version =
      input.version ??
      (input.releaseVersion ? input.releaseVersion.split(".").slice(0, 2).join(".") : ng.version);
    if (compareMinor(version, this.version) > 0)
      throw new AwsApiError(
        "InvalidParameterException",
        `Requested Nodegroup version ${version} is invalid. Nodegroup version must not be greater than the cluster version ${this.version}.`,
      );
    let release: string | undefined;
    let ltVersion: number | undefined;
    if (input.launchTemplate) {
      if (!ng.customLaunchTemplate)
        throw new AwsApiError(
          "InvalidParameterException",
          "You cannot specify a launch template for a node group that was not created with one.",
        );
      const t = this.ctx.aws.template(ng.ltId);
      ltVersion = this.ctx.aws.resolveVersion(t, input.launchTemplate.version ?? "$Default").number;
    } else {
      release = input.releaseVersion ?? this.latestRelease(version);
      if (!release || !(this.releases[version] ?? []).includes(release))
        throw new AwsApiError(
          "InvalidParameterException",
          `Requested release version ${input.releaseVersion ?? "(latest)"} is not valid for kubernetes version ${version}.`,
        );
      if (release === ng.releaseVersion && version === ng.version)
        throw new AwsApiError(
          "InvalidParameterException",
          `Nodegroup ${ng.name} is already at release version ${release}.`,
        );
    }
    const params = [
      { type: "Version", value: version },
      ...(release ? [{ type: "ReleaseVersion", value: release }] : []),
      ...(ltVersion !== undefined
        ? [{ type: "LaunchTemplateVersion", value: String(ltVersion) }]
        : []),
      ...(input.force ? [{ type: "Force", value: "true" }] : []),
    ];
    const rec = this.#newUpdate(ng.name, "VersionUpdate", params);
    ng.status = "UPDATING";
    void this.#runVersionUpdate(rec, ng, {
      version,
      release,
      ltVersion,
      force: input.force === true,
    }).catch((e: unknown) => {
      ng.status = "ACTIVE";
      this.#finish(rec, "Failed", [
        {
          errorCode: "InternalFailure",
          errorMessage: (e as Error).message,
          resourceIds: [ng.name],
        },
      ]);
    });
    return structuredClone(rec.update);
  }

  describeUpdate(id: string): UpdateRec {
    const rec = this.updates.get(id);
    if (!rec)
      throw new AwsApiError("ResourceNotFoundException", `No update found for ID: ${id}.`, 404);
    return rec;
  }

  #phase(ng: string, phase: string, end?: string): void {
    this.ctx.timeline.record(end ? "eks.phase.end" : "eks.phase.start", {
      group: ng,
      phase,
      ...(end ? { result: end } : {}),
    });
  }

  async #runVersionUpdate(
    rec: UpdateRec,
    ng: NodegroupRec,
    target: {
      version: string;
      release: string | undefined;
      ltVersion: number | undefined;
      force: boolean;
    },
  ): Promise<void> {
    const { clock, aws, kube } = this.ctx;
    const g = aws.group(ng.asg);
    const name = ng.name;
    const fail = (code: string, message: string, ids: string[], phase: string) => {
      this.#phase(name, phase, "failure");
      ng.status = "ACTIVE";
      if (code === "NodeCreationFailure") {
        // The group stays degraded until its nodes join, as EKS reports health issues.
        ng.status = "DEGRADED";
        ng.issues = [{ code, message, resourceIds: ids }];
      }
      ng.modifiedAt = clock.nowMs();
      this.#finish(rec, "Failed", [{ errorCode: code, errorMessage: message, resourceIds: ids }]);
    };

    // ---- setup
    this.#phase(name, "setup");
    const t = aws.template(ng.ltId);
    const newVersion =
      target.ltVersion !== undefined
        ? aws.resolveVersion(t, String(target.ltVersion))
        : aws.addTemplateVersion(t, {
            imageId: this.amiFor(target.release as string),
            releaseVersion: target.release as string,
            kubernetesVersion: target.version,
          });
    g.ltVersion = String(newVersion.number);
    this.ctx.timeline.record("eks.launch-template", {
      group: name,
      launchTemplate: t.id,
      version: newVersion.number,
      imageId: newVersion.imageId,
    });
    const maxUnavailable = this.maxUnavailable(ng, g);
    this.#phase(name, "setup", "success");

    // ---- scale-up
    this.#phase(name, "scale-up");
    const original = { min: g.min, max: g.max, desired: g.desired };
    // MINIMAL (for scarce capacity) launches nothing ahead: each old node is replaced after it
    // is terminated. DEFAULT surges by max(2 × zones, maxUnavailable).
    const minimal = ng.updateConfig.updateStrategy === "MINIMAL";
    const increase = minimal ? 0 : Math.max(2 * g.zones.length, maxUnavailable);
    if (increase > 0)
      aws.setCapacity(g, { max: g.max + increase, desired: g.desired + increase }, "eks");
    const isNew = (i: InstanceRec) => i.ltVersion === newVersion.number;
    const zonesWithNodes = new Set(
      aws
        .active(g)
        .filter((i) => !isNew(i))
        .map((i) => i.zone),
    );
    const newReady = (): boolean => {
      const fresh = aws.active(g).filter(isNew);
      const covered = new Set<string>();
      for (const i of fresh) {
        const node = kube.nodes.get(i.nodeName);
        if (
          !node ||
          !node.ready ||
          node.labels[NODEGROUP_IMAGE_LABEL] !== newVersion.imageId ||
          node.labels[NODEGROUP_LABEL] !== name
        )
          return false;
        covered.add(i.zone);
      }
      return fresh.length > 0 && [...zonesWithNodes].every((z) => covered.has(z));
    };
    const deadline = clock.nowMs() + this.ctx.timings.nodeCreationTimeoutSeconds * 1000;
    while (increase > 0 && !newReady()) {
      if (clock.nowMs() >= deadline) {
        const bad = aws
          .active(g)
          .filter((i) => isNew(i) && !kube.nodes.get(i.nodeName)?.ready)
          .map((i) => i.id);
        return fail(
          "NodeCreationFailure",
          "Instances failed to join the kubernetes cluster",
          bad,
          "scale-up",
        );
      }
      await clock.sleep(10_000);
    }
    for (const node of this.nodesOf(ng)) {
      if (node.labels[NODEGROUP_IMAGE_LABEL] === newVersion.imageId) continue;
      if (node.taints.some((x) => x.key === UPDATE_TAINT.key && x.effect === UPDATE_TAINT.effect))
        continue;
      kube.patchNode(node.name, { taints: [...node.taints, { ...UPDATE_TAINT }] }, "eks");
    }
    this.#phase(name, "scale-up", "success");

    // ---- upgrade
    this.#phase(name, "upgrade");
    for (;;) {
      const old = this.nodesOf(ng).filter(
        (n) =>
          n.labels[NODEGROUP_IMAGE_LABEL] !== newVersion.imageId && !n.labels[EXCLUDE_LB_LABEL],
      );
      if (old.length === 0) break;
      const batch = this.ctx.random.sample(old, maxUnavailable);
      const results = await Promise.all(batch.map((n) => this.#replace(name, n, target.force)));
      const stuck = results.flatMap((r) => r);
      if (stuck.length > 0)
        return fail(
          "PodEvictionFailure",
          "Reached max retries while trying to evict pods from nodes in node group " + name,
          stuck,
          "upgrade",
        );
    }
    this.#phase(name, "upgrade", "success");

    // ---- scale-down
    this.#phase(name, "scale-down");
    let expected = g.desired;
    while (g.desired > original.desired) {
      if (g.desired !== expected) {
        this.ctx.timeline.record("eks.scale-down.exit", {
          group: name,
          desired: g.desired,
          expected,
        });
        break;
      }
      const victim = this.#surplus(g);
      if (!victim) break;
      const node = kube.nodes.get(victim.nodeName);
      if (node) {
        kube.patchNode(node.name, { unschedulable: true }, "eks");
        await this.#drain(name, node, target.force);
      }
      if (g.desired !== expected) {
        this.ctx.timeline.record("eks.scale-down.exit", {
          group: name,
          desired: g.desired,
          expected,
        });
        break;
      }
      if (victim.asg === g.name && victim.lifecycle === "InService")
        aws.terminateInGroup(victim.id, true, "eks");
      else aws.setCapacity(g, { desired: g.desired - 1 }, "eks");
      aws.setCapacity(g, { max: Math.max(original.max, g.max - 1) }, "eks");
      expected = g.desired;
      // One at a time: the next step starts once this instance is gone.
      while (victim.state !== "terminated") await clock.sleep(5_000);
    }
    if (g.desired === original.desired && g.max !== original.max)
      aws.setCapacity(g, { max: original.max }, "eks");
    this.#phase(name, "scale-down", "success");

    ng.version = target.version;
    if (target.release) ng.releaseVersion = target.release;
    ng.status = "ACTIVE";
    ng.modifiedAt = clock.nowMs();
    this.#finish(rec, "Successful");
  }

  /** A surplus new node for scale-down: from the most populated zone, the one with fewest pods. */
  #surplus(g: AsgRec): InstanceRec | undefined {
    const active = this.ctx.aws.active(g);
    const zones = new Map<string, number>();
    for (const i of active) zones.set(i.zone, (zones.get(i.zone) ?? 0) + 1);
    const pods = (i: InstanceRec) => this.ctx.kube.nodes.get(i.nodeName)?.pods.size ?? 0;
    return active
      .filter((i) => i.lifecycle === "InService")
      .sort(
        (a, b) =>
          (zones.get(b.zone) ?? 0) - (zones.get(a.zone) ?? 0) ||
          pods(a) - pods(b) ||
          (a.id < b.id ? -1 : 1),
      )[0];
  }

  /** Drain, cordon, wait 60 s, label, terminate. Returns the node's name when the drain failed. */
  async #replace(group: string, node: NodeRec, force: boolean): Promise<string[]> {
    const { clock, aws, kube } = this.ctx;
    const ok = await this.#drain(group, node, force);
    if (!ok) return [node.name];
    kube.patchNode(node.name, { unschedulable: true }, "eks");
    this.ctx.timeline.record("eks.wait", {
      group,
      node: node.name,
      seconds: this.ctx.timings.postDrainSeconds,
    });
    await clock.sleep(this.ctx.timings.postDrainSeconds * 1000);
    if (kube.nodes.has(node.name))
      kube.patchNode(node.name, { labels: { [EXCLUDE_LB_LABEL]: "true" } }, "eks");
    const inst = aws.instances.get(node.instanceId);
    if (inst && inst.asg) aws.terminateInGroup(inst.id, false, "eks");
    return [];
  }

  /** Evict every pod but DaemonSet pods until the node is empty, for at most drainTimeout. */
  async #drain(group: string, node: NodeRec, force: boolean): Promise<boolean> {
    const { clock, kube } = this.ctx;
    const started = clock.nowMs();
    const deadline = started + this.ctx.timings.drainTimeoutSeconds * 1000;
    this.ctx.timeline.record("node.drain.start", { group, node: node.name, by: "eks" });
    const evicted = new Set<string>();
    const movable = () =>
      [...node.pods].filter((p: PodRec) => !p.gone && p.workload?.kind !== "DaemonSet");
    for (;;) {
      const left = movable();
      if (left.length === 0) break;
      for (const p of left) {
        if (p.deletionAt !== undefined) continue;
        const out = kube.evict(p.namespace, p.name, { by: "eks" });
        if (out.status === 201) evicted.add(`${p.namespace}/${p.name}`);
      }
      if (movable().length === 0) break;
      if (clock.nowMs() >= deadline) {
        if (!force) {
          this.ctx.timeline.record("node.drain.end", {
            group,
            node: node.name,
            evicted: evicted.size,
            result: "failure",
            remaining: movable().map((p) => `${p.namespace}/${p.name}`),
          });
          return false;
        }
        const deleted = movable().map((p) => `${p.namespace}/${p.name}`);
        for (const p of movable()) kube.deletePod(p, 0, "eks-force");
        this.ctx.timeline.record("node.drain.end", {
          group,
          node: node.name,
          evicted: evicted.size,
          deleted,
          result: "forced",
        });
        return true;
      }
      await clock.sleep(this.ctx.timings.evictionRetrySeconds * 1000);
    }
    this.ctx.timeline.record("node.drain.end", {
      group,
      node: node.name,
      evicted: evicted.size,
      result: "success",
    });
    return true;
  }
}

export function compareMinor(a: string, b: string): number {
  const [am = 0, an = 0] = a.split(".").map(Number);
  const [bm = 0, bn = 0] = b.split(".").map(Number);
  return am - bm || an - bn;
}
