// The Cloud port on the AWS SDK v3: EKS, Auto Scaling, EC2, CloudWatch (cloudwatch.ts) and SSM
// (ssm.ts: the latest EKS AMI releases) clients with the SDK's adaptive retry (client-side rate
// limiting on throttling; it also retries resets and timeouts itself), endpoints from the
// standard AWS_ENDPOINT_URL_* variables (the SDK reads them itself), errors turned into
// AwsApiError — or NetworkError when no answer came, with the attempts the SDK made.
// The SDK's HTTP handler waits forever by default; here a connection must open within
// CONNECT_MS, an answer start within REQUEST_MS, and a socket never sit idle for IDLE_MS — the
// request timeout ends when the answer's headers arrive, so a body that stalls is caught by
// the idle timeout (NodeHttpHandlerOptions in @smithy/types) — and every request is aborted
// when the adapters are closed.
import {
  AutoScalingClient,
  CreateOrUpdateTagsCommand,
  DeleteTagsCommand as DeleteAsgTagsCommand,
  DescribeAutoScalingGroupsCommand,
  DescribeWarmPoolCommand,
  DetachInstancesCommand,
  ResumeProcessesCommand,
  SuspendProcessesCommand,
  TerminateInstanceInAutoScalingGroupCommand,
  UpdateAutoScalingGroupCommand,
  type AutoScalingGroup as SdkAsg,
  type Instance as SdkAsgInstance,
  type Activity,
} from "@aws-sdk/client-auto-scaling";
import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import {
  CreateTagsCommand,
  DeleteTagsCommand,
  DescribeInstancesCommand,
  DescribeLaunchTemplateVersionsCommand,
  EC2Client,
  TerminateInstancesCommand,
} from "@aws-sdk/client-ec2";
import {
  DescribeClusterCommand,
  DescribeNodegroupCommand,
  DescribeUpdateCommand,
  EKSClient,
  ListClustersCommand,
  ListNodegroupsCommand,
  ListUpdatesCommand,
  UpdateNodegroupConfigCommand,
  UpdateNodegroupVersionCommand,
  type Nodegroup as SdkNodegroup,
  type Update as SdkUpdate,
} from "@aws-sdk/client-eks";
import { SSMClient } from "@aws-sdk/client-ssm";
import type { AwsCredentialIdentityProvider } from "@smithy/types";
import {
  asNetworkError,
  AwsApiError,
  NetworkError,
  type AutoScalingGroup,
  type Cloud,
  type EksUpdate,
  type Nodegroup,
  type ScalingActivity,
} from "../../ports/index.js";
import { sdkCloudWatch } from "./cloudwatch.js";
import { sdkLatestReleases, withPermission } from "./ssm.js";

export interface AwsCloudOptions {
  region: string;
  credentials?: AwsCredentialIdentityProvider;
  /** Attempts per call, the first included (adaptive retry waits between them). */
  maxAttempts?: number;
  /** Aborts every request in flight (the adapters are closed). */
  signal?: AbortSignal;
  /** A connection must be open within this long. */
  connectionTimeoutMs?: number;
  /** An answer must have come within this long. */
  requestTimeoutMs?: number;
}

export const CONNECT_MS = 10_000;
export const REQUEST_MS = 60_000;
export const IDLE_MS = 30_000;

/** The SDK clients' settings: retries, timeouts, one keep-alive agent with bounded sockets. */
export function sdkConfig(options: AwsCloudOptions) {
  return {
    region: options.region,
    retryMode: "adaptive",
    maxAttempts: options.maxAttempts ?? 8,
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? CONNECT_MS,
      requestTimeout: options.requestTimeoutMs ?? REQUEST_MS,
      throwOnRequestTimeout: true,
      socketTimeout: Math.min(IDLE_MS, options.requestTimeoutMs ?? IDLE_MS),
      httpsAgent: { keepAlive: true, maxSockets: 32 },
      httpAgent: { keepAlive: true, maxSockets: 32 },
    },
    ...(options.credentials && { credentials: options.credentials }),
  };
}

interface SdkError {
  name?: string;
  $fault?: string;
  Code?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number };
}

/** An SDK error as the port's: AwsApiError for an answer, NetworkError for none. */
export function portError(e: unknown): unknown {
  const err = e as SdkError;
  if (err?.name === "AbortError") return e;
  const attempts = err?.$metadata?.attempts ?? 1;
  // A service's answer is an exception with a $fault; a broken or silent connection is not,
  // even when the answer's headers had arrived (a body that stalled).
  if (err?.$fault === undefined) {
    const net =
      err?.name === "TimeoutError"
        ? new NetworkError("ETIMEDOUT", err.message ?? "timed out")
        : asNetworkError(e);
    if (net) return new NetworkError(net.code, net.message, attempts, net.sent, net.cause ?? e);
  }
  if (err?.$metadata)
    return new AwsApiError(
      err.Code ?? err.name ?? "Unknown",
      err.message ?? String(e),
      err.$metadata.httpStatusCode ?? 400,
      attempts,
    );
  return e;
}

