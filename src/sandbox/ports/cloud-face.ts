// The Cloud port (src/ports/cloud.ts), and the sandbox's own additions to it (api.ts), served by
// the sandbox: EKS, Auto Scaling and EC2 over the simulators (CloudWatch: cloudwatch-face.ts),
// AWS-shaped records built from their state, AWS-shaped errors, and throttling
// (ThrottlingException) when a scenario asks.
import type {
  AsgInstance,
  AutoScaling,
  AutoScalingGroup,
  Ec2,
  Ec2Instance,
  Eks,
  EksCluster,
  EksUpdate,
  LaunchTemplateVersion,
  Nodegroup,
  ScalingActivity,
  UpdateNodegroupVersionInput,
} from "../../ports/cloud.js";
import type { ApiEndpoint } from "../../ports/cluster.js";
import { AwsApiError } from "../../ports/errors.js";
import type { SandboxAutoScalingApi, SandboxCloudApi } from "./api.js";
import type { VirtualClock } from "../model/clock.js";
import type { Timeline } from "../model/observers.js";
import type { AsgRec, InstanceRec } from "../model/records.js";
import type { AutoScalingSim } from "../sim/aws/auto-scaling.js";
import type { CloudWatchSim } from "../sim/aws/cloudwatch.js";
import type { Ec2Sim } from "../sim/aws/ec2.js";
import type { EksSim } from "../sim/aws/eks.js";
import type { ApiGate } from "./api-gate.js";
import { SandboxCloudWatch } from "./cloudwatch-face.js";
import { instanceFilter } from "./ec2-filters.js";
import { SCALING_PROCESSES } from "../model/processes.js";

/** What the Cloud face needs of the world. */
export interface CloudView {
  clusterName: string;
  /** Where the cluster's Kubernetes API is (DescribeCluster's endpoint and CA). */
  endpoint: ApiEndpoint;
  region: string;
  eks: EksSim;
  autoScaling: AutoScalingSim;
  ec2: Ec2Sim;
  cloudWatch: CloudWatchSim;
  clock: VirtualClock;
  timeline: Timeline;
  gate: ApiGate;
}

type Input<S, K extends keyof S> = S[K] extends (input: infer I) => unknown ? I : never;

/** Count the call; throw ThrottlingException when a throttling fault turns it away. */
function gate(view: CloudView, name: string): void {
  if (!view.gate.admit(name, "aws")) return;
  view.timeline.record("api.throttled", { api: "aws", call: name });
  throw new AwsApiError(
    "ThrottlingException",
    "Rate exceeded",
    name.startsWith("eks.") ? 429 : 400,
  );
}

export class SandboxEks implements Eks {
  constructor(private readonly view: CloudView) {}

