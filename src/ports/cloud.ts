// The AWS side as a port: the EKS, Auto Scaling and EC2 calls noderoll makes — only those the
// core calls (the sandbox adds what its own tests and wire faces need, src/sandbox/ports/api.ts), with records
// shaped like the AWS SDK's (EKS camelCase, Auto Scaling / EC2 PascalCase) so the real
// adapters map them 1:1 and the sandbox can stand in for AWS. Only the fields noderoll reads are
// typed; adapters may pass more. Every call may throw AwsApiError (throttling above all).

/**
 * The two kinds of node group noderoll rolls: an EKS managed node group (EKS runs the update)
 * and a self-managed Auto Scaling group (noderoll runs it, with kOps' semantics).
 */
export type GroupKindId = "managed" | "self-managed";

import type { CloudWatch } from "./signals.js";

// ---- EKS -------------------------------------------------------------------------------------

export interface EksCluster {
  name: string;
  version: string;
  status: "CREATING" | "ACTIVE" | "DELETING" | "FAILED" | "UPDATING" | "PENDING";
  arn?: string;
  /** The Kubernetes API server's URL. */
  endpoint?: string;
  /** The cluster's certificate authority, base64 PEM (kubeconfig's certificate-authority-data). */
  certificateAuthority?: { data?: string };
}

export interface UpdateConfig {
  maxUnavailable?: number;
  maxUnavailablePercentage?: number;
  /** "DEFAULT" (the four phases) or "MINIMAL" (no surge beyond what is needed). */
  updateStrategy?: "DEFAULT" | "MINIMAL";
}

export type NodegroupStatus =
  "CREATING" | "ACTIVE" | "UPDATING" | "DELETING" | "CREATE_FAILED" | "DELETE_FAILED" | "DEGRADED";

export interface Nodegroup {
  nodegroupName: string;
  clusterName: string;
  version: string;
  releaseVersion: string;
  status: NodegroupStatus;
  capacityType?: "ON_DEMAND" | "SPOT";
  instanceTypes?: string[];
  subnets?: string[];
  scalingConfig: { minSize: number; maxSize: number; desiredSize: number };
  updateConfig: UpdateConfig;
  launchTemplate?: { id: string; name?: string; version: string };
  /** "CUSTOM" when the group's launch template names its own AMI; else the EKS AMI family. */
  amiType?: string;
  resources: { autoScalingGroups: { name: string }[] };
  health: { issues: { code: string; message: string; resourceIds?: string[] }[] };
  labels?: Record<string, string>;
  taints?: {
    key: string;
    value?: string;
    effect: "NO_SCHEDULE" | "NO_EXECUTE" | "PREFER_NO_SCHEDULE";
  }[];
  createdAt?: Date;
  modifiedAt?: Date;
}

export type UpdateStatus = "InProgress" | "Failed" | "Cancelled" | "Successful";
export type UpdateType = "VersionUpdate" | "ConfigUpdate" | string;

/** Error codes an update reports (EKS API reference, ErrorDetail.errorCode). */
export type UpdateErrorCode =
  | "NodeCreationFailure"
  | "PodEvictionFailure"
  | "InsufficientFreeAddresses"
  | "AsgInstanceLaunchFailures"
  | "InternalFailure"
  | "Unknown"
  | string;

export interface EksUpdate {
  id: string;
  status: UpdateStatus;
  type: UpdateType;
  params: { type: string; value: string }[];
  createdAt: Date;
  errors: { errorCode: UpdateErrorCode; errorMessage: string; resourceIds: string[] }[];
}

export interface UpdateNodegroupVersionInput {
  clusterName: string;
  nodegroupName: string;
  version?: string;
  releaseVersion?: string;
  launchTemplate?: { id?: string; name?: string; version?: string };
  force?: boolean;
  clientRequestToken?: string;
}

