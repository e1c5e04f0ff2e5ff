// Amazon EKS in the simulated account: the cluster (its version and the AMI releases it knows),
// its managed node groups, UpdateNodegroupConfig, and UpdateNodegroupVersion, whose four phases
// run in eks-version-update.ts. Updates are listed and described as EKS does.
import type { EksUpdate, UpdateConfig, UpdateNodegroupVersionInput } from "../../../ports/cloud.js";
import { AwsApiError } from "../../../ports/errors.js";
import type { AsgRec, InstanceRec, NodegroupRec, NodeRec } from "../../model/records.js";
import {
  DEFAULT_EKS_BEHAVIOUR,
  type EksBehaviour,
  type EksContext,
  type UpdateRec,
} from "./eks-context.js";
import {
  NODEGROUP_IMAGE_LABEL,
  NODEGROUP_LABEL,
  SOURCE_LT_ID_LABEL,
  SOURCE_LT_VERSION_LABEL,
} from "./eks-labels.js";
import { VersionUpdate, type VersionTarget } from "./eks-version-update.js";

export type { EksBehaviour, EksContext, EksTimings, UpdateRec } from "./eks-context.js";
export {
  EXCLUDE_LB_LABEL,
  NODEGROUP_IMAGE_LABEL,
  NODEGROUP_LABEL,
  UPDATE_TAINT,
} from "./eks-labels.js";

export class EksSim {
  version: string;
  /** Release versions per Kubernetes minor version, oldest first; the last is the latest. */
  releases: Record<string, string[]> = {};
  readonly nodegroups = new Map<string, NodegroupRec>();
  readonly updates = new Map<string, UpdateRec>();
  /** Update ids per node group ("" for the cluster), newest first. */
  readonly updateIds = new Map<string, string[]>();
  readonly behaviour: EksBehaviour;

  constructor(
    readonly ctx: EksContext,
    version: string,
  ) {
    this.version = version;
    this.behaviour = ctx.behaviour ?? DEFAULT_EKS_BEHAVIOUR;
  }

  /**
   * A node group's update ids as ListUpdates gives them: the API reference promises no order,
   * so by default they come sorted by id (random UUIDs: no relation to when they were made).
   */
  listUpdateIds(nodegroup: string | undefined): string[] {
    const ids = [...(this.updateIds.get(nodegroup ?? "") ?? [])];
    return this.behaviour.updates.order === "newest-first" ? ids : ids.sort();
  }

