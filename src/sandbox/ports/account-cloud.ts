// The Cloud port of an account with several clusters in one region (world/account.ts): one AWS
// over every world, as an account is. Each call goes to the world that holds what it names — an
// EKS call to the world of its cluster, an Auto Scaling write to the world of its group, an EC2
// call on instances to the world of each instance — and a call that names nothing (ListClusters,
// DescribeAutoScalingGroups by tag, DescribeInstances by filter) asks every world and joins their
// answers. What no world holds, the first answers, as it would on its own: AWS's error for a name
// or id it does not know (ResourceNotFoundException for a cluster, ValidationError for a group,
// InvalidInstanceID.NotFound for an instance). Each world's own face does the work, so a call
// counts (`world.calls`), is throttled and meets faults in the world it reaches.
import type {
  AsgInstance,
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
import type {
  PutMetricAlarmInput,
  SandboxAutoScalingApi,
  SandboxCloudApi,
  SandboxCloudWatchApi,
  SandboxMetricAlarm,
} from "./api.js";

/** What the account's Cloud needs of each world: its Cloud port and what it holds in AWS. */
export interface AccountMember {
  clusterName: string;
  cloud: SandboxCloudApi;
  /** Its Auto Scaling groups, by name. */
  groups: ReadonlyMap<string, unknown>;
  /** Its EC2 instances, by id. */
  instances: ReadonlyMap<string, unknown>;
  /** Its launch templates, by id. */
  templates: ReadonlyMap<string, { name: string }>;
  /** Its CloudWatch alarms, by name. */
  alarms: ReadonlyMap<string, unknown>;
}

type Input<S, K extends keyof S> = S[K] extends (input: infer I) => unknown ? I : never;

/** The worlds, and which of them holds a name or id. */
class Members {
  constructor(readonly all: readonly AccountMember[]) {
    if (all.length === 0) throw new Error("an account needs at least one world");
  }
  /** Where no world holds it: the first, whose own face says AWS's error. */
  get first(): AccountMember {
    return this.all[0] as AccountMember;
  }
  cluster(name: string): AccountMember {
    return this.all.find((m) => m.clusterName === name) ?? this.first;
  }
  group(name: string): AccountMember {
    return this.all.find((m) => m.groups.has(name)) ?? this.first;
  }
  instance(id: string): AccountMember | undefined {
    return this.all.find((m) => m.instances.has(id));
  }
  template(idOrName: string): AccountMember {
    return (
      this.all.find((m) => m.templates.has(idOrName)) ??
      this.all.find((m) => [...m.templates.values()].some((t) => t.name === idOrName)) ??
      this.first
    );
  }
  /**
   * Instance ids by the world holding each, in the order given; `missing`: those none holds
   * (the call then goes to the first world with them, which refuses it as AWS does).
   */
  instances(ids: readonly string[]): { by: Map<AccountMember, string[]>; missing: string[] } {
    const by = new Map<AccountMember, string[]>();
    const missing: string[] = [];
    for (const id of ids) {
      const m = this.instance(id);
      if (!m) missing.push(id);
      else if (by.has(m)) by.get(m)?.push(id);
      else by.set(m, [id]);
    }
    return { by, missing };
  }
}

class AccountEks implements Eks {
  constructor(private readonly members: Members) {}

  describeCluster(name: string): Promise<EksCluster> {
    return this.members.cluster(name).cloud.eks.describeCluster(name);
  }
  async listClusters(): Promise<string[]> {
    const out: string[] = [];
    for (const m of this.members.all) out.push(...(await m.cloud.eks.listClusters()));
    return out;
  }
  listNodegroups(cluster: string): Promise<string[]> {
    return this.members.cluster(cluster).cloud.eks.listNodegroups(cluster);
  }
  describeNodegroup(cluster: string, name: string): Promise<Nodegroup> {
    return this.members.cluster(cluster).cloud.eks.describeNodegroup(cluster, name);
  }
  updateNodegroupConfig(input: Input<Eks, "updateNodegroupConfig">): Promise<EksUpdate> {
    return this.members.cluster(input.clusterName).cloud.eks.updateNodegroupConfig(input);
  }
  updateNodegroupVersion(input: UpdateNodegroupVersionInput): Promise<EksUpdate> {
    return this.members.cluster(input.clusterName).cloud.eks.updateNodegroupVersion(input);
  }
  describeUpdate(input: Input<Eks, "describeUpdate">): Promise<EksUpdate> {
    return this.members.cluster(input.name).cloud.eks.describeUpdate(input);
  }
  listUpdates(input: Input<Eks, "listUpdates">): Promise<string[]> {
    return this.members.cluster(input.name).cloud.eks.listUpdates(input);
  }
  /**
   * The SSM parameters are the region's: every world's answer joined (an account whose
   * scenarios disagree on a version's latest release is refused when it is made).
   */
  async latestReleaseVersions(versions?: readonly string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const m of this.members.all)
      for (const [minor, release] of Object.entries(
        (await m.cloud.eks.latestReleaseVersions?.(versions)) ?? {},
      ))
        out[minor] ??= release;
    return out;
  }
}

