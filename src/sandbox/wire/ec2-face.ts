// The EC2 face: EC2's flavour of the query protocol (namespace 2016-11-15, lowerCamelCase
// elements, lists as <item>, no Result wrapper, its own error document) over the Cloud port and
// the simulator's launch templates. EC2 says RequestLimitExceeded (HTTP 503) when it throttles.
import type { Ec2, Ec2Instance, LaunchTemplateVersion } from "../../ports/cloud.js";
import { AwsApiError } from "../../ports/errors.js";
import type { LaunchTemplateRec } from "../model/records.js";
import { ec2ErrorXml, toXml, type XmlValue } from "./query-protocol.js";
import {
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

export const EC2_NS = "http://ec2.amazonaws.com/doc/2016-11-15/";

const STATE_CODE: Record<string, number> = {
  pending: 0,
  running: 16,
  "shutting-down": 32,
  terminated: 48,
  stopping: 64,
  stopped: 80,
};

function versionXml(v: LaunchTemplateVersion): XmlValue {
  return {
    launchTemplateId: v.LaunchTemplateId,
    launchTemplateName: v.LaunchTemplateName,
    versionNumber: v.VersionNumber,
    createTime: v.CreateTime,
    createdBy: "arn:aws:iam::123456789012:role/sandbox",
    defaultVersion: v.DefaultVersion,
    launchTemplateData: {
      imageId: v.LaunchTemplateData.ImageId,
      instanceType: v.LaunchTemplateData.InstanceType,
    },
  };
}

function instanceXml(i: Ec2Instance): XmlValue {
  return {
    instanceId: i.InstanceId,
    imageId: i.ImageId,
    instanceState: { code: STATE_CODE[i.State.Name] ?? 0, name: i.State.Name },
    privateDnsName: i.PrivateDnsName,
    instanceType: i.InstanceType,
    launchTime: i.LaunchTime,
    placement: { availabilityZone: i.Placement.AvailabilityZone, tenancy: "default" },
    tagSet: i.Tags.map((t) => ({ key: t.Key, value: t.Value })),
  };
}

/**
 * What the EC2 face needs: the Cloud port's EC2, and the simulator's templates and instances (an
 * account's: every world's).
 */
export interface Ec2WireView {
  ec2: Ec2;
  sim: {
    templates: { values(): Iterable<LaunchTemplateRec> };
    instances: { keys(): Iterable<string> };
  };
  /** The region and its zones, for DescribeAvailabilityZones. */
  region?: string;
  zones?: string[];
}

export class Ec2Face extends QueryFace {
  readonly name = "ec2";
  protected readonly dialect: QueryDialect = {
    service: "ec2",
    idPrefix: "ec2",
    badTypeMessage: (type) => `Unsupported content type ${type}`,
    throttling: () => new AwsApiError("RequestLimitExceeded", "Request limit exceeded.", 503),
    errorXml: (e, id) => ec2ErrorXml({ status: e.status, code: e.code, message: e.message }, id),
    answerXml: (action, result, id) =>
      `<?xml version="1.0" encoding="UTF-8"?><${action}Response xmlns="${EC2_NS}"><requestId>${id}</requestId>${toXml(result, "item")}</${action}Response>`,
  };

  constructor(private readonly view: Ec2WireView) {
    super();
  }

  protected async run(action: string, p: Params): Promise<XmlValue | undefined> {
    const ec2 = this.view.ec2;
    switch (action) {
      case "DescribeLaunchTemplates":
        return this.#templates(p);
      case "DescribeAvailabilityZones":
        return {
          availabilityZoneInfo: (this.view.zones ?? []).map((z, i) => ({
            zoneName: z,
            zoneId: `${(this.view.region ?? "").replace(/-/g, "").slice(0, 4)}-az${i + 1}`,
            zoneState: "available",
            regionName: this.view.region,
            zoneType: "availability-zone",
          })),
        };
      case "DescribeInstanceStatus":
        return this.#status(p);
      case "DescribeLaunchTemplateVersions": {
        const versions = list(p, "LaunchTemplateVersion");
        const id = str(p, "LaunchTemplateId");
        const name = str(p, "LaunchTemplateName");
        if (!id && !name)
          throw new AwsApiError(
            "MissingParameter",
            "The request must contain the parameter LaunchTemplateId or LaunchTemplateName",
          );
        const all = await ec2.describeLaunchTemplateVersions({
          ...(id && { LaunchTemplateId: id }),
          ...(name && { LaunchTemplateName: name }),
          ...(versions && { Versions: versions }),
        });
        const { page, next } = pageOf(all, str(p, "NextToken"), num(p, "MaxResults") ?? 1000);
        return { launchTemplateVersionSet: page.map(versionXml), nextToken: next };
      }
      case "DescribeInstances": {
        const ids = list(p, "InstanceId");
        const Filters = objects(p, "Filter").map((f) => ({
          Name: need(f, "Name"),
          Values: list(f, "Value") ?? [],
        }));
        const found = await ec2.describeInstances(
          ids ? { InstanceIds: ids, Filters } : { Filters },
        );
        const { page, next } = pageOf(found, str(p, "NextToken"), num(p, "MaxResults") ?? 1000);
        const reservations = page.map((i, k) => ({
          reservationId: `r-${String(k).padStart(17, "0")}`,
          ownerId: "123456789012",
          instancesSet: [instanceXml(i)],
        }));
        return { reservationSet: reservations, nextToken: next };
      }
      case "CreateTags":
      case "DeleteTags": {
        const Resources = list(p, "ResourceId") ?? [need(p, "ResourceId")];
        const tags = objects(p, "Tag");
        if (action === "CreateTags")
          await ec2.createTags({
            Resources,
            Tags: tags.map((t) => ({ Key: need(t, "Key"), Value: str(t, "Value") ?? "" })),
          });
        else await ec2.deleteTags({ Resources, Tags: tags.map((t) => ({ Key: need(t, "Key") })) });
        return { return: true };
      }
      case "TerminateInstances": {
        const ids = list(p, "InstanceId") ?? [need(p, "InstanceId")];
        const before = await ec2.describeInstances({ InstanceIds: ids });
        await ec2.terminateInstances({ InstanceIds: ids });
        return {
          instancesSet: before.map((i) => ({
            instanceId: i.InstanceId,
            currentState: { code: 32, name: "shutting-down" },
            previousState: { code: STATE_CODE[i.State.Name] ?? 0, name: i.State.Name },
          })),
        };
      }
      default:
        return undefined;
    }
  }

  /** Running instances' status checks (all passing); every instance with IncludeAllInstances. */
  async #status(p: Params): Promise<XmlValue> {
    const ids = list(p, "InstanceId") ?? [...this.view.sim.instances.keys()];
    const all = str(p, "IncludeAllInstances") === "true";
    const found = (await this.view.ec2.describeInstances({ InstanceIds: ids })).filter(
      (i) => all || i.State.Name === "running",
    );
    const { page, next } = pageOf(found, str(p, "NextToken"), num(p, "MaxResults") ?? 1000);
    const check = (ok: boolean) => ({ status: ok ? "ok" : "not-applicable" });
    return {
      instanceStatusSet: page.map((i) => ({
        instanceId: i.InstanceId,
        availabilityZone: i.Placement.AvailabilityZone,
        instanceState: { code: STATE_CODE[i.State.Name] ?? 0, name: i.State.Name },
        systemStatus: check(i.State.Name === "running"),
        instanceStatus: check(i.State.Name === "running"),
      })),
      nextToken: next,
    };
  }

  /** The simulator's launch templates (the Cloud port has no call for them: noderoll never lists). */
  #templates(p: Params): XmlValue {
    const ids = list(p, "LaunchTemplateId");
    const names = list(p, "LaunchTemplateName");
    const all = [...this.view.sim.templates.values()].filter(
      (t) => (!ids || ids.includes(t.id)) && (!names || names.includes(t.name)),
    );
    if ((ids || names) && all.length === 0)
      throw new AwsApiError(
        "InvalidLaunchTemplateName.NotFoundException",
        "At least one of the launch templates specified in the request does not exist.",
      );
    return {
      launchTemplates: all.map((t) => ({
        launchTemplateId: t.id,
        launchTemplateName: t.name,
        createTime: new Date(Math.min(...t.versions.map((v) => v.createdAt))),
        createdBy: "arn:aws:iam::123456789012:role/sandbox",
        defaultVersionNumber: t.defaultVersion,
        latestVersionNumber: Math.max(...t.versions.map((v) => v.number)),
      })),
    };
  }
}