export interface Eks {
  describeCluster(name: string): Promise<EksCluster>;
  /** Every cluster name of the account and region, all pages of them. */
  listClusters(): Promise<string[]>;
  listNodegroups(clusterName: string): Promise<string[]>;
  describeNodegroup(clusterName: string, nodegroupName: string): Promise<Nodegroup>;
  updateNodegroupConfig(input: {
    clusterName: string;
    nodegroupName: string;
    updateConfig?: UpdateConfig;
    scalingConfig?: Partial<Nodegroup["scalingConfig"]>;
  }): Promise<EksUpdate>;
  updateNodegroupVersion(input: UpdateNodegroupVersionInput): Promise<EksUpdate>;
  describeUpdate(input: {
    name: string;
    nodegroupName?: string;
    updateId: string;
  }): Promise<EksUpdate>;
  /**
   * Every update id of the cluster or node group, all pages of them; in no particular order
   * (the API promises none: order them by DescribeUpdate's createdAt).
   */
  listUpdates(input: { name: string; nodegroupName?: string }): Promise<string[]>;
  /**
   * Latest EKS AMI release version per Kubernetes minor version (from the SSM parameters), for
   * the `versions` asked for — without them, every version the implementation knows (the live
   * adapter knows none it is not asked for). A version with no release is absent.
   */
  latestReleaseVersions?(versions?: readonly string[]): Promise<Record<string, string>>;
}

// ---- Auto Scaling ----------------------------------------------------------------------------

export type LifecycleState =
  | "Pending"
  | "Pending:Wait"
  | "Pending:Proceed"
  | "InService"
  | "Terminating"
  | "Terminating:Wait"
  | "Terminating:Proceed"
  | "Terminated"
  | "Detaching"
  | "Detached"
  | "EnteringStandby"
  | "Standby"
  // A warm pool's instances (DescribeWarmPool): never the group's members.
  | `Warmed:${string}`;

export interface LaunchTemplateSpecification {
  LaunchTemplateId?: string;
  LaunchTemplateName?: string;
  /** "$Latest", "$Default" or a number as a string. */
  Version?: string;
}

export interface AsgInstance {
  InstanceId: string;
  AvailabilityZone: string;
  LifecycleState: LifecycleState;
  HealthStatus: "Healthy" | "Unhealthy";
  LaunchTemplate?: LaunchTemplateSpecification;
  InstanceType?: string;
  ProtectedFromScaleIn?: boolean;
}

export interface Tag {
  Key: string;
  Value: string;
  ResourceId?: string;
  ResourceType?: "auto-scaling-group";
  PropagateAtLaunch?: boolean;
}

export interface AutoScalingGroup {
  AutoScalingGroupName: string;
  MinSize: number;
  MaxSize: number;
  DesiredCapacity: number;
  AvailabilityZones: string[];
  LaunchTemplate?: LaunchTemplateSpecification;
  MixedInstancesPolicy?: {
    LaunchTemplate: { LaunchTemplateSpecification: LaunchTemplateSpecification };
  };
  Instances: AsgInstance[];
  Tags: Tag[];
  SuspendedProcesses: { ProcessName: string; SuspensionReason?: string }[];
  CreatedTime?: Date;
  /** Present when the group keeps a warm pool (its instances: describeWarmPool). */
  WarmPoolConfiguration?: {
    MinSize?: number;
    MaxGroupPreparedCapacity?: number;
    PoolState?: string;
  };
  WarmPoolSize?: number;
}

export interface ScalingActivity {
  ActivityId: string;
  AutoScalingGroupName: string;
  Description: string;
  Cause: string;
  StartTime: Date;
  EndTime?: Date;
  StatusCode: "InProgress" | "Successful" | "Failed" | "Cancelled" | string;
  StatusMessage?: string;
}

