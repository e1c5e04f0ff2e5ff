// The Auto Scaling face: the query protocol (form POST in, XML out, namespace 2011-01-01) over
// the Cloud port's Auto Scaling. Throttling is the `Throttling` code with HTTP 400, as Auto Scaling
// answers it; the SDK's retry strategy knows that code.
import type { AutoScalingGroup, ScalingActivity } from "../../ports/cloud.js";
import { AwsApiError } from "../../ports/errors.js";
import { queryErrorXml, toXml, type XmlValue } from "./query-protocol.js";
import {
  bool,
  list,
  need,
  num,
  objects,
  pageOf,
  str,
  type Params,
  QueryFace,
  type QueryDialect,
} from "./query-face.js";
import type { SandboxAutoScalingApi } from "../ports/api.js";

export const AUTOSCALING_NS = "http://autoscaling.amazonaws.com/doc/2011-01-01/";

function groupXml(g: AutoScalingGroup): XmlValue {
  return {
    AutoScalingGroupName: g.AutoScalingGroupName,
    AutoScalingGroupARN: `arn:aws:autoscaling:eu-west-1:123456789012:autoScalingGroup:sandbox:autoScalingGroupName/${g.AutoScalingGroupName}`,
    LaunchTemplate: g.LaunchTemplate as XmlValue,
    MixedInstancesPolicy: g.MixedInstancesPolicy as XmlValue,
    MinSize: g.MinSize,
    MaxSize: g.MaxSize,
    DesiredCapacity: g.DesiredCapacity,
    DefaultCooldown: 300,
    AvailabilityZones: g.AvailabilityZones,
    HealthCheckType: "EC2",
    HealthCheckGracePeriod: 300,
    Instances: g.Instances as unknown as XmlValue,
    CreatedTime: g.CreatedTime,
    SuspendedProcesses: g.SuspendedProcesses as XmlValue,
    Tags: g.Tags as unknown as XmlValue,
    WarmPoolConfiguration: g.WarmPoolConfiguration as XmlValue,
    WarmPoolSize: g.WarmPoolSize,
  };
}

const activityXml = (a: ScalingActivity): XmlValue =>
  ({ ...a, Progress: a.EndTime ? 100 : 0 }) as unknown as XmlValue;

export class AutoScalingFace extends QueryFace {
  readonly name = "autoscaling";
  protected readonly dialect: QueryDialect = {
    service: "autoscaling",
    idPrefix: "as",
    badTypeMessage: (type) =>
      `Unsupported content type ${type}; the query protocol takes application/x-www-form-urlencoded`,
    // The port says ThrottlingException; Auto Scaling's own code is Throttling, with HTTP 400.
    throttling: (message) => new AwsApiError("Throttling", message ?? "Rate exceeded"),
    errorXml: (e, id) =>
      queryErrorXml({ status: e.status, code: e.code, message: e.message }, id, AUTOSCALING_NS),
    answerXml: (action, result, id) => {
      const inner =
        result === null ? "" : `<${action}Result>${toXml(result, "member")}</${action}Result>`;
      return `<${action}Response xmlns="${AUTOSCALING_NS}">${inner}<ResponseMetadata><RequestId>${id}</RequestId></ResponseMetadata></${action}Response>`;
    },
  };

  constructor(private readonly autoScaling: SandboxAutoScalingApi) {
    super();
  }

  /** The action's result element content; null for actions without one; undefined = unknown. */
  protected async run(action: string, p: Params): Promise<XmlValue | null | undefined> {
    const act = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    return act ? act(this.autoScaling, p) : undefined;
  }
}

type Action = (as: SandboxAutoScalingApi, p: Params) => Promise<XmlValue | null>;

const group = (p: Params) => need(p, "AutoScalingGroupName");