  async describeCluster(name: string): Promise<EksCluster> {
    gate(this.view, "eks.describeCluster");
    this.#cluster(name);
    return {
      name,
      version: this.view.eks.version,
      status: "ACTIVE",
      arn: `arn:aws:eks:${this.view.region}:123456789012:cluster/${name}`,
      endpoint: this.view.endpoint.server,
      ...(this.view.endpoint.caData && {
        certificateAuthority: { data: this.view.endpoint.caData },
      }),
    };
  }
  async listClusters(): Promise<string[]> {
    gate(this.view, "eks.listClusters");
    return [this.view.clusterName];
  }
  async listNodegroups(cluster: string): Promise<string[]> {
    gate(this.view, "eks.listNodegroups");
    this.#cluster(cluster);
    return [...this.view.eks.nodegroups.keys()].sort();
  }
  async describeNodegroup(cluster: string, name: string): Promise<Nodegroup> {
    gate(this.view, "eks.describeNodegroup");
    this.#cluster(cluster);
    return nodegroupRecord(this.view, name);
  }
  async updateNodegroupConfig(input: Input<Eks, "updateNodegroupConfig">): Promise<EksUpdate> {
    gate(this.view, "eks.updateNodegroupConfig");
    this.#cluster(input.clusterName);
    return this.view.eks.updateNodegroupConfig(input.nodegroupName, {
      ...(input.updateConfig ? { updateConfig: input.updateConfig } : {}),
      ...(input.scalingConfig ? { scalingConfig: input.scalingConfig } : {}),
    });
  }
  async updateNodegroupVersion(input: UpdateNodegroupVersionInput): Promise<EksUpdate> {
    gate(this.view, "eks.updateNodegroupVersion");
    this.#cluster(input.clusterName);
    return this.view.eks.updateNodegroupVersion(input);
  }
  async describeUpdate(input: Input<Eks, "describeUpdate">): Promise<EksUpdate> {
    gate(this.view, "eks.describeUpdate");
    this.#cluster(input.name);
    const rec = this.view.eks.describeUpdate(input.updateId);
    if (input.nodegroupName !== undefined && rec.nodegroup !== input.nodegroupName)
      throw new AwsApiError(
        "ResourceNotFoundException",
        `No update found for ID: ${input.updateId}.`,
        404,
      );
    return structuredClone(rec.update) as EksUpdate;
  }
  async listUpdates(input: Input<Eks, "listUpdates">): Promise<string[]> {
    gate(this.view, "eks.listUpdates");
    this.#cluster(input.name);
    if (input.nodegroupName) this.view.eks.nodegroup(input.nodegroupName);
    return this.view.eks.listUpdateIds(input.nodegroupName);
  }
  /**
   * What the SSM parameters for the EKS optimized AMIs say is the latest release per version:
   * of the versions asked for, or of every version the scenario lists.
   */
  async latestReleaseVersions(versions?: readonly string[]): Promise<Record<string, string>> {
    gate(this.view, "ssm.getParameters");
    const out: Record<string, string> = {};
    for (const minor of versions ?? Object.keys(this.view.eks.releases)) {
      const latest = this.view.eks.latestRelease(minor);
      if (latest) out[minor] = latest;
    }
    return out;
  }

  #cluster(name: string): void {
    if (name !== this.view.clusterName)
      throw new AwsApiError(
        "ResourceNotFoundException",
        `No cluster found for name: ${name}.`,
        404,
      );
  }
}

export class SandboxAutoScaling implements SandboxAutoScalingApi {
  constructor(private readonly view: CloudView) {}

  async describeAutoScalingGroups(
    input: Input<AutoScaling, "describeAutoScalingGroups">,
  ): Promise<AutoScalingGroup[]> {
    gate(this.view, "autoscaling.describeAutoScalingGroups");
    let groups = [...this.view.autoScaling.groups.values()];
    if (input.AutoScalingGroupNames)
      groups = groups.filter((g) => input.AutoScalingGroupNames?.includes(g.name));
    for (const f of input.Filters ?? []) {
      if (f.Name.startsWith("tag:")) {
        const key = f.Name.slice(4);
        groups = groups.filter((g) =>
          g.tags.some((t) => t.Key === key && f.Values.includes(t.Value)),
        );
      } else if (f.Name === "tag-key")
        groups = groups.filter((g) => g.tags.some((t) => f.Values.includes(t.Key)));
      else if (f.Name === "tag-value")
        groups = groups.filter((g) => g.tags.some((t) => f.Values.includes(t.Value)));
      else throw new AwsApiError("ValidationError", `Filter name ${f.Name} is not supported`);
    }
    return groups.map((g) => groupRecord(this.view, g));
  }
  async setDesiredCapacity(
    input: Input<SandboxAutoScalingApi, "setDesiredCapacity">,
  ): Promise<void> {
    gate(this.view, "autoscaling.setDesiredCapacity");
    const asg = this.view.autoScaling;
    asg.setCapacity(
      asg.group(input.AutoScalingGroupName),
      { desired: input.DesiredCapacity },
      "client",
    );
  }
  async updateAutoScalingGroup(input: Input<AutoScaling, "updateAutoScalingGroup">): Promise<void> {
    gate(this.view, "autoscaling.updateAutoScalingGroup");
    const g = this.view.autoScaling.group(input.AutoScalingGroupName);
    if (input.LaunchTemplate) {
      const ec2 = this.view.ec2;
      const t = ec2.template(
        input.LaunchTemplate.LaunchTemplateId ?? input.LaunchTemplate.LaunchTemplateName ?? "",
      );
      const v = input.LaunchTemplate.Version ?? "$Default";
      ec2.resolveVersion(t, v);
      g.ltId = t.id;
      g.ltVersion = v;
    }
    const change: { min?: number; max?: number; desired?: number } = {};
    if (input.MinSize !== undefined) change.min = input.MinSize;
    if (input.MaxSize !== undefined) change.max = input.MaxSize;
    if (input.DesiredCapacity !== undefined) change.desired = input.DesiredCapacity;
    this.view.autoScaling.setCapacity(g, change, "client");
  }
  async detachInstances(input: Input<AutoScaling, "detachInstances">): Promise<ScalingActivity[]> {
    gate(this.view, "autoscaling.detachInstances");
    const asg = this.view.autoScaling;
    return asg.detach(
      asg.group(input.AutoScalingGroupName),
      input.InstanceIds,
      input.ShouldDecrementDesiredCapacity,
      "client",
    );
  }
  /** A group without a warm pool has none to list (the API answers no instances, no error). */
  async describeWarmPool(input: Input<AutoScaling, "describeWarmPool">): Promise<AsgInstance[]> {
    gate(this.view, "autoscaling.describeWarmPool");
    const g = this.view.autoScaling.group(input.AutoScalingGroupName);
    return asgInstances(this.view, g.warmPool?.instances ?? []);
  }

