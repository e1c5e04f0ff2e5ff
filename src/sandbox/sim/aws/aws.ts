// The AWS side of the world: launch templates with numbered versions, EC2 instances that boot,
// and Auto Scaling groups that keep their desired capacity, balanced across zones — launching
// (with a boot delay, and failing when a zone is out of capacity) and terminating as the real
// service does, and recording scaling activities.
import type { ScalingActivity } from "../../../ports/cloud.js";
import { AwsApiError } from "../../../ports/errors.js";
import type { VirtualClock } from "../../model/clock.js";
import type { KubeSim } from "../kube/kube.js";
import type { AsgRec, InstanceRec, LaunchTemplateRec, LtVersion } from "../../model/records.js";
import type { Timeline } from "../../model/observers.js";
import type { Random } from "../../model/random.js";

export interface AwsTimings {
  /** EC2 pending → running. */
  bootSeconds: number;
  bootJitterSeconds: number;
  /** running → the kubelet registers the node. */
  registerSeconds: number;
  /** shutting-down → terminated (the kubelet stops at the start). */
  terminateSeconds: number;
  /** terminated → the node object is deleted (cloud node lifecycle controller). */
  nodeDeleteSeconds: number;
  /** A failed launch is retried after this long. */
  launchRetrySeconds: number;
}

export interface LaunchFault {
  zone?: string;
  group?: string;
  from: number;
  until: number;
}

export interface NeverReadyFault {
  group?: string;
  /** Instances launched at or after this virtual time never become Ready. */
  from: number;
}

export interface AwsContext {
  clock: VirtualClock;
  random: Random;
  timeline: Timeline;
  kube: KubeSim;
  timings: AwsTimings;
  region: string;
  launchFaults: LaunchFault[];
  neverReady: NeverReadyFault[];
  /** For the node's labels: what a managed group's nodes carry. */
  nodeLabels: (asg: AsgRec, instance: InstanceRec) => Record<string, string>;
}

const ACTIVE = new Set(["Pending", "Pending:Wait", "Pending:Proceed", "InService"]);

export class AwsSim {
  readonly templates = new Map<string, LaunchTemplateRec>();
  readonly instances = new Map<string, InstanceRec>();
  readonly groups = new Map<string, AsgRec>();
  #nodeSeq = 0;

  constructor(readonly ctx: AwsContext) {}

  // ---------------------------------------------------------------- launch templates

  template(idOrName: string): LaunchTemplateRec {
    const t =
      this.templates.get(idOrName) ?? [...this.templates.values()].find((x) => x.name === idOrName);
    if (!t)
      throw new AwsApiError(
        "InvalidLaunchTemplateId.NotFound",
        `The specified launch template, with template ID ${idOrName}, does not exist.`,
      );
    return t;
  }

  /** "$Latest", "$Default" or a number → the version record. */
  resolveVersion(t: LaunchTemplateRec, version: string): LtVersion {
    const n =
      version === "$Latest"
        ? Math.max(...t.versions.map((v) => v.number))
        : version === "$Default"
          ? t.defaultVersion
          : Number(version);
    const v = t.versions.find((x) => x.number === n);
    if (!v)
      throw new AwsApiError(
        "InvalidLaunchTemplateVersion.NotFound",
        `Could not find launch template version ${version} for launch template ${t.id}.`,
      );
    return v;
  }

  addTemplateVersion(t: LaunchTemplateRec, v: Omit<LtVersion, "number" | "createdAt">): LtVersion {
    const number = Math.max(0, ...t.versions.map((x) => x.number)) + 1;
    const rec: LtVersion = { ...v, number, createdAt: this.ctx.clock.nowMs() };
    t.versions.push(rec);
    return rec;
  }

  // ---------------------------------------------------------------- groups

  group(name: string): AsgRec {
    const g = this.groups.get(name);
    if (!g)
      throw new AwsApiError(
        "ValidationError",
        `AutoScalingGroup name not found - AutoScalingGroup ${name} not found`,
      );
    return g;
  }

