// Auto Scaling in the simulated account: groups that keep their desired capacity, balanced
// across zones — launching in the emptiest zone (and failing when a zone is out of capacity),
// rebalancing zones once capacity is back, scaling in by the default termination policy — plus
// DetachInstances, TerminateInstanceInAutoScalingGroup, suspended processes and the scaling
// activities a client can read. The instances themselves are EC2's (ec2.ts).
import type { ScalingActivity } from "../../../ports/cloud.js";
import { AwsApiError } from "../../../ports/errors.js";
import type { VirtualClock } from "../../model/clock.js";
import type { Timeline } from "../../model/observers.js";
import type { Random } from "../../model/random.js";
import type { AsgRec, InstanceRec } from "../../model/records.js";
import type { Ec2Sim } from "./ec2.js";

export interface AutoScalingTimings {
  /** A failed launch is retried after this long. */
  launchRetrySeconds: number;
}

export interface LaunchFault {
  zone?: string;
  group?: string;
  from: number;
  until: number;
}

export interface AutoScalingContext {
  clock: VirtualClock;
  random: Random;
  timeline: Timeline;
  /** Runs the instances the groups ask for. */
  ec2: Ec2Sim;
  timings: AutoScalingTimings;
  launchFaults: LaunchFault[];
}

const ACTIVE: ReadonlySet<string> = new Set([
  "Pending",
  "Pending:Wait",
  "Pending:Proceed",
  "InService",
]);

export class AutoScalingSim {
  readonly groups = new Map<string, AsgRec>();

  constructor(readonly ctx: AutoScalingContext) {}

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
      const i = this.ctx.ec2.instances.get(id);
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
    const { ec2 } = this.ctx;
    const inst = ec2.run(g, zone, opts);
    g.instances.add(inst.id);
    if (opts.initial) {
      ec2.registerNode(g, inst, true);
      return inst;
    }
    this.#activity(g, {
      Description: `Launching a new EC2 instance: ${inst.id}`,
      Cause: `At ${this.ctx.clock.iso()} an instance was started in response to a difference between desired and actual capacity, increasing the capacity to ${g.desired}.`,
      StatusCode: "Successful",
    });
    this.ctx.timeline.record("instance.launch", {
      group: g.name,
      instance: inst.id,
      zone,
      ltVersion: inst.ltVersion,
    });
    ec2.boot(g, inst);
    return inst;
  }

  /**
   * A warm pool's instance: launched from the group's template version (or `ltVersion`) and kept
   * in the pool's state, with no node (its kubelet runs only once it enters service).
   */
  launchWarm(g: AsgRec, zone: string, ltVersion?: number): InstanceRec {
    const pool = g.warmPool as NonNullable<AsgRec["warmPool"]>;
    const inst = this.ctx.ec2.run(g, zone, {
      ...(ltVersion !== undefined && { ltVersion }),
      initial: true,
    });
    inst.state = pool.state === "Running" ? "running" : "stopped";
    inst.lifecycle = `Warmed:${pool.state}`;
    pool.instances.add(inst.id);
    this.ctx.timeline.record("instance.warm", {
      group: g.name,
      instance: inst.id,
      ltVersion: inst.ltVersion,
    });
    return inst;
  }

  /** Terminate an instance (in a group or not); its group then reconciles its capacity. */
  terminate(inst: InstanceRec, by: string): void {
    const g = inst.asg ? this.groups.get(inst.asg) : undefined;
    const pool = g?.warmPool;
    if (g && pool?.instances.has(inst.id)) {
      // Out of the pool at once; the pool launches its replacement from the template as it is now.
      if (!this.ctx.ec2.terminate(inst, by, undefined)) return;
      pool.instances.delete(inst.id);
      this.ctx.clock.after(this.ctx.timings.launchRetrySeconds * 1000, () => {
        if (pool.instances.size < pool.size) this.launchWarm(g, inst.zone);
      });
      return;
    }
    if (this.ctx.ec2.terminate(inst, by, g) && g) this.reconcileSoon(g);
  }

  /** TerminateInstanceInAutoScalingGroup. */
  terminateInGroup(id: string, decrement: boolean, by: string): ScalingActivity {
    const inst = this.ctx.ec2.instances.get(id);
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
      const inst = this.ctx.ec2.instances.get(id);
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
      const inst = this.ctx.ec2.instances.get(id) as InstanceRec;
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