class AccountAutoScaling implements SandboxAutoScalingApi {
  constructor(private readonly members: Members) {}

  /** By names: the worlds holding them (none: the first, which finds none); else every world. */
  async describeAutoScalingGroups(
    input: Input<SandboxAutoScalingApi, "describeAutoScalingGroups">,
  ): Promise<AutoScalingGroup[]> {
    const names = input.AutoScalingGroupNames;
    const asked = names
      ? this.members.all.filter((m) => names.some((n) => m.groups.has(n)))
      : this.members.all;
    const out: AutoScalingGroup[] = [];
    for (const m of asked.length > 0 ? asked : [this.members.first])
      out.push(...(await m.cloud.autoScaling.describeAutoScalingGroups(input)));
    return out;
  }
  setDesiredCapacity(input: Input<SandboxAutoScalingApi, "setDesiredCapacity">): Promise<void> {
    return this.#of(input).setDesiredCapacity(input);
  }
  updateAutoScalingGroup(
    input: Input<SandboxAutoScalingApi, "updateAutoScalingGroup">,
  ): Promise<void> {
    return this.#of(input).updateAutoScalingGroup(input);
  }
  detachInstances(
    input: Input<SandboxAutoScalingApi, "detachInstances">,
  ): Promise<ScalingActivity[]> {
    return this.#of(input).detachInstances(input);
  }
  terminateInstanceInAutoScalingGroup(
    input: Input<SandboxAutoScalingApi, "terminateInstanceInAutoScalingGroup">,
  ): Promise<ScalingActivity> {
    const m = this.members.instance(input.InstanceId) ?? this.members.first;
    return m.cloud.autoScaling.terminateInstanceInAutoScalingGroup(input);
  }
  createOrUpdateTags(input: Input<SandboxAutoScalingApi, "createOrUpdateTags">) {
    return this.#byGroup(input.Tags, (as, Tags) => as.createOrUpdateTags({ Tags }));
  }
  deleteTags(input: Input<SandboxAutoScalingApi, "deleteTags">) {
    return this.#byGroup(input.Tags, (as, Tags) => as.deleteTags({ Tags }));
  }

  /** Each tag to the world of its group; one naming a group no world holds refuses them all. */
  async #byGroup<T extends { ResourceId?: string }>(
    tags: T[],
    call: (as: SandboxAutoScalingApi, tags: T[]) => Promise<void>,
  ): Promise<void> {
    const by = new Map<AccountMember, T[]>();
    for (const tag of tags) {
      const name = tag.ResourceId ?? "";
      const m = this.members.all.find((x) => x.groups.has(name));
      if (!m) return call(this.members.first.cloud.autoScaling, [tag]);
      by.set(m, [...(by.get(m) ?? []), tag]);
    }
    for (const [m, t] of by) await call(m.cloud.autoScaling, t);
  }
  describeWarmPool(
    input: Input<SandboxAutoScalingApi, "describeWarmPool">,
  ): Promise<AsgInstance[]> {
    return this.#of(input).describeWarmPool(input);
  }
  suspendProcesses(input: Input<SandboxAutoScalingApi, "suspendProcesses">): Promise<void> {
    return this.#of(input).suspendProcesses(input);
  }
  resumeProcesses(input: Input<SandboxAutoScalingApi, "resumeProcesses">): Promise<void> {
    return this.#of(input).resumeProcesses(input);
  }
  describeScalingActivities(
    input: Input<SandboxAutoScalingApi, "describeScalingActivities">,
  ): Promise<ScalingActivity[]> {
    return this.#of(input).describeScalingActivities(input);
  }

  #of(input: { AutoScalingGroupName: string }): SandboxAutoScalingApi {
    return this.members.group(input.AutoScalingGroupName).cloud.autoScaling;
  }
}