  /** Instances that count toward desired capacity. */
  active(g: AsgRec): InstanceRec[] {
    const out: InstanceRec[] = [];
    for (const id of g.instances) {
      const i = this.instances.get(id);
      if (i && ACTIVE.has(i.lifecycle)) out.push(i);
    }
    return out;
  }

  setCapacity(
    g: AsgRec,
    change: { min?: number; max?: number; desired?: number },
    by: string,
  ): void {
    const min = change.min ?? g.min;
    const max = change.max ?? g.max;
    let desired = change.desired ?? g.desired;
    if (min > max)
      throw new AwsApiError(
        "ValidationError",
        `Max bound, ${max}, must be greater than or equal to min bound, ${min}`,
      );
    if (change.desired !== undefined && (desired > max || desired < min)) {
      const which = desired > max ? `above max value ${max}` : `below min value ${min}`;
      throw new AwsApiError(
        "ValidationError",
        `New SetDesiredCapacity value ${desired} is ${which} for the AutoScalingGroup.`,
      );
    }
    // UpdateAutoScalingGroup clamps desired into a new min/max.
    desired = Math.min(max, Math.max(min, desired));
    const from = { min: g.min, max: g.max, desired: g.desired };
    if (from.min === min && from.max === max && from.desired === desired) return;
    g.min = min;
    g.max = max;
    g.desired = desired;
    this.ctx.timeline.record("asg.resize", { group: g.name, from, to: { min, max, desired }, by });
    this.reconcileSoon(g);
  }

  reconcileSoon(g: AsgRec): void {
    if (g.reconcilePending) return;
    g.reconcilePending = true;
    this.ctx.clock.after(0, () => {
      g.reconcilePending = false;
      this.reconcile(g);
    });
  }

  /** Bring the group to its desired capacity: launch in the emptiest zone, or scale in. */
  reconcile(g: AsgRec): void {
    const active = this.active(g);
    if (active.length < g.desired && !g.suspended.has("Launch")) {
      const counts = this.#zoneCounts(g, active);
      let failed: string | undefined;
      for (let k = active.length; k < g.desired; k++) {
        const zones = [...g.zones].sort(
          (a, b) =>
            (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || g.zones.indexOf(a) - g.zones.indexOf(b),
        );
        const zone = zones.find((z) => !this.#launchBlocked(g, z));
        if (!zone) {
          failed = zones[0];
          break;
        }
        if (zone !== zones[0]) {
          this.#launchFailed(g, zones[0] as string);
          this.#rebalanceLater(g);
        }
        this.launch(g, zone);
        counts.set(zone, (counts.get(zone) ?? 0) + 1);
      }
      if (failed !== undefined) {
        this.#launchFailed(g, failed);
        this.ctx.clock.after(this.ctx.timings.launchRetrySeconds * 1000, () => this.reconcile(g));
      }
    } else if (active.length > g.desired && !g.suspended.has("Terminate")) {
      const victims = this.#scaleInOrder(g, active).slice(0, active.length - g.desired);
      for (const i of victims) {
        this.#activity(g, {
          Description: `Terminating EC2 instance: ${i.id}`,
          Cause: `At ${this.ctx.clock.iso()} a user request explicitly set group desired capacity changing the desired capacity from ${active.length} to ${g.desired}.  At ${this.ctx.clock.iso()} an instance was taken out of service in response to a difference between desired and actual capacity, shrinking the capacity from ${active.length} to ${g.desired}.`,
          StatusCode: "Successful",
        });
        this.terminate(i, "scale-in");
      }
    }
  }