  async terminateInstanceInAutoScalingGroup(
    input: Input<AutoScaling, "terminateInstanceInAutoScalingGroup">,
  ): Promise<ScalingActivity> {
    gate(this.view, "autoscaling.terminateInstanceInAutoScalingGroup");
    return this.view.autoScaling.terminateInGroup(
      input.InstanceId,
      input.ShouldDecrementDesiredCapacity,
      "client",
    );
  }
  async createOrUpdateTags(
    input: Input<SandboxAutoScalingApi, "createOrUpdateTags">,
  ): Promise<void> {
    gate(this.view, "autoscaling.createOrUpdateTags");
    for (const tag of input.Tags) {
      const g = this.view.autoScaling.group(tag.ResourceId ?? "");
      const existing = g.tags.find((t) => t.Key === tag.Key);
      if (existing) {
        existing.Value = tag.Value;
        if (tag.PropagateAtLaunch !== undefined) existing.PropagateAtLaunch = tag.PropagateAtLaunch;
      } else g.tags.push({ ...tag, ResourceType: "auto-scaling-group" });
      this.view.timeline.record("asg.tag", { group: g.name, key: tag.Key, value: tag.Value });
    }
  }
  async deleteTags(input: Input<AutoScaling, "deleteTags">): Promise<void> {
    gate(this.view, "autoscaling.deleteTags");
    for (const tag of input.Tags) {
      const g = this.view.autoScaling.group(tag.ResourceId ?? "");
      const before = g.tags.length;
      g.tags = g.tags.filter((t) => t.Key !== tag.Key);
      if (g.tags.length < before)
        this.view.timeline.record("asg.untag", { group: g.name, key: tag.Key });
    }
  }
  async suspendProcesses(input: Input<SandboxAutoScalingApi, "suspendProcesses">): Promise<void> {
    gate(this.view, "autoscaling.suspendProcesses");
    const g = this.view.autoScaling.group(input.AutoScalingGroupName);
    for (const p of input.ScalingProcesses ?? SCALING_PROCESSES) g.suspended.add(p);
    this.view.timeline.record("asg.suspend", {
      group: g.name,
      processes: input.ScalingProcesses ?? SCALING_PROCESSES,
    });
  }
  async resumeProcesses(input: Input<SandboxAutoScalingApi, "resumeProcesses">): Promise<void> {
    gate(this.view, "autoscaling.resumeProcesses");
    const g = this.view.autoScaling.group(input.AutoScalingGroupName);
    for (const p of input.ScalingProcesses ?? SCALING_PROCESSES) g.suspended.delete(p);
    this.view.timeline.record("asg.resume", {
      group: g.name,
      processes: input.ScalingProcesses ?? SCALING_PROCESSES,
    });
    this.view.autoScaling.reconcileSoon(g);
  }
  async describeScalingActivities(
    input: Input<SandboxAutoScalingApi, "describeScalingActivities">,
  ): Promise<ScalingActivity[]> {
    gate(this.view, "autoscaling.describeScalingActivities");
    const g = this.view.autoScaling.group(input.AutoScalingGroupName);
    return g.activities
      .slice(0, input.MaxRecords ?? 100)
      .map((a) => ({ ...a })) as ScalingActivity[];
  }
}

