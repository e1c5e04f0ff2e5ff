// EC2 in the simulated account: launch templates with numbered versions ($Latest, $Default), and
// instances that boot (pending → running after a jittered delay), whose kubelet then registers a
// node, and that shut down (the kubelet stops at once, the node object goes a little later).
// Auto Scaling (auto-scaling.ts) decides when and where instances run; this file runs them.
import { AwsApiError } from "../../../ports/errors.js";
import type { VirtualClock } from "../../model/clock.js";
import type { Timeline } from "../../model/observers.js";
import type { IssuedIds } from "../../model/issued.js";
import type { Random } from "../../model/random.js";
import type {
  AsgRec,
  BadReleaseMark,
  InstanceRec,
  LaunchTemplateRec,
  LtVersion,
} from "../../model/records.js";
import type { KubeSim } from "../kube/kube.js";

export interface Ec2Timings {
  /** EC2 pending → running. */
  bootSeconds: number;
  bootJitterSeconds: number;
  /** running → the kubelet registers the node. */
  registerSeconds: number;
  /** shutting-down → terminated (the kubelet stops at the start). */
  terminateSeconds: number;
  /** terminated → the node object is deleted (cloud node lifecycle controller). */
  nodeDeleteSeconds: number;
}

export interface NeverReadyFault {
  group?: string;
  /** Instances launched at or after this virtual time never become Ready (or never join). */
  from: number;
  /** ...and before this one, when the fault ends (a fix). */
  until?: number;
}

export interface Ec2Context {
  clock: VirtualClock;
  random: Random;
  timeline: Timeline;
  /** Where an instance's kubelet registers its node. */
  kube: Pick<KubeSim, "registerNode" | "setNodeReady" | "deleteNode" | "nodes">;
  timings: Ec2Timings;
  region: string;
  neverReady: NeverReadyFault[];
  /** Instances that boot and run but whose kubelet never registers (a failed bootstrap). */
  neverJoin: NeverReadyFault[];
  /** Releases whose instances break what runs on them (faults.badRelease). */
  badRelease?: readonly BadReleaseMark[];
  /** For the node's labels: what a managed group's nodes carry. */
  nodeLabels: (asg: AsgRec, instance: InstanceRec) => Record<string, string>;
  /** The account's issued ids, when the world shares one with others (model/issued.ts). */
  issued?: IssuedIds;
}

export class Ec2Sim {
  readonly templates = new Map<string, LaunchTemplateRec>();
  readonly instances = new Map<string, InstanceRec>();
  #nodeSeq = 0;

  constructor(readonly ctx: Ec2Context) {}

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

  // ---------------------------------------------------------------- instances

  /**
   * A new instance for group `g` in `zone`, from the group's launch template version (or the
   * one given): running at once when `initial` (a scenario's starting state), else pending.
   */
  run(g: AsgRec, zone: string, opts: { ltVersion?: number; initial?: boolean }): InstanceRec {
    const t = this.template(g.ltId);
    const v =
      opts.ltVersion !== undefined
        ? this.resolveVersion(t, String(opts.ltVersion))
        : this.resolveVersion(t, g.ltVersion);
    const now = this.ctx.clock.nowMs();
    const issued = this.ctx.issued;
    const id = issued
      ? issued.fresh(() => `i-0${this.ctx.random.hex(16)}`)
      : `i-0${this.ctx.random.hex(16)}`;
    const seq = ++this.#nodeSeq;
    const zi = Math.max(0, g.zones.indexOf(zone));
    const nodeName = `ip-10-${zi * 16 + (seq >> 16)}-${(seq >> 8) & 255}-${seq & 255}.${this.ctx.region}.compute.internal`;
    const hit = (faults: NeverReadyFault[]) =>
      !opts.initial &&
      faults.some(
        (f) =>
          (!f.group || f.group === g.name || f.group === g.nodegroup) &&
          now >= f.from &&
          (f.until === undefined || now < f.until),
      );
    const bad = opts.initial ? undefined : this.#badRelease(g, v);
    const neverReady = hit(this.ctx.neverReady) || bad?.effect === "neverReady";
    const neverJoins = hit(this.ctx.neverJoin);
    const inst: InstanceRec = {
      id,
      zone,
      instanceType: g.instanceType,
      asg: g.name,
      launchedBy: g.name,
      ltId: t.id,
      ltVersion: v.number,
      imageId: g.eksImage?.imageId ?? v.imageId,
      ...(g.eksImage && { kubernetesVersion: g.eksImage.kubernetesVersion }),
      launchTime: now,
      state: opts.initial ? "running" : "pending",
      lifecycle: opts.initial ? "InService" : "Pending",
      health: "Healthy",
      nodeName,
      neverReady,
      ...(neverJoins && { neverJoins }),
      ...(bad && { badRelease: bad }),
      tags: [
        { Key: "aws:autoscaling:groupName", Value: g.name },
        ...g.tags.filter((x) => x.PropagateAtLaunch).map((x) => ({ Key: x.Key, Value: x.Value })),
      ],
    };
    this.instances.set(id, inst);
    return inst;
  }