export interface AutoScaling {
  /** By names, or by tag filters (`{ Name: "tag:k8s.io/cluster/demo", Values: ["owned"] }`). */
  describeAutoScalingGroups(input: {
    AutoScalingGroupNames?: string[];
    Filters?: { Name: string; Values: string[] }[];
  }): Promise<AutoScalingGroup[]>;
  updateAutoScalingGroup(input: {
    AutoScalingGroupName: string;
    MinSize?: number;
    MaxSize?: number;
    DesiredCapacity?: number;
    LaunchTemplate?: LaunchTemplateSpecification;
  }): Promise<void>;
  detachInstances(input: {
    AutoScalingGroupName: string;
    InstanceIds: string[];
    ShouldDecrementDesiredCapacity: boolean;
  }): Promise<ScalingActivity[]>;
  terminateInstanceInAutoScalingGroup(input: {
    InstanceId: string;
    ShouldDecrementDesiredCapacity: boolean;
  }): Promise<ScalingActivity>;
  /** The group's warm pool's instances, every page (DescribeWarmPool). */
  describeWarmPool(input: { AutoScalingGroupName: string }): Promise<AsgInstance[]>;
  /** AZRebalance, held while a group rolls (kinds/self-managed/processes.ts); idempotent. */
  suspendProcesses(input: {
    AutoScalingGroupName: string;
    ScalingProcesses: string[];
  }): Promise<void>;
  resumeProcesses(input: {
    AutoScalingGroupName: string;
    ScalingProcesses: string[];
  }): Promise<void>;
  /** The group's own tags: noderoll's mark of the processes it suspended. */
  createOrUpdateTags(input: { Tags: Tag[] }): Promise<void>;
  deleteTags(input: { Tags: Pick<Tag, "Key" | "ResourceId" | "ResourceType">[] }): Promise<void>;
}

// ---- EC2 -------------------------------------------------------------------------------------

export interface LaunchTemplateVersion {
  LaunchTemplateId: string;
  LaunchTemplateName: string;
  VersionNumber: number;
  DefaultVersion: boolean;
  CreateTime?: Date;
  LaunchTemplateData: { ImageId?: string; InstanceType?: string; UserData?: string };
}

export interface Ec2Instance {
  InstanceId: string;
  InstanceType: string;
  LaunchTime: Date;
  ImageId?: string;
  Placement: { AvailabilityZone: string };
  State: { Name: "pending" | "running" | "shutting-down" | "terminated" | "stopping" | "stopped" };
  PrivateDnsName?: string;
  Tags: { Key: string; Value: string }[];
}

/** A DescribeInstances filter: "instance-state-name", "tag-key", "tag:KEY". */
export interface Ec2Filter {
  Name: string;
  Values: string[];
}

export interface Ec2Tag {
  Key: string;
  Value: string;
}

export interface Ec2 {
  /** Versions: numbers as strings, "$Latest" or "$Default"; none = all versions. */
  describeLaunchTemplateVersions(input: {
    LaunchTemplateId?: string;
    LaunchTemplateName?: string;
    Versions?: string[];
  }): Promise<LaunchTemplateVersion[]>;
  /** These instances, or (without InstanceIds) every instance the filters match. */
  describeInstances(
    input: { InstanceIds: string[]; Filters?: Ec2Filter[] } | { Filters: Ec2Filter[] },
  ): Promise<Ec2Instance[]>;
  /** noderoll's surge mark on an instance, so that it is found again detached (and its removal). */
  createTags(input: { Resources: string[]; Tags: Ec2Tag[] }): Promise<void>;
  deleteTags(input: { Resources: string[]; Tags: { Key: string }[] }): Promise<void>;
  /** For instances detached from their group (surge): they are no longer the group's to end. */
  terminateInstances(input: { InstanceIds: string[] }): Promise<void>;
}

/** Everything AWS, as the engine sees it. */
export interface Cloud {
  eks: Eks;
  autoScaling: AutoScaling;
  ec2: Ec2;
  /** The alarms a roll's gates read (signals.ts). */
  cloudWatch: CloudWatch;
}