export class SandboxEc2 implements Ec2 {
  constructor(private readonly view: CloudView) {}

  async describeLaunchTemplateVersions(
    input: Input<Ec2, "describeLaunchTemplateVersions">,
  ): Promise<LaunchTemplateVersion[]> {
    gate(this.view, "ec2.describeLaunchTemplateVersions");
    const ec2 = this.view.ec2;
    const t = ec2.template(input.LaunchTemplateId ?? input.LaunchTemplateName ?? "");
    const versions = input.Versions
      ? input.Versions.map((v) => ec2.resolveVersion(t, v))
      : [...t.versions].sort((a, b) => b.number - a.number);
    return versions.map((v): LaunchTemplateVersion => ({
      LaunchTemplateId: t.id,
      LaunchTemplateName: t.name,
      VersionNumber: v.number,
      DefaultVersion: v.number === t.defaultVersion,
      CreateTime: new Date(v.createdAt),
      // A template that leaves the AMI to EKS names none.
      LaunchTemplateData: v.imageId ? { ImageId: v.imageId } : {},
    }));
  }
  async describeInstances(input: Input<Ec2, "describeInstances">): Promise<Ec2Instance[]> {
    gate(this.view, "ec2.describeInstances");
    const matches = instanceFilter(input.Filters);
    const named = "InstanceIds" in input;
    const found = named
      ? input.InstanceIds.map((id) => this.#instance(id))
      : [...this.view.ec2.instances.values()];
    return found.filter(matches).map(instanceRecord);
  }
  async createTags(input: Input<Ec2, "createTags">): Promise<void> {
    gate(this.view, "ec2.createTags");
    const instances = input.Resources.map((id) => this.#instance(id));
    for (const i of instances)
      for (const t of input.Tags) {
        const tag = i.tags.find((x) => x.Key === t.Key);
        if (tag) tag.Value = t.Value;
        else i.tags.push({ Key: t.Key, Value: t.Value });
      }
  }
  async deleteTags(input: Input<Ec2, "deleteTags">): Promise<void> {
    gate(this.view, "ec2.deleteTags");
    const keys = new Set(input.Tags.map((t) => t.Key));
    for (const i of input.Resources.map((id) => this.#instance(id)))
      i.tags = i.tags.filter((t) => !keys.has(t.Key));
  }
  async terminateInstances(input: Input<Ec2, "terminateInstances">): Promise<void> {
    gate(this.view, "ec2.terminateInstances");
    for (const id of input.InstanceIds)
      this.view.autoScaling.terminate(this.#instance(id), "client");
  }

  #instance(id: string): InstanceRec {
    const i = this.view.ec2.instances.get(id);
    if (!i)
      throw new AwsApiError("InvalidInstanceID.NotFound", `The instance ID '${id}' does not exist`);
    return i;
  }
}

/** The Cloud port: the four services over one view of the world. */
export class SandboxCloud implements SandboxCloudApi {
  readonly eks: Eks;
  readonly autoScaling: SandboxAutoScaling;
  readonly ec2: Ec2;
  readonly cloudWatch: SandboxCloudWatch;

  constructor(view: CloudView) {
    this.eks = new SandboxEks(view);
    this.autoScaling = new SandboxAutoScaling(view);
    this.ec2 = new SandboxEc2(view);
    this.cloudWatch = new SandboxCloudWatch(view);
  }
}

// ---------------------------------------------------------------- AWS-shaped records

function nodegroupRecord(view: CloudView, name: string): Nodegroup {
  const ng = view.eks.nodegroup(name);
  const g = view.autoScaling.group(ng.asg);
  const t = view.ec2.template(ng.ltId);
  return {
    nodegroupName: ng.name,
    clusterName: view.clusterName,
    version: ng.version,
    releaseVersion: ng.releaseVersion,
    status: ng.status,
    capacityType: "ON_DEMAND",
    instanceTypes: [g.instanceType],
    subnets: g.zones.map((z, i) => `subnet-0${z.slice(-1)}${i}`),
    scalingConfig: { minSize: g.min, maxSize: g.max, desiredSize: g.desired },
    updateConfig: { ...ng.updateConfig },
    ...(ng.customLaunchTemplate
      ? { launchTemplate: { id: t.id, name: t.name, version: g.ltVersion } }
      : {}),
    amiType: ng.customAmi ? "CUSTOM" : "AL2023_x86_64_STANDARD",
    resources: { autoScalingGroups: [{ name: g.name }] },
    health: { issues: view.eks.healthIssues(ng).map((i) => ({ ...i })) },
    labels: { ...g.labels },
    createdAt: new Date(ng.createdAt),
    modifiedAt: new Date(ng.modifiedAt),
  };
}

/** A group's (or its warm pool's) instances as Auto Scaling lists them. */
function asgInstances(view: CloudView, ids: Iterable<string>): AsgInstance[] {
  return [...ids]
    .map((id) => view.ec2.instances.get(id))
    .filter((i): i is InstanceRec => i !== undefined)
    .map((i) => ({
      InstanceId: i.id,
      AvailabilityZone: i.zone,
      LifecycleState: i.lifecycle,
      HealthStatus: i.health,
      // The template the instance was launched from, as Auto Scaling reports it: not
      // necessarily the group's now.
      LaunchTemplate: {
        LaunchTemplateId: i.ltId,
        LaunchTemplateName: view.ec2.template(i.ltId).name,
        Version: String(i.ltVersion),
      },
      InstanceType: i.instanceType,
      ProtectedFromScaleIn: false,
    }));
}

function groupRecord(view: CloudView, g: AsgRec): AutoScalingGroup {
  const t = view.ec2.template(g.ltId);
  const spec = { LaunchTemplateId: t.id, LaunchTemplateName: t.name, Version: g.ltVersion };
  const instances = asgInstances(view, g.instances);
  return {
    AutoScalingGroupName: g.name,
    MinSize: g.min,
    MaxSize: g.max,
    DesiredCapacity: g.desired,
    AvailabilityZones: [...g.zones],
    ...(g.mixedInstances
      ? { MixedInstancesPolicy: { LaunchTemplate: { LaunchTemplateSpecification: spec } } }
      : { LaunchTemplate: spec }),
    Instances: instances,
    Tags: g.tags.map((x) => ({ ...x })),
    SuspendedProcesses: [...g.suspended].map((p) => ({
      ProcessName: p,
      SuspensionReason: "User suspended at " + new Date(view.clock.nowMs()).toISOString(),
    })),
    CreatedTime: new Date(g.createdAt),
    ...(g.warmPool && {
      WarmPoolConfiguration: { MinSize: g.warmPool.size, PoolState: g.warmPool.state },
      WarmPoolSize: g.warmPool.instances.size,
    }),
  };
}

function instanceRecord(i: InstanceRec): Ec2Instance {
  return {
    InstanceId: i.id,
    InstanceType: i.instanceType,
    LaunchTime: new Date(i.launchTime),
    ImageId: i.imageId,
    Placement: { AvailabilityZone: i.zone },
    State: { Name: i.state },
    PrivateDnsName: i.nodeName,
    Tags: i.tags.map((t) => ({ ...t })),
  };
}