/** Run an SDK call, turning its errors into the port's. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw portError(e);
  }
}

function nodegroup(n: SdkNodegroup | undefined): Nodegroup {
  if (!n) throw new AwsApiError("ResourceNotFoundException", "no node group in the answer", 404);
  return {
    nodegroupName: n.nodegroupName ?? "",
    clusterName: n.clusterName ?? "",
    version: n.version ?? "",
    releaseVersion: n.releaseVersion ?? "",
    status: (n.status ?? "ACTIVE") as Nodegroup["status"],
    scalingConfig: {
      minSize: n.scalingConfig?.minSize ?? 0,
      maxSize: n.scalingConfig?.maxSize ?? 0,
      desiredSize: n.scalingConfig?.desiredSize ?? 0,
    },
    updateConfig: {
      ...(n.updateConfig?.maxUnavailable !== undefined && {
        maxUnavailable: n.updateConfig.maxUnavailable,
      }),
      ...(n.updateConfig?.maxUnavailablePercentage !== undefined && {
        maxUnavailablePercentage: n.updateConfig.maxUnavailablePercentage,
      }),
      ...(n.updateConfig?.updateStrategy && {
        updateStrategy: n.updateConfig.updateStrategy as "DEFAULT" | "MINIMAL",
      }),
    },
    ...(n.launchTemplate?.id && {
      launchTemplate: {
        id: n.launchTemplate.id,
        ...(n.launchTemplate.name && { name: n.launchTemplate.name }),
        version: n.launchTemplate.version ?? "$Default",
      },
    }),
    resources: {
      autoScalingGroups: (n.resources?.autoScalingGroups ?? []).map((a) => ({
        name: a.name ?? "",
      })),
    },
    health: {
      issues: (n.health?.issues ?? []).map((i) => ({
        code: i.code ?? "",
        message: i.message ?? "",
        resourceIds: i.resourceIds ?? [],
      })),
    },
    ...(n.labels && { labels: n.labels }),
    ...(n.amiType && { amiType: n.amiType }),
  };
}

function update(u: SdkUpdate | undefined): EksUpdate {
  if (!u) throw new AwsApiError("ResourceNotFoundException", "no update in the answer", 404);
  return {
    id: u.id ?? "",
    status: (u.status ?? "InProgress") as EksUpdate["status"],
    type: u.type ?? "",
    createdAt: u.createdAt ?? new Date(0),
    params: (u.params ?? []).map((p) => ({ type: p.type ?? "", value: p.value ?? "" })),
    errors: (u.errors ?? []).map((e) => ({
      errorCode: e.errorCode ?? "Unknown",
      errorMessage: e.errorMessage ?? "",
      resourceIds: e.resourceIds ?? [],
    })),
  };
}

function asg(a: SdkAsg): AutoScalingGroup {
  return {
    AutoScalingGroupName: a.AutoScalingGroupName ?? "",
    MinSize: a.MinSize ?? 0,
    MaxSize: a.MaxSize ?? 0,
    DesiredCapacity: a.DesiredCapacity ?? 0,
    AvailabilityZones: a.AvailabilityZones ?? [],
    ...(a.LaunchTemplate && { LaunchTemplate: a.LaunchTemplate }),
    ...(a.MixedInstancesPolicy?.LaunchTemplate?.LaunchTemplateSpecification && {
      MixedInstancesPolicy: {
        LaunchTemplate: {
          LaunchTemplateSpecification:
            a.MixedInstancesPolicy.LaunchTemplate.LaunchTemplateSpecification,
        },
      },
    }),
    Instances: (a.Instances ?? []).map(asgInstance),
    Tags: (a.Tags ?? []).map((t) => ({ Key: t.Key ?? "", Value: t.Value ?? "" })),
    SuspendedProcesses: (a.SuspendedProcesses ?? []).map((p) => ({
      ProcessName: p.ProcessName ?? "",
    })),
    ...(a.WarmPoolConfiguration && {
      WarmPoolConfiguration: {
        ...(a.WarmPoolConfiguration.MinSize !== undefined && {
          MinSize: a.WarmPoolConfiguration.MinSize,
        }),
        ...(a.WarmPoolConfiguration.MaxGroupPreparedCapacity !== undefined && {
          MaxGroupPreparedCapacity: a.WarmPoolConfiguration.MaxGroupPreparedCapacity,
        }),
        ...(a.WarmPoolConfiguration.PoolState && { PoolState: a.WarmPoolConfiguration.PoolState }),
      },
    }),
    ...(a.WarmPoolSize !== undefined && { WarmPoolSize: a.WarmPoolSize }),
  };
}

/** An instance of a group, or of its warm pool, as the port carries it. */
function asgInstance(i: SdkAsgInstance): AutoScalingGroup["Instances"][number] {
  return {
    InstanceId: i.InstanceId ?? "",
    AvailabilityZone: i.AvailabilityZone ?? "",
    LifecycleState: (i.LifecycleState ??
      "InService") as AutoScalingGroup["Instances"][number]["LifecycleState"],
    HealthStatus: (i.HealthStatus ?? "Healthy") as "Healthy" | "Unhealthy",
    ...(i.LaunchTemplate && { LaunchTemplate: i.LaunchTemplate }),
    ...(i.InstanceType && { InstanceType: i.InstanceType }),
  };
}