/** Each action: its parameters read from the form, the port called, the result element. */
const ACTIONS: Record<string, Action> = {
  async DescribeAutoScalingGroups(as, p) {
    const names = list(p, "AutoScalingGroupNames");
    const filters = objects(p, "Filters").map((f) => ({
      Name: str(f, "Name") ?? "",
      Values: list(f, "Values") ?? [],
    }));
    const groups = await as.describeAutoScalingGroups({
      ...(names && { AutoScalingGroupNames: names }),
      ...(filters.length && { Filters: filters }),
    });
    const { page, next } = pageOf(groups, str(p, "NextToken"), num(p, "MaxRecords") ?? 50);
    return { AutoScalingGroups: page.map(groupXml), NextToken: next };
  },
  async DescribeWarmPool(as, p) {
    const name = group(p);
    const [g] = await as.describeAutoScalingGroups({ AutoScalingGroupNames: [name] });
    const instances = await as.describeWarmPool({ AutoScalingGroupName: name });
    const { page, next } = pageOf(instances, str(p, "NextToken"), num(p, "MaxRecords") ?? 50);
    return {
      WarmPoolConfiguration: g?.WarmPoolConfiguration as XmlValue,
      Instances: page as unknown as XmlValue,
      NextToken: next,
    };
  },
  async SetDesiredCapacity(as, p) {
    await as.setDesiredCapacity({
      AutoScalingGroupName: group(p),
      DesiredCapacity: num(p, "DesiredCapacity") ?? Number(need(p, "DesiredCapacity")),
      ...(bool(p, "HonorCooldown") !== undefined && { HonorCooldown: bool(p, "HonorCooldown") }),
    });
    return null;
  },
  async UpdateAutoScalingGroup(as, p) {
    const lt = p.LaunchTemplate as Params | undefined;
    await as.updateAutoScalingGroup({
      AutoScalingGroupName: group(p),
      ...(num(p, "MinSize") !== undefined && { MinSize: num(p, "MinSize") }),
      ...(num(p, "MaxSize") !== undefined && { MaxSize: num(p, "MaxSize") }),
      ...(num(p, "DesiredCapacity") !== undefined && {
        DesiredCapacity: num(p, "DesiredCapacity"),
      }),
      ...(lt &&
        typeof lt === "object" && { LaunchTemplate: { ...(lt as Record<string, string>) } }),
    });
    return null;
  },
  async DetachInstances(as, p) {
    const acts = await as.detachInstances({
      AutoScalingGroupName: group(p),
      InstanceIds: list(p, "InstanceIds") ?? [],
      ShouldDecrementDesiredCapacity: bool(p, "ShouldDecrementDesiredCapacity") ?? false,
    });
    return { Activities: acts.map(activityXml) };
  },
  async TerminateInstanceInAutoScalingGroup(as, p) {
    const a = await as.terminateInstanceInAutoScalingGroup({
      InstanceId: need(p, "InstanceId"),
      ShouldDecrementDesiredCapacity: bool(p, "ShouldDecrementDesiredCapacity") ?? false,
    });
    return { Activity: activityXml(a) };
  },
  async CreateOrUpdateTags(as, p) {
    const tags = objects(p, "Tags").map((t) => ({
      Key: str(t, "Key") ?? "",
      Value: str(t, "Value") ?? "",
      ResourceId: str(t, "ResourceId") ?? "",
      ResourceType: "auto-scaling-group" as const,
      ...(str(t, "PropagateAtLaunch") !== undefined && {
        PropagateAtLaunch: str(t, "PropagateAtLaunch") === "true",
      }),
    }));
    await as.createOrUpdateTags({ Tags: tags });
    return null;
  },
  async DeleteTags(as, p) {
    const tags = objects(p, "Tags").map((t) => ({
      Key: str(t, "Key") ?? "",
      ResourceId: str(t, "ResourceId") ?? "",
      ResourceType: "auto-scaling-group" as const,
    }));
    await as.deleteTags({ Tags: tags });
    return null;
  },
  async SuspendProcesses(as, p) {
    await as.suspendProcesses(processesInput(p));
    return null;
  },
  async ResumeProcesses(as, p) {
    await as.resumeProcesses(processesInput(p));
    return null;
  },
  async DescribeScalingActivities(as, p) {
    // Without a group name: the activities of every group (the API's default).
    const names =
      str(p, "AutoScalingGroupName") !== undefined
        ? [group(p)]
        : (await as.describeAutoScalingGroups({})).map((g) => g.AutoScalingGroupName);
    const acts: ScalingActivity[] = [];
    for (const name of names)
      acts.push(
        ...(await as.describeScalingActivities({
          AutoScalingGroupName: name,
          ...(num(p, "MaxRecords") !== undefined && { MaxRecords: num(p, "MaxRecords") }),
        })),
      );
    return { Activities: acts.map(activityXml) };
  },
  /** What `aws autoscaling describe-auto-scaling-instances` shows: each instance with its group. */
  async DescribeAutoScalingInstances(as, p) {
    const ids = list(p, "InstanceIds");
    const rows = (await as.describeAutoScalingGroups({})).flatMap((g) =>
      g.Instances.filter((i) => !ids || ids.includes(i.InstanceId)).map((i) => ({
        InstanceId: i.InstanceId,
        InstanceType: i.InstanceType,
        AutoScalingGroupName: g.AutoScalingGroupName,
        AvailabilityZone: i.AvailabilityZone,
        LifecycleState: i.LifecycleState,
        // This API spells health in capitals, unlike DescribeAutoScalingGroups.
        HealthStatus: i.HealthStatus.toUpperCase(),
        LaunchTemplate: i.LaunchTemplate as XmlValue,
        ProtectedFromScaleIn: i.ProtectedFromScaleIn ?? false,
      })),
    );
    const { page, next } = pageOf(rows, str(p, "NextToken"), num(p, "MaxRecords") ?? 50);
    return { AutoScalingInstances: page as unknown as XmlValue, NextToken: next };
  },
  /** Tags of every group, filtered by auto-scaling-group, key or value. */
  async DescribeTags(as, p) {
    const filters = objects(p, "Filters").map((f) => ({
      name: str(f, "Name") ?? "",
      values: list(f, "Values") ?? [],
    }));
    const field = { "auto-scaling-group": "ResourceId", key: "Key", value: "Value" } as const;
    const tags = (await as.describeAutoScalingGroups({}))
      .flatMap((g) =>
        g.Tags.map((t) => ({
          ResourceId: g.AutoScalingGroupName,
          ResourceType: "auto-scaling-group",
          Key: t.Key,
          Value: t.Value,
          PropagateAtLaunch: t.PropagateAtLaunch ?? false,
        })),
      )
      .filter((t) =>
        filters.every((f) => {
          const k = field[f.name as keyof typeof field];
          if (!k)
            throw new AwsApiError("ValidationError", `Filter type ${f.name} is not supported`);
          return f.values.includes(t[k]);
        }),
      );
    const { page, next } = pageOf(tags, str(p, "NextToken"), num(p, "MaxRecords") ?? 50);
    return { Tags: page as unknown as XmlValue, NextToken: next };
  },
};

function processesInput(p: Params) {
  const processes = list(p, "ScalingProcesses");
  return { AutoScalingGroupName: group(p), ...(processes && { ScalingProcesses: processes }) };
}