  /**
   * The bad release (faults.badRelease) an instance of `g` launched from template version `v`
   * now is: one naming that version, or the EKS AMI release EKS launches the group with.
   */
  #badRelease(g: AsgRec, v: LtVersion): BadReleaseMark | undefined {
    return this.ctx.badRelease?.find(
      (f) =>
        (!f.group || f.group === g.name || f.group === g.nodegroup) &&
        (f.launchTemplateVersion === undefined || f.launchTemplateVersion === v.number) &&
        (f.releaseVersion === undefined ||
          f.releaseVersion === (g.eksImage?.releaseVersion ?? v.releaseVersion)),
    );
  }

  /** A pending instance boots (jittered); its kubelet registers the node registerSeconds later. */
  boot(g: AsgRec, inst: InstanceRec): void {
    const boot = this.ctx.random.jitter(
      this.ctx.timings.bootSeconds,
      this.ctx.timings.bootJitterSeconds,
    );
    this.ctx.clock.after(boot * 1000, () => {
      if (inst.state !== "pending") return;
      inst.state = "running";
      if (inst.lifecycle === "Pending") inst.lifecycle = "InService";
      this.ctx.clock.after(this.ctx.timings.registerSeconds * 1000, () => {
        if (inst.state === "running" && !inst.neverJoins) this.registerNode(g, inst, false);
      });
    });
  }

  /** The instance's kubelet registers its node, with the group's labels, taints and capacity. */
  registerNode(g: AsgRec, inst: InstanceRec, readyNow: boolean): void {
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
      kubeletVersion: `v${inst.kubernetesVersion ?? v?.kubernetesVersion ?? "1.0"}.0-eks`,
      neverReady: inst.neverReady,
      crashLoop: inst.badRelease?.effect === "crashLoop",
      readyNow,
    });
  }

  /**
   * Shut an instance down: the kubelet stops at once (the node turns NotReady), the instance is
   * terminated terminateSeconds later — and leaves `group`, the Auto Scaling group it was in —
   * and the node object goes nodeDeleteSeconds after that. False if it was already going.
   */
  terminate(inst: InstanceRec, by: string, group: AsgRec | undefined): boolean {
    if (inst.state === "shutting-down" || inst.state === "terminated") return false;
    inst.lifecycle = "Terminating";
    inst.state = "shutting-down";
    this.ctx.timeline.record("instance.terminated", {
      group: group?.name ?? inst.launchedBy,
      instance: inst.id,
      node: inst.nodeName,
      by,
    });
    const node = this.ctx.kube.nodes.get(inst.nodeName);
    if (node) this.ctx.kube.setNodeReady(node, false);
    this.ctx.clock.after(this.ctx.timings.terminateSeconds * 1000, () => {
      inst.state = "terminated";
      inst.lifecycle = "Terminated";
      if (group) group.instances.delete(inst.id);
      this.ctx.clock.after(this.ctx.timings.nodeDeleteSeconds * 1000, () =>
        this.ctx.kube.deleteNode(inst.nodeName),
      );
    });
    return true;
  }
}