  /**
   * AZRebalance: a launch went to another zone because one had no capacity; once it has
   * again, launch there first, then terminate from the most populated zone (default
   * termination policy), until the zones are within one instance of each other.
   */
  #rebalanceLater(g: AsgRec): void {
    if (g.rebalancing) return;
    g.rebalancing = true;
    const check = () => {
      if (g.suspended.has("AZRebalance")) return void (g.rebalancing = false);
      const active = this.active(g);
      const counts = this.#zoneCounts(g, active);
      const sorted = [...g.zones].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0));
      const low = sorted[0] as string;
      const high = sorted[sorted.length - 1] as string;
      if ((counts.get(high) ?? 0) - (counts.get(low) ?? 0) <= 1 || active.length !== g.desired) {
        if (active.length === g.desired) return void (g.rebalancing = false);
        this.ctx.clock.after(this.ctx.timings.launchRetrySeconds * 1000, check);
        return;
      }
      if (this.#launchBlocked(g, low)) {
        this.ctx.clock.after(this.ctx.timings.launchRetrySeconds * 1000, check);
        return;
      }
      const fresh = this.launch(g, low);
      this.ctx.timeline.record("asg.rebalance", { group: g.name, zone: low, instance: fresh.id });
      const waitInService = () => {
        if (fresh.state === "pending") return void this.ctx.clock.after(5_000, waitInService);
        const victim = this.#scaleInOrder(
          g,
          this.active(g).filter((i) => i !== fresh),
        )[0];
        if (victim) this.terminate(victim, "az-rebalance");
        this.ctx.clock.after(this.ctx.timings.launchRetrySeconds * 1000, check);
      };
      waitInService();
    };
    this.ctx.clock.after(this.ctx.timings.launchRetrySeconds * 1000, check);
  }

  #launchFailed(g: AsgRec, zone: string): void {
    this.#activity(g, {
      Description: `Launching a new EC2 instance.  Status Reason: We currently do not have sufficient capacity in the Availability Zone you requested (${zone}). Our system will be working on provisioning additional capacity.`,
      Cause: `At ${this.ctx.clock.iso()} an instance was started in response to a difference between desired and actual capacity, increasing the capacity from ${this.active(g).length} to ${g.desired}.`,
      StatusCode: "Failed",
      StatusMessage:
        "We currently do not have sufficient capacity in the Availability Zone you requested. Launching EC2 instance failed.",
    });
    this.ctx.timeline.record("asg.launch.failed", {
      group: g.name,
      zone,
      reason: "InsufficientInstanceCapacity",
    });
  }

  #zoneCounts(g: AsgRec, active: InstanceRec[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const z of g.zones) counts.set(z, 0);
    for (const i of active) counts.set(i.zone, (counts.get(i.zone) ?? 0) + 1);
    return counts;
  }

  /** The default termination policy: the most populated zone, then the oldest launch template version, then the oldest instance. */
  #scaleInOrder(g: AsgRec, active: InstanceRec[]): InstanceRec[] {
    const counts = this.#zoneCounts(g, active);
    const out: InstanceRec[] = [];
    const pool = active.filter((i) => !i.tags.some((t) => t.Key === "protected"));
    while (pool.length) {
      pool.sort(
        (a, b) =>
          (counts.get(b.zone) ?? 0) - (counts.get(a.zone) ?? 0) ||
          a.ltVersion - b.ltVersion ||
          a.launchTime - b.launchTime ||
          (a.id < b.id ? -1 : 1),
      );
      const pick = pool.shift() as InstanceRec;
      counts.set(pick.zone, (counts.get(pick.zone) ?? 1) - 1);
      out.push(pick);
    }
    return out;
  }

  #launchBlocked(g: AsgRec, zone: string): boolean {
    const now = this.ctx.clock.nowMs();
    return this.ctx.launchFaults.some(
      (f) =>
        (!f.zone || f.zone === zone) &&
        (!f.group || f.group === g.name || f.group === g.nodegroup) &&
        now >= f.from &&
        now < f.until,
    );
  }

  /** Launch one instance; it boots, its kubelet registers, the node turns Ready. */
  launch(
    g: AsgRec,
    zone: string,
    opts: { ltVersion?: number; initial?: boolean } = {},
  ): InstanceRec {
    const t = this.template(g.ltId);
    const v =
      opts.ltVersion !== undefined
        ? this.resolveVersion(t, String(opts.ltVersion))
        : this.resolveVersion(t, g.ltVersion);
    const now = this.ctx.clock.nowMs();
    const id = `i-0${this.ctx.random.hex(16)}`;
    const seq = ++this.#nodeSeq;
    const zi = Math.max(0, g.zones.indexOf(zone));
    const nodeName = `ip-10-${zi * 16 + (seq >> 16)}-${(seq >> 8) & 255}-${seq & 255}.${this.ctx.region}.compute.internal`;
    const neverReady =
      !opts.initial &&
      this.ctx.neverReady.some(
        (f) => (!f.group || f.group === g.name || f.group === g.nodegroup) && now >= f.from,
      );
    const inst: InstanceRec = {
      id,
      zone,
      instanceType: g.instanceType,
      asg: g.name,
      launchedBy: g.name,
      ltId: t.id,
      ltVersion: v.number,
      imageId: v.imageId,
      launchTime: now,
      state: opts.initial ? "running" : "pending",
      lifecycle: opts.initial ? "InService" : "Pending",
      health: "Healthy",
      nodeName,
      neverReady,
      tags: [
        { Key: "aws:autoscaling:groupName", Value: g.name },
        ...g.tags.filter((x) => x.PropagateAtLaunch).map((x) => ({ Key: x.Key, Value: x.Value })),
      ],
    };
    this.instances.set(id, inst);
    g.instances.add(id);
    if (opts.initial) {
      this.#register(g, inst, true);
      return inst;
    }
    this.#activity(g, {
      Description: `Launching a new EC2 instance: ${id}`,
      Cause: `At ${this.ctx.clock.iso()} an instance was started in response to a difference between desired and actual capacity, increasing the capacity to ${g.desired}.`,
      StatusCode: "Successful",
    });
    this.ctx.timeline.record("instance.launch", {
      group: g.name,
      instance: id,
      zone,
      ltVersion: v.number,
    });
    const boot = this.ctx.random.jitter(
      this.ctx.timings.bootSeconds,
      this.ctx.timings.bootJitterSeconds,
    );
    this.ctx.clock.after(boot * 1000, () => {
      if (inst.state !== "pending") return;
      inst.state = "running";
      if (inst.lifecycle === "Pending") inst.lifecycle = "InService";
      this.ctx.clock.after(this.ctx.timings.registerSeconds * 1000, () => {
        if (inst.state === "running") this.#register(g, inst, false);
      });
    });
    return inst;
  }

  #register(g: AsgRec, inst: InstanceRec, readyNow: boolean): void {
    const t = this.template(inst.ltId);
    const v = t.versions.find((x) => x.number === inst.ltVersion);
    this.ctx.kube.registerNode({
      name: inst.nodeName,
      instanceId: inst.id,
      zone: inst.zone,
      group: g.nodegroup ?? g.name,
      instanceType: inst.instanceType,
      labels: { ...g.labels, ...this.ctx.nodeLabels(g, inst) },
      taints: g.taints,
      capacity: g.capacity,
      kubeletVersion: `v${v?.kubernetesVersion ?? "1.0"}.0-eks`,
      neverReady: inst.neverReady,
      readyNow,
    });
  }

  /** Terminate an instance: the kubelet stops at once, the node object goes away after. */
  terminate(inst: InstanceRec, by: string): void {
    if (inst.state === "shutting-down" || inst.state === "terminated") return;
    const g = inst.asg ? this.groups.get(inst.asg) : undefined;
    inst.lifecycle = "Terminating";
    inst.state = "shutting-down";
    this.ctx.timeline.record("instance.terminated", {
      group: g?.name ?? inst.launchedBy,
      instance: inst.id,
      node: inst.nodeName,
      by,
    });
    const node = this.ctx.kube.nodes.get(inst.nodeName);
    if (node) this.ctx.kube.setNodeReady(node, false);
    this.ctx.clock.after(this.ctx.timings.terminateSeconds * 1000, () => {
      inst.state = "terminated";
      inst.lifecycle = "Terminated";
      if (g) g.instances.delete(inst.id);
      this.ctx.clock.after(this.ctx.timings.nodeDeleteSeconds * 1000, () =>
        this.ctx.kube.deleteNode(inst.nodeName),
      );
    });
    if (g) this.reconcileSoon(g);
  }

  /** TerminateInstanceInAutoScalingGroup. */
  terminateInGroup(id: string, decrement: boolean, by: string): ScalingActivity {
    const inst = this.instances.get(id);
    const g = inst?.asg ? this.groups.get(inst.asg) : undefined;
    if (!inst || !g || !ACTIVE.has(inst.lifecycle))
      throw new AwsApiError(
        "ValidationError",
        `Instance Id not found - No managed instance found for instance ID: ${id}`,
      );
    if (decrement) {
      if (g.desired <= g.min)
        throw new AwsApiError(
          "ValidationError",
          `Currently, desiredSize equals minSize (${g.min}). Terminating instance without replacement will violate group's min size constraint. Either set shouldDecrementDesiredCapacity flag to false or lower group's min size.`,
        );
      const from = { min: g.min, max: g.max, desired: g.desired };
      g.desired -= 1;
      this.ctx.timeline.record("asg.resize", {
        group: g.name,
        from,
        to: { min: g.min, max: g.max, desired: g.desired },
        by,
      });
    }
    const act = this.#activity(g, {
      Description: `Terminating EC2 instance: ${id}`,
      Cause: `At ${this.ctx.clock.iso()} instance ${id} was taken out of service in response to a user request${decrement ? ", shrinking the capacity" : ""}.`,
      StatusCode: "InProgress",
    });
    this.terminate(inst, by);
    act.StatusCode = "Successful";
    return act;
  }

  /** DetachInstances: the instance keeps running outside the group. */
  detach(g: AsgRec, ids: string[], decrement: boolean, by: string): ScalingActivity[] {
    const out: ScalingActivity[] = [];
    for (const id of ids) {
      const inst = this.instances.get(id);
      if (!inst || inst.asg !== g.name || !ACTIVE.has(inst.lifecycle))
        throw new AwsApiError(
          "ValidationError",
          `The instance ${id} is not part of Auto Scaling group ${g.name}.`,
        );
    }
    if (decrement && g.desired - ids.length < g.min)
      throw new AwsApiError(
        "ValidationError",
        `The number of instances to detach would make the group's desired capacity fall below its minimum size (${g.min}).`,
      );
    for (const id of ids) {
      const inst = this.instances.get(id) as InstanceRec;
      inst.lifecycle = "Detached";
      inst.asg = undefined;
      g.instances.delete(id);
      if (decrement) g.desired -= 1;
      this.ctx.timeline.record("instance.detach", { group: g.name, instance: id, decrement, by });
      out.push(
        this.#activity(g, {
          Description: `Detaching EC2 instance: ${id}`,
          Cause: `At ${this.ctx.clock.iso()} instance ${id} was detached in response to a user request${decrement ? ", shrinking the capacity" : ""}.`,
          StatusCode: "Successful",
        }),
      );
    }
    this.reconcileSoon(g);
    return out;
  }

  #activity(
    g: AsgRec,
    a: Pick<ScalingActivity, "Description" | "Cause" | "StatusCode"> & { StatusMessage?: string },
  ): ScalingActivity {
    const now = this.ctx.clock.now();
    const act: ScalingActivity = {
      ActivityId: this.ctx.random.uuid(),
      AutoScalingGroupName: g.name,
      StartTime: now,
      EndTime: now,
      ...a,
    };
    g.activities.unshift(act);
    if (g.activities.length > 500) g.activities.length = 500;
    return act;
  }
}