function activity(a: Activity): ScalingActivity {
  return {
    ActivityId: a.ActivityId ?? "",
    AutoScalingGroupName: a.AutoScalingGroupName ?? "",
    Description: a.Description ?? "",
    Cause: a.Cause ?? "",
    StartTime: a.StartTime ?? new Date(0),
    ...(a.EndTime && { EndTime: a.EndTime }),
    StatusCode: a.StatusCode ?? "",
    ...(a.StatusMessage && { StatusMessage: a.StatusMessage }),
  };
}

export function awsCloud(options: AwsCloudOptions): Cloud {
  const config = sdkConfig(options);
  const sendOptions = options.signal ? { abortSignal: options.signal } : {};
  // Every request carries the adapters' signal: closing them aborts what is still in flight.
  const abortable = <C extends { send: (...a: never[]) => unknown }>(client: C): C => {
    const send = client.send.bind(client) as (command: unknown, o?: object) => unknown;
    (client as { send: unknown }).send = (command: unknown) => send(command, sendOptions);
    return client;
  };
  const eks = abortable(new EKSClient(config));
  const as = abortable(new AutoScalingClient(config));
  // DetachInstances and TerminateInstanceInAutoScalingGroup are not idempotent: sent again after
  // a lost answer, the second one is refused ("not part of Auto Scaling group") although the
  // first did its work. The SDK would re-send on a reset or timeout, beneath the engine; this
  // client sends once, and the engine's resilient port retries what is safe (throttling, "try
  // later") and re-reads the group to confirm a write whose answer was lost (writes.ts).
  const asOnce = abortable(new AutoScalingClient({ ...config, maxAttempts: 1 }));
  const ec2 = abortable(new EC2Client(config));
  const cloudWatch = sdkCloudWatch(abortable(new CloudWatchClient(config)));
  const latestReleases = sdkLatestReleases(abortable(new SSMClient(config)));
  return {
    eks: {
      describeCluster: (name) =>
        call(async () => {
          const c = (await eks.send(new DescribeClusterCommand({ name }))).cluster;
          return {
            name: c?.name ?? name,
            version: c?.version ?? "",
            status: (c?.status ?? "ACTIVE") as "ACTIVE",
            ...(c?.arn && { arn: c.arn }),
            ...(c?.endpoint && { endpoint: c.endpoint }),
            ...(c?.certificateAuthority?.data && {
              certificateAuthority: { data: c.certificateAuthority.data },
            }),
          };
        }),
      listClusters: () =>
        call(async () => {
          const out: string[] = [];
          let nextToken: string | undefined;
          do {
            const r = await eks.send(new ListClustersCommand({ nextToken }));
            out.push(...(r.clusters ?? []));
            nextToken = r.nextToken;
          } while (nextToken);
          return out;
        }),
      listNodegroups: (clusterName) =>
        call(async () => {
          const out: string[] = [];
          let nextToken: string | undefined;
          do {
            const r = await eks.send(new ListNodegroupsCommand({ clusterName, nextToken }));
            out.push(...(r.nodegroups ?? []));
            nextToken = r.nextToken;
          } while (nextToken);
          return out;
        }),
      describeNodegroup: (clusterName, nodegroupName) =>
        call(async () =>
          nodegroup(
            (await eks.send(new DescribeNodegroupCommand({ clusterName, nodegroupName })))
              .nodegroup,
          ),
        ),
      updateNodegroupConfig: (input) =>
        call(async () => update((await eks.send(new UpdateNodegroupConfigCommand(input))).update)),
      updateNodegroupVersion: (input) =>
        call(async () => update((await eks.send(new UpdateNodegroupVersionCommand(input))).update)),
      describeUpdate: (input) =>
        call(async () => update((await eks.send(new DescribeUpdateCommand(input))).update)),
      // Every page: the API promises no order, so the caller needs them all.
      listUpdates: (input) =>
        call(async () => {
          const out: string[] = [];
          let nextToken: string | undefined;
          do {
            const r = await eks.send(new ListUpdatesCommand({ ...input, nextToken }));
            out.push(...(r.updateIds ?? []));
            nextToken = r.nextToken;
          } while (nextToken);
          return out;
        }),
      latestReleaseVersions: (versions) =>
        call(() => latestReleases(versions)).catch((e: unknown) => {
          throw withPermission(e);
        }),
    },
    autoScaling: {
      describeAutoScalingGroups: (input) =>
        call(async () => {
          const out: AutoScalingGroup[] = [];
          let NextToken: string | undefined;
          do {
            const r = await as.send(
              new DescribeAutoScalingGroupsCommand({ ...input, NextToken, MaxRecords: 100 }),
            );
            out.push(...(r.AutoScalingGroups ?? []).map(asg));
            NextToken = r.NextToken;
          } while (NextToken);
          return out;
        }),
      // DescribeWarmPool takes at most 50 records a page.
      describeWarmPool: (input) =>
        call(async () => {
          const out: AutoScalingGroup["Instances"] = [];
          let NextToken: string | undefined;
          do {
            const r = await as.send(
              new DescribeWarmPoolCommand({ ...input, NextToken, MaxRecords: 50 }),
            );
            out.push(...(r.Instances ?? []).map(asgInstance));
            NextToken = r.NextToken;
          } while (NextToken);
          return out;
        }),
      updateAutoScalingGroup: (input) =>
        call(async () => void (await as.send(new UpdateAutoScalingGroupCommand(input)))),
      detachInstances: (input) =>
        call(async () =>
          ((await asOnce.send(new DetachInstancesCommand(input))).Activities ?? []).map(activity),
        ),
      terminateInstanceInAutoScalingGroup: (input) =>
        call(async () =>
          activity(
            (await asOnce.send(new TerminateInstanceInAutoScalingGroupCommand(input))).Activity ??
              ({} as Activity),
          ),
        ),
      suspendProcesses: (input) =>
        call(async () => void (await as.send(new SuspendProcessesCommand(input)))),
      resumeProcesses: (input) =>
        call(async () => void (await as.send(new ResumeProcessesCommand(input)))),
      createOrUpdateTags: (input) =>
        call(async () => void (await as.send(new CreateOrUpdateTagsCommand(input)))),
      deleteTags: (input) =>
        call(async () => void (await as.send(new DeleteAsgTagsCommand(input)))),
    },
    ec2: {
      describeLaunchTemplateVersions: (input) =>
        call(async () =>
          (
            (await ec2.send(new DescribeLaunchTemplateVersionsCommand(input)))
              .LaunchTemplateVersions ?? []
          ).map((v) => ({
            LaunchTemplateId: v.LaunchTemplateId ?? "",
            LaunchTemplateName: v.LaunchTemplateName ?? "",
            VersionNumber: v.VersionNumber ?? 0,
            DefaultVersion: v.DefaultVersion ?? false,
            ...(v.CreateTime && { CreateTime: v.CreateTime }),
            LaunchTemplateData: {
              ...(v.LaunchTemplateData?.ImageId && { ImageId: v.LaunchTemplateData.ImageId }),
              ...(v.LaunchTemplateData?.InstanceType && {
                InstanceType: v.LaunchTemplateData.InstanceType,
              }),
            },
          })),
        ),
      describeInstances: (input) =>
        call(async () => {
          const out = [];
          let NextToken: string | undefined;
          do {
            const r = await ec2.send(new DescribeInstancesCommand({ ...input, NextToken }));
            for (const res of r.Reservations ?? [])
              for (const i of res.Instances ?? []) {
                out.push({
                  InstanceId: i.InstanceId ?? "",
                  InstanceType: i.InstanceType ?? "",
                  LaunchTime: i.LaunchTime ?? new Date(0),
                  ...(i.ImageId && { ImageId: i.ImageId }),
                  Placement: { AvailabilityZone: i.Placement?.AvailabilityZone ?? "" },
                  State: { Name: (i.State?.Name ?? "running") as "running" },
                  ...(i.PrivateDnsName && { PrivateDnsName: i.PrivateDnsName }),
                  Tags: (i.Tags ?? []).map((t) => ({ Key: t.Key ?? "", Value: t.Value ?? "" })),
                });
              }
            NextToken = r.NextToken;
          } while (NextToken);
          return out;
        }),
      terminateInstances: (input) =>
        call(async () => void (await ec2.send(new TerminateInstancesCommand(input)))),
      createTags: (input) => call(async () => void (await ec2.send(new CreateTagsCommand(input)))),
      deleteTags: (input) => call(async () => void (await ec2.send(new DeleteTagsCommand(input)))),
    },
    cloudWatch: {
      describeAlarms: (input) => call(() => cloudWatch.describeAlarms(input)),
    },
  };
}
