// The Cloud port (src/ports/cloud.ts) served by the sandbox: AWS-shaped records built from the
// world's state, AWS-shaped errors, and throttling (ThrottlingException) when a scenario asks.
import type {
  AutoScaling,
  AutoScalingGroup,
  Cloud,
  Ec2,
  Ec2Instance,
  Eks,
  EksUpdate,
  LaunchTemplateVersion,
  Nodegroup,
  ScalingActivity,
} from "../../ports/cloud.js";
import { AwsApiError } from "../../ports/errors.js";
import type { AsgRec, InstanceRec } from "../model/records.js";
import type { World } from "../world/world.js";

export class SandboxCloud implements Cloud {
  readonly eks: Eks;
  readonly autoScaling: AutoScaling;
  readonly ec2: Ec2;

  constructor(private readonly world: World) {
    const w = world;
    const gate = (name: string) => this.#gate(name);
    this.eks = {
      describeCluster: async (name) => {
        gate("eks.describeCluster");
        this.#cluster(name);
        return {
          name,
          version: w.eks.version,
          status: "ACTIVE",
          arn: `arn:aws:eks:${w.scenario.cluster.region}:123456789012:cluster/${name}`,
          endpoint: "https://sandbox.invalid",
        };
      },
      listNodegroups: async (cluster) => {
        gate("eks.listNodegroups");
        this.#cluster(cluster);
        return [...w.eks.nodegroups.keys()].sort();
      },
      describeNodegroup: async (cluster, name) => {
        gate("eks.describeNodegroup");
        this.#cluster(cluster);
        return this.#nodegroup(name);
      },
      updateNodegroupConfig: async (input) => {
        gate("eks.updateNodegroupConfig");
        this.#cluster(input.clusterName);
        return w.eks.updateNodegroupConfig(input.nodegroupName, {
          ...(input.updateConfig ? { updateConfig: input.updateConfig } : {}),
          ...(input.scalingConfig ? { scalingConfig: input.scalingConfig } : {}),
        });
      },
      updateNodegroupVersion: async (input) => {
        gate("eks.updateNodegroupVersion");
        this.#cluster(input.clusterName);
        return w.eks.updateNodegroupVersion(input);
      },
      describeUpdate: async (input) => {
        gate("eks.describeUpdate");
        this.#cluster(input.name);
        const rec = w.eks.describeUpdate(input.updateId);
        if (input.nodegroupName !== undefined && rec.nodegroup !== input.nodegroupName)
          throw new AwsApiError(
            "ResourceNotFoundException",
            `No update found for ID: ${input.updateId}.`,
            404,
          );
        return structuredClone(rec.update) as EksUpdate;
      },
      listUpdates: async (input) => {
        gate("eks.listUpdates");
        this.#cluster(input.name);
        if (input.nodegroupName) w.eks.nodegroup(input.nodegroupName);
        return [...(w.eks.updateIds.get(input.nodegroupName ?? "") ?? [])];
      },
      latestReleaseVersions: async () => {
        gate("ssm.getParameters");
        const out: Record<string, string> = {};
        for (const minor of Object.keys(w.eks.releases)) {
          const latest = w.eks.latestRelease(minor);
          if (latest) out[minor] = latest;
        }
        return out;
      },
    };
    this.autoScaling = {
      describeAutoScalingGroups: async (input) => {
        gate("autoscaling.describeAutoScalingGroups");
        let groups = [...w.autoScaling.groups.values()];
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
        return groups.map((g) => this.#asg(g));
      },
      setDesiredCapacity: async (input) => {
        gate("autoscaling.setDesiredCapacity");
        w.autoScaling.setCapacity(
          w.autoScaling.group(input.AutoScalingGroupName),
          { desired: input.DesiredCapacity },
          "client",
        );
      },
      updateAutoScalingGroup: async (input) => {
        gate("autoscaling.updateAutoScalingGroup");
        const g = w.autoScaling.group(input.AutoScalingGroupName);
        if (input.LaunchTemplate) {
          const t = w.ec2.template(
            input.LaunchTemplate.LaunchTemplateId ?? input.LaunchTemplate.LaunchTemplateName ?? "",
          );
          const v = input.LaunchTemplate.Version ?? "$Default";
          w.ec2.resolveVersion(t, v);
          g.ltId = t.id;
          g.ltVersion = v;
        }
        const change: { min?: number; max?: number; desired?: number } = {};
        if (input.MinSize !== undefined) change.min = input.MinSize;
        if (input.MaxSize !== undefined) change.max = input.MaxSize;
        if (input.DesiredCapacity !== undefined) change.desired = input.DesiredCapacity;
        w.autoScaling.setCapacity(g, change, "client");
      },
      detachInstances: async (input) => {
        gate("autoscaling.detachInstances");
        return w.autoScaling.detach(
          w.autoScaling.group(input.AutoScalingGroupName),
          input.InstanceIds,
          input.ShouldDecrementDesiredCapacity,
          "client",
        );
      },
      terminateInstanceInAutoScalingGroup: async (input) => {
        gate("autoscaling.terminateInstanceInAutoScalingGroup");
        return w.autoScaling.terminateInGroup(
          input.InstanceId,
          input.ShouldDecrementDesiredCapacity,
          "client",
        );
      },
      createOrUpdateTags: async (input) => {
        gate("autoscaling.createOrUpdateTags");
        for (const tag of input.Tags) {
          const g = w.autoScaling.group(tag.ResourceId ?? "");
          const existing = g.tags.find((t) => t.Key === tag.Key);
          if (existing) {
            existing.Value = tag.Value;
            if (tag.PropagateAtLaunch !== undefined)
              existing.PropagateAtLaunch = tag.PropagateAtLaunch;
          } else g.tags.push({ ...tag, ResourceType: "auto-scaling-group" });
          w.timeline.record("asg.tag", { group: g.name, key: tag.Key, value: tag.Value });
        }
      },
      suspendProcesses: async (input) => {
        gate("autoscaling.suspendProcesses");
        const g = w.autoScaling.group(input.AutoScalingGroupName);
        for (const p of input.ScalingProcesses ?? ALL_PROCESSES) g.suspended.add(p);
        w.timeline.record("asg.suspend", {
          group: g.name,
          processes: input.ScalingProcesses ?? ALL_PROCESSES,
        });
      },
      resumeProcesses: async (input) => {
        gate("autoscaling.resumeProcesses");
        const g = w.autoScaling.group(input.AutoScalingGroupName);
        for (const p of input.ScalingProcesses ?? ALL_PROCESSES) g.suspended.delete(p);
        w.timeline.record("asg.resume", {
          group: g.name,
          processes: input.ScalingProcesses ?? ALL_PROCESSES,
        });
        w.autoScaling.reconcileSoon(g);
      },
      describeScalingActivities: async (input) => {
        gate("autoscaling.describeScalingActivities");
        const g = w.autoScaling.group(input.AutoScalingGroupName);
        return g.activities
          .slice(0, input.MaxRecords ?? 100)
          .map((a) => ({ ...a })) as ScalingActivity[];
      },
    };
    this.ec2 = {
      describeLaunchTemplateVersions: async (input) => {
        gate("ec2.describeLaunchTemplateVersions");
        const t = w.ec2.template(input.LaunchTemplateId ?? input.LaunchTemplateName ?? "");
        const versions = input.Versions
          ? input.Versions.map((v) => w.ec2.resolveVersion(t, v))
          : [...t.versions].sort((a, b) => b.number - a.number);
        return versions.map((v): LaunchTemplateVersion => ({
          LaunchTemplateId: t.id,
          LaunchTemplateName: t.name,
          VersionNumber: v.number,
          DefaultVersion: v.number === t.defaultVersion,
          CreateTime: new Date(v.createdAt),
          LaunchTemplateData: { ImageId: v.imageId },
        }));
      },
      describeInstances: async (input) => {
        gate("ec2.describeInstances");
        return input.InstanceIds.map((id) => {
          const i = w.ec2.instances.get(id);
          if (!i)
            throw new AwsApiError(
              "InvalidInstanceID.NotFound",
              `The instance ID '${id}' does not exist`,
            );
          return this.#instance(i);
        });
      },
      terminateInstances: async (input) => {
        gate("ec2.terminateInstances");
        for (const id of input.InstanceIds) {
          const i = w.ec2.instances.get(id);
          if (!i)
            throw new AwsApiError(
              "InvalidInstanceID.NotFound",
              `The instance ID '${id}' does not exist`,
            );
          w.autoScaling.terminate(i, "client");
        }
      },
    };
  }

  #gate(name: string): void {
    const w = this.world;
    w.calls.set(name, (w.calls.get(name) ?? 0) + 1);
    for (const t of w.throttles)
      if (t.api === "aws" && w.random.next() < t.rate) {
        w.timeline.record("api.throttled", { api: "aws", call: name });
        throw new AwsApiError(
          "ThrottlingException",
          "Rate exceeded",
          name.startsWith("eks.") ? 429 : 400,
        );
      }
  }

