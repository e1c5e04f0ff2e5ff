// The Auto Scaling face: the query protocol (form POST in, XML out, namespace 2011-01-01) over
// the sandbox's Cloud port. Throttling is the `Throttling` code with HTTP 400, as Auto Scaling
// answers it; the SDK's retry strategy knows that code.
import type { AutoScalingGroup, ScalingActivity } from "../../ports/cloud.js";
import { AwsApiError } from "../../ports/errors.js";
import type { World } from "../world/world.js";
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

  constructor(private readonly world: World) {
    super();
  }

  /** The action's result element content; null for actions without one; undefined = unknown. */
  protected async run(action: string, p: Params): Promise<XmlValue | null | undefined> {
    const as = this.world.cloud.autoScaling;
    const group = () => need(p, "AutoScalingGroupName");
    switch (action) {
      case "DescribeAutoScalingGroups": {
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
      }
      case "SetDesiredCapacity":
        await as.setDesiredCapacity({
          AutoScalingGroupName: group(),
          DesiredCapacity: num(p, "DesiredCapacity") ?? Number(need(p, "DesiredCapacity")),
          ...(bool(p, "HonorCooldown") !== undefined && {
            HonorCooldown: bool(p, "HonorCooldown"),
          }),
        });
        return null;
      case "UpdateAutoScalingGroup": {
        const lt = p.LaunchTemplate as Params | undefined;
        await as.updateAutoScalingGroup({
          AutoScalingGroupName: group(),
          ...(num(p, "MinSize") !== undefined && { MinSize: num(p, "MinSize") }),
          ...(num(p, "MaxSize") !== undefined && { MaxSize: num(p, "MaxSize") }),
          ...(num(p, "DesiredCapacity") !== undefined && {
            DesiredCapacity: num(p, "DesiredCapacity"),
          }),
          ...(lt &&
            typeof lt === "object" && { LaunchTemplate: { ...(lt as Record<string, string>) } }),
        });
        return null;
      }
      case "DetachInstances": {
        const acts = await as.detachInstances({
          AutoScalingGroupName: group(),
          InstanceIds: list(p, "InstanceIds") ?? [],
          ShouldDecrementDesiredCapacity: bool(p, "ShouldDecrementDesiredCapacity") ?? false,
        });
        return { Activities: acts.map(activityXml) };
      }
      case "TerminateInstanceInAutoScalingGroup": {
        const a = await as.terminateInstanceInAutoScalingGroup({
          InstanceId: need(p, "InstanceId"),
          ShouldDecrementDesiredCapacity: bool(p, "ShouldDecrementDesiredCapacity") ?? false,
        });
        return { Activity: activityXml(a) };
      }
      case "CreateOrUpdateTags": {
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
      }
      case "SuspendProcesses":
      case "ResumeProcesses": {
        const processes = list(p, "ScalingProcesses");
        const input = {
          AutoScalingGroupName: group(),
          ...(processes && { ScalingProcesses: processes }),
        };
        await (action === "SuspendProcesses"
          ? as.suspendProcesses(input)
          : as.resumeProcesses(input));
        return null;
      }
      case "DescribeScalingActivities": {
        const acts = await as.describeScalingActivities({
          AutoScalingGroupName: group(),
          ...(num(p, "MaxRecords") !== undefined && { MaxRecords: num(p, "MaxRecords") }),
        });
        return { Activities: acts.map(activityXml) };
      }
      default:
        return undefined;
    }
  }
}