  /**
   * The node group's health issues now. A failed update's NodeCreationFailure names the
   * instances that did not join; the issue lasts while one of them is still there without a
   * Ready node (DescribeNodegroup's health, EKS API reference "Issue").
   */
  healthIssues(ng: NodegroupRec): NodegroupRec["issues"] {
    ng.issues = ng.issues
      .map((i) => ({
        ...i,
        resourceIds: (i.resourceIds ?? []).filter((id) => {
          const inst = this.ctx.ec2.instances.get(id);
          if (!inst || inst.state === "terminated" || inst.state === "shutting-down") return false;
          return !this.ctx.kube.nodes.get(inst.nodeName)?.ready;
        }),
      }))
      .filter((i) => i.resourceIds.length > 0);
    return ng.issues;
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

  /** The labels a node registers with: eksctl's for self-managed groups, EKS's for managed ones. */
  nodeLabels(asg: AsgRec, inst: InstanceRec): Record<string, string> {
    // Self-managed nodes carry the labels eksctl's bootstrap gives them: group and instance id.
    if (!asg.nodegroup)
      return { "alpha.eksctl.io/nodegroup-name": asg.name, "alpha.eksctl.io/instance-id": inst.id };
    const ng = this.nodegroups.get(asg.nodegroup);
    const labels: Record<string, string> = {
      [NODEGROUP_LABEL]: asg.nodegroup,
      [NODEGROUP_IMAGE_LABEL]: inst.imageId,
      "eks.amazonaws.com/capacityType": "ON_DEMAND",
    };
    if (ng?.customLaunchTemplate) {
      labels[SOURCE_LT_ID_LABEL] = inst.ltId;
      labels[SOURCE_LT_VERSION_LABEL] = String(inst.ltVersion);
    }
    return labels;
  }

  /** Nodes of a managed group. */
  nodesOf(ng: NodegroupRec): NodeRec[] {
    const g = this.ctx.autoScaling.group(ng.asg);
    const out: NodeRec[] = [];
    for (const id of g.instances) {
      const inst = this.ctx.ec2.instances.get(id);
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

  /** The update ends with `status`. */
  finish(rec: UpdateRec, status: EksUpdate["status"], errors: EksUpdate["errors"] = []): void {
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
    config: { updateConfig?: UpdateConfig; scalingConfig?: ScalingConfig },
  ): EksUpdate {
    const ng = this.nodegroup(name);
    this.#busy(ng);
    const u = config.updateConfig;
    if (u) validateUpdateConfig(u);
    const s = config.scalingConfig;
    const rec = this.#newUpdate(name, "ConfigUpdate", configParams(u, s));
    ng.status = "UPDATING";
    this.ctx.clock.after(this.ctx.timings.configUpdateSeconds * 1000, () =>
      this.#applyConfig(rec, ng, u, s),
    );
    return structuredClone(rec.update);
  }

  /** The config update takes effect: the new updateConfig, then the new sizes. */
  #applyConfig(
    rec: UpdateRec,
    ng: NodegroupRec,
    u: UpdateConfig | undefined,
    s: ScalingConfig | undefined,
  ): void {
    if (u) ng.updateConfig = mergeUpdateConfig(ng.updateConfig, u);
    ng.status = "ACTIVE";
    ng.modifiedAt = this.ctx.clock.nowMs();
    try {
      if (s)
        this.ctx.autoScaling.setCapacity(
          this.ctx.autoScaling.group(ng.asg),
          { min: s.minSize, max: s.maxSize, desired: s.desiredSize } as {
            min?: number;
            max?: number;
            desired?: number;
          },
          "eks",
        );
      this.finish(rec, "Successful");
    } catch (e) {
      this.finish(rec, "Failed", [
        {
          errorCode: "InvalidParameterException" as string,
          errorMessage: (e as Error).message,
          resourceIds: [ng.name],
        },
      ]);
    }
  }

  updateNodegroupVersion(input: UpdateNodegroupVersionInput): EksUpdate {
    const ng = this.nodegroup(input.nodegroupName);
    this.#busy(ng);
    const target = this.#versionTarget(ng, input);
    const params = [
      { type: "Version", value: target.version },
      ...(target.release ? [{ type: "ReleaseVersion", value: target.release }] : []),
      ...(target.ltVersion !== undefined
        ? [{ type: "LaunchTemplateVersion", value: String(target.ltVersion) }]
        : []),
      ...(input.force ? [{ type: "Force", value: "true" }] : []),
    ];
    const rec = this.#newUpdate(ng.name, "VersionUpdate", params);
    ng.status = "UPDATING";
    void new VersionUpdate(this, rec, ng, target).run().catch((e: unknown) => {
      ng.status = "ACTIVE";
      this.finish(rec, "Failed", [
        {
          errorCode: "InternalFailure",
          errorMessage: (e as Error).message,
          resourceIds: [ng.name],
        },
      ]);
    });
    return structuredClone(rec.update);
  }

  /** What an UpdateNodegroupVersion asks for, checked as EKS checks it. */
  #versionTarget(ng: NodegroupRec, input: UpdateNodegroupVersionInput): VersionTarget {
    const version =
      input.version ??
      (input.releaseVersion ? input.releaseVersion.split(".").slice(0, 2).join(".") : ng.version);
    if (compareMinor(version, this.version) > 0)
      throw new AwsApiError(
        "InvalidParameterException",
        `Requested Nodegroup version ${version} is invalid. Nodegroup version must not be greater than the cluster version ${this.version}.`,
      );
    const force = input.force === true;
    // A custom AMI in the customer's launch template: the AMI comes from the template version,
    // and EKS fails an update that also names a Kubernetes or release version (the `version`
    // and `releaseVersion` parameters of UpdateNodegroupVersion, EKS API reference).
    if (ng.customAmi && (input.version !== undefined || input.releaseVersion !== undefined))
      throw new AwsApiError(
        "InvalidParameterException",
        "You cannot specify a Kubernetes version or a release version for a node group whose launch template uses a custom AMI; update to a launch template version with the new AMI instead.",
      );
    let ltVersion: number | undefined;
    if (input.launchTemplate) {
      if (!ng.customLaunchTemplate)
        throw new AwsApiError(
          "InvalidParameterException",
          "You cannot specify a launch template for a node group that was not created with one.",
        );
      const t = this.ctx.ec2.template(ng.ltId);
      ltVersion = this.ctx.ec2.resolveVersion(t, input.launchTemplate.version ?? "$Default").number;
      if (ng.customAmi) return { version: ng.version, release: undefined, ltVersion, force };
    } else if (ng.customAmi)
      throw new AwsApiError(
        "InvalidParameterException",
        "A node group whose launch template uses a custom AMI is updated to a launch template version.",
      );
    const release = input.releaseVersion ?? this.latestRelease(version);
    if (!release || !(this.releases[version] ?? []).includes(release))
      throw new AwsApiError(
        "InvalidParameterException",
        `Requested release version ${input.releaseVersion ?? "(latest)"} is not valid for kubernetes version ${version}.`,
      );
    const current = this.ctx.autoScaling.group(ng.asg).ltVersion;
    if (
      release === ng.releaseVersion &&
      version === ng.version &&
      (ltVersion === undefined || String(ltVersion) === current)
    )
      throw new AwsApiError(
        "InvalidParameterException",
        `Nodegroup ${ng.name} is already at release version ${release}.`,
      );
    return { version, release, ltVersion, force };
  }

  describeUpdate(id: string): UpdateRec {
    const rec = this.updates.get(id);
    if (!rec)
      throw new AwsApiError("ResourceNotFoundException", `No update found for ID: ${id}.`, 404);
    return rec;
  }
}

type ScalingConfig = { minSize?: number; maxSize?: number; desiredSize?: number };

function validateUpdateConfig(u: UpdateConfig): void {
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

/** The update's params, as DescribeUpdate lists them. */
function configParams(
  u: UpdateConfig | undefined,
  s: ScalingConfig | undefined,
): { type: string; value: string }[] {
  const params: { type: string; value: string }[] = [];
  if (u?.maxUnavailable !== undefined)
    params.push({ type: "MaxUnavailable", value: String(u.maxUnavailable) });
  if (u?.maxUnavailablePercentage !== undefined)
    params.push({ type: "MaxUnavailablePercentage", value: String(u.maxUnavailablePercentage) });
  if (u?.updateStrategy) params.push({ type: "UpdateStrategy", value: u.updateStrategy });
  if (s?.minSize !== undefined) params.push({ type: "MinSize", value: String(s.minSize) });
  if (s?.maxSize !== undefined) params.push({ type: "MaxSize", value: String(s.maxSize) });
  if (s?.desiredSize !== undefined)
    params.push({ type: "DesiredSize", value: String(s.desiredSize) });
  return params;
}

/** A new updateConfig: one of the two maxUnavailable forms replaces the other; strategy kept unless given. */
function mergeUpdateConfig(current: UpdateConfig, u: UpdateConfig): UpdateConfig {
  const next: UpdateConfig = {
    ...(current.updateStrategy ? { updateStrategy: current.updateStrategy } : {}),
  };
  if (u.maxUnavailable !== undefined) next.maxUnavailable = u.maxUnavailable;
  else if (u.maxUnavailablePercentage !== undefined)
    next.maxUnavailablePercentage = u.maxUnavailablePercentage;
  else {
    if (current.maxUnavailable !== undefined) next.maxUnavailable = current.maxUnavailable;
    if (current.maxUnavailablePercentage !== undefined)
      next.maxUnavailablePercentage = current.maxUnavailablePercentage;
  }
  if (u.updateStrategy) next.updateStrategy = u.updateStrategy;
  return next;
}

export function compareMinor(a: string, b: string): number {
  const [am = 0, an = 0] = a.split(".").map(Number);
  const [bm = 0, bn = 0] = b.split(".").map(Number);
  return am - bm || an - bn;
}