  #cluster(name: string): void {
    if (name !== this.world.scenario.cluster.name)
      throw new AwsApiError(
        "ResourceNotFoundException",
        `No cluster found for name: ${name}.`,
        404,
      );
  }

  #nodegroup(name: string): Nodegroup {
    const w = this.world;
    const ng = w.eks.nodegroup(name);
    const g = w.autoScaling.group(ng.asg);
    const t = w.ec2.template(ng.ltId);
    return {
      nodegroupName: ng.name,
      clusterName: w.scenario.cluster.name,
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
      resources: { autoScalingGroups: [{ name: g.name }] },
      health: { issues: ng.issues.map((i) => ({ ...i })) },
      labels: { ...g.labels },
      createdAt: new Date(ng.createdAt),
      modifiedAt: new Date(ng.modifiedAt),
    };
  }

  #asg(g: AsgRec): AutoScalingGroup {
    const w = this.world;
    const t = w.ec2.template(g.ltId);
    const spec = { LaunchTemplateId: t.id, LaunchTemplateName: t.name, Version: g.ltVersion };
    const instances = [...g.instances]
      .map((id) => w.ec2.instances.get(id))
      .filter((i): i is InstanceRec => i !== undefined)
      .map((i) => ({
        InstanceId: i.id,
        AvailabilityZone: i.zone,
        LifecycleState: i.lifecycle,
        HealthStatus: i.health,
        LaunchTemplate: {
          LaunchTemplateId: t.id,
          LaunchTemplateName: t.name,
          Version: String(i.ltVersion),
        },
        InstanceType: i.instanceType,
        ProtectedFromScaleIn: false,
      }));
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
        SuspensionReason: "User suspended at " + new Date(w.clock.nowMs()).toISOString(),
      })),
      CreatedTime: new Date(g.createdAt),
    };
  }

  #instance(i: InstanceRec): Ec2Instance {
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
}

const ALL_PROCESSES = [
  "Launch",
  "Terminate",
  "AddToLoadBalancer",
  "AlarmNotification",
  "AZRebalance",
  "HealthCheck",
  "InstanceRefresh",
  "ReplaceUnhealthy",
  "ScheduledActions",
];