class AccountEc2 implements Ec2 {
  constructor(private readonly members: Members) {}

  describeLaunchTemplateVersions(
    input: Input<Ec2, "describeLaunchTemplateVersions">,
  ): Promise<LaunchTemplateVersion[]> {
    const key = input.LaunchTemplateId ?? input.LaunchTemplateName ?? "";
    return this.members.template(key).cloud.ec2.describeLaunchTemplateVersions(input);
  }
  /** By ids: each world's, answered in the order asked; by filters alone: every world's. */
  async describeInstances(input: Input<Ec2, "describeInstances">): Promise<Ec2Instance[]> {
    if (!("InstanceIds" in input)) {
      const out: Ec2Instance[] = [];
      for (const m of this.members.all) out.push(...(await m.cloud.ec2.describeInstances(input)));
      return out;
    }
    const { by, missing } = this.members.instances(input.InstanceIds);
    if (missing.length > 0)
      return this.members.first.cloud.ec2.describeInstances({ ...input, InstanceIds: missing });
    const found = new Map<string, Ec2Instance>();
    for (const [m, InstanceIds] of by)
      for (const i of await m.cloud.ec2.describeInstances({ ...input, InstanceIds }))
        found.set(i.InstanceId, i);
    return input.InstanceIds.flatMap((id) => found.get(id) ?? []);
  }
  async createTags(input: Input<Ec2, "createTags">): Promise<void> {
    const { by, missing } = this.members.instances(input.Resources);
    if (missing.length > 0)
      return this.members.first.cloud.ec2.createTags({ ...input, Resources: missing });
    for (const [m, Resources] of by) await m.cloud.ec2.createTags({ ...input, Resources });
  }
  async deleteTags(input: Input<Ec2, "deleteTags">): Promise<void> {
    const { by, missing } = this.members.instances(input.Resources);
    if (missing.length > 0)
      return this.members.first.cloud.ec2.deleteTags({ ...input, Resources: missing });
    for (const [m, Resources] of by) await m.cloud.ec2.deleteTags({ ...input, Resources });
  }
  async terminateInstances(input: Input<Ec2, "terminateInstances">): Promise<void> {
    const { by, missing } = this.members.instances(input.InstanceIds);
    if (missing.length > 0)
      return this.members.first.cloud.ec2.terminateInstances({ InstanceIds: missing });
    for (const [m, InstanceIds] of by) await m.cloud.ec2.terminateInstances({ InstanceIds });
  }
}

/**
 * Alarms by name: DescribeAlarms asks the worlds holding the names asked for (every world
 * without names) and joins their answers in name order; a write goes to the world holding the
 * alarm, a new alarm to the first world.
 */
class AccountCloudWatch implements SandboxCloudWatchApi {
  constructor(private readonly members: Members) {}

  async describeAlarms(
    input: Input<SandboxCloudWatchApi, "describeAlarms">,
  ): Promise<SandboxMetricAlarm[]> {
    const names = input.AlarmNames;
    const asked = names
      ? this.members.all.filter((m) => names.some((n) => m.alarms.has(n)))
      : this.members.all;
    const out: SandboxMetricAlarm[] = [];
    for (const m of asked.length > 0 ? asked : [this.members.first])
      out.push(...(await m.cloud.cloudWatch.describeAlarms(input)));
    return out.sort((a, b) => (a.AlarmName < b.AlarmName ? -1 : 1));
  }
  putMetricAlarm(input: PutMetricAlarmInput): Promise<void> {
    return this.#of(input.AlarmName).putMetricAlarm(input);
  }
  setAlarmState(input: Input<SandboxCloudWatchApi, "setAlarmState">): Promise<void> {
    return this.#of(input.AlarmName).setAlarmState(input);
  }

  #of(name: string): SandboxCloudWatchApi {
    return (this.members.all.find((m) => m.alarms.has(name)) ?? this.members.first).cloud
      .cloudWatch;
  }
}

/** One AWS over every world of an account. */
export class AccountCloud implements SandboxCloudApi {
  readonly eks: Eks;
  readonly autoScaling: SandboxAutoScalingApi;
  readonly ec2: Ec2;
  readonly cloudWatch: SandboxCloudWatchApi;

  constructor(members: readonly AccountMember[]) {
    const m = new Members(members);
    this.eks = new AccountEks(m);
    this.autoScaling = new AccountAutoScaling(m);
    this.ec2 = new AccountEc2(m);
    this.cloudWatch = new AccountCloudWatch(m);
  }
}
