#!/usr/bin/env node
import { createRequire as __noderollCreateRequire } from 'node:module';
const require = __noderollCreateRequire(import.meta.url);
import {
  CLUSTER_ID_HEADER,
  GET_CALLER_IDENTITY,
  cbor,
  dateToTag,
  decodeEksToken,
  init_cbor,
  presignStsGet
} from "./chunk-TQRZYSJU.js";
import "./chunk-BAQUMNEN.js";
import {
  Account,
  PromQueryError,
  WatchHub,
  parseFieldSelector,
  parseLabelSelector,
  watchStream
} from "./chunk-7673KOSF.js";
import {
  AwsApiError,
  KubeApiError,
  NetworkError
} from "./chunk-LBZ2K6WI.js";
import "./chunk-AGAY6SFC.js";

// src/sandbox/wire/serve.ts
import { createHash as createHash2 } from "node:crypto";
import { writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

// src/sandbox/wire/query-protocol.ts
function parseQueryParams(params) {
  const root = {};
  for (const [key, value] of params) {
    const parts = key.split(".").filter((p) => p !== "member" && p !== "item");
    let node = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const index = /^\d+$/.test(part) ? Number(part) - 1 : void 0;
      const slot = index ?? part;
      const container = node;
      if (last) {
        container[slot] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(parts[i + 1]);
      container[slot] ??= nextIsIndex ? [] : {};
      node = container[slot];
    });
  }
  return compactLists(root);
}
function compactLists(v2) {
  if (Array.isArray(v2)) return v2.filter((x2) => x2 !== void 0).map(compactLists);
  if (typeof v2 === "object")
    return Object.fromEntries(Object.entries(v2).map(([k, x2]) => [k, compactLists(x2)]));
  return v2;
}
function escapeXml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
function toXml(value, listItem) {
  if (value === null || value === void 0) return "";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return value.map((v2) => `<${listItem}>${toXml(v2, listItem)}</${listItem}>`).join("");
  if (typeof value === "object") {
    return Object.entries(value).filter(([, v2]) => v2 !== void 0).map(([k, v2]) => `<${k}>${toXml(v2, listItem)}</${k}>`).join("");
  }
  return escapeXml(String(value));
}
function queryErrorXml(e, requestId, namespace) {
  return `<ErrorResponse xmlns="${namespace}"><Error><Type>${e.type ?? "Sender"}</Type><Code>${escapeXml(e.code)}</Code><Message>${escapeXml(e.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
}
function ec2ErrorXml(e, requestId) {
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>${escapeXml(e.code)}</Code><Message>${escapeXml(e.message)}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`;
}
function signingService(headers, query) {
  const auth = String(headers.authorization ?? "");
  const scope = /Credential=[^/]+\/\d{8}\/[^/]+\/([^/]+)\/aws4_request/.exec(auth)?.[1];
  return scope ?? query?.get("X-Amz-Credential")?.split("/")[3];
}

// src/sandbox/wire/http-server.ts
import { createServer } from "node:http";
var MAX_BODY = 8 * 1024 * 1024;
var RequestLog = class {
  entries = [];
  add(entry) {
    this.entries.push(entry);
  }
  /** Counts per "METHOD resource", for reports. */
  counts(face) {
    const out = {};
    for (const e of this.entries) {
      if (face && e.face !== face) continue;
      const key = `${e.method} ${e.resource}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }
  mutating(face) {
    return this.entries.filter((e) => (!face || e.face === face) && isMutating(e));
  }
};
function isMutating(e) {
  if (e.method === "GET" || e.method === "HEAD") return false;
  return !/^(Describe|List|Get)/.test(e.resource) && !/^(SelfSubjectAccessReview|TokenReview)$/.test(e.resource);
}
async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error("request body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
var RESOURCE_HEADER = "x-sandbox-resource";
async function answer(faces, request) {
  for (const face of faces) {
    try {
      const response = await face.handle(request);
      if (response) return { face: face.name, response };
    } catch (e) {
      if (e instanceof NetworkError)
        return {
          face: face.name,
          response: { status: 0, drop: e.code === "ETIMEDOUT" ? "stall" : "reset" }
        };
      return {
        face: face.name,
        response: {
          status: 500,
          headers: { "content-type": "text/plain" },
          body: `sandbox error: ${e.message}`
        }
      };
    }
  }
  return {
    face: "none",
    response: {
      status: 404,
      headers: { "content-type": "text/plain" },
      body: "404 page not found\n"
    }
  };
}
async function startWireServer(faces, options = {}) {
  const log = new RequestLog();
  const server = createServer(async (req, res2) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const raw = await readBody(req).catch(() => void 0);
    if (raw === void 0) {
      res2.writeHead(413).end();
      return;
    }
    const request = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: raw.toString("utf8"),
      raw
    };
    const { face, response } = await answer(faces, request);
    const resource = response.headers?.[RESOURCE_HEADER] ?? url.pathname;
    log.add({
      face,
      method: request.method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ""),
      status: response.status,
      resource
    });
    if (response.drop === "reset") return void req.socket.destroy();
    if (response.drop === "stall") return;
    const headers = { ...response.headers };
    delete headers[RESOURCE_HEADER];
    if (response.stream) {
      res2.writeHead(response.status, headers);
      response.stream(res2);
      return;
    }
    res2.writeHead(response.status, headers).end(response.bytes ?? response.body ?? "");
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    server,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    })
  };
}
function json(status, value, resource, extra = {}) {
  return {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      [RESOURCE_HEADER]: resource,
      ...extra
    },
    body: JSON.stringify(value)
  };
}

// src/sandbox/wire/query-face.ts
function queryCall(req, service) {
  if (req.path !== "/" || req.method !== "POST") return void 0;
  if (signingService(req.headers, req.query) !== service) return void 0;
  const type = String(req.headers["content-type"] ?? "");
  if (!/application\/x-www-form-urlencoded/.test(type)) return { badType: type || "(none)" };
  const params = parseQueryParams(new URLSearchParams(req.body));
  return { action: typeof params.Action === "string" ? params.Action : "", params };
}
function xmlResponse(status, body, resource) {
  return { status, headers: { "content-type": "text/xml", [RESOURCE_HEADER]: resource }, body };
}
function str(p, key) {
  const v2 = p[key];
  return typeof v2 === "string" ? v2 : void 0;
}
function need(p, key) {
  const v2 = str(p, key);
  if (v2 === void 0)
    throw new AwsApiError(
      "ValidationError",
      `1 validation error detected: Value null at '${key}' failed to satisfy constraint: Member must not be null`
    );
  return v2;
}
function num(p, key) {
  const v2 = str(p, key);
  if (v2 === void 0) return void 0;
  const n = Number(v2);
  if (!Number.isFinite(n))
    throw new AwsApiError("ValidationError", `Value ${v2} for ${key} is not a number`);
  return n;
}
function bool(p, key) {
  const v2 = str(p, key);
  return v2 === void 0 ? void 0 : v2 === "true";
}
function list(p, key) {
  const v2 = p[key];
  if (v2 === void 0) return void 0;
  return (Array.isArray(v2) ? v2 : [v2]).filter((x2) => typeof x2 === "string");
}
function objects(p, key) {
  const v2 = p[key];
  return Array.isArray(v2) ? v2.filter((x2) => x2 && typeof x2 === "object" && !Array.isArray(x2)) : [];
}
function pageOf(items, token, max) {
  const offset = token ? Number(Buffer.from(token, "base64url").toString()) || 0 : 0;
  const page2 = items.slice(offset, offset + max);
  return offset + max < items.length ? { page: page2, next: Buffer.from(String(offset + max)).toString("base64url") } : { page: page2 };
}
var QueryFace = class {
  /** Answer the next N requests with the service's throttling error (tests of the SDK's retries). */
  throttleNext = 0;
  #requestNo = 0;
  async handle(req) {
    const d = this.dialect;
    const call = queryCall(req, d.service);
    if (!call) return void 0;
    const id = `${d.idPrefix}-${++this.#requestNo}`;
    const fail = (e, resource) => xmlResponse(e.status, d.errorXml(e, id), resource);
    if ("badType" in call)
      return fail(
        new AwsApiError("InvalidParameterValue", d.badTypeMessage(call.badType)),
        "BadRequest"
      );
    const { action, params } = call;
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return fail(d.throttling(), action);
    }
    try {
      const result = await this.run(action, params);
      if (result === void 0) {
        return fail(
          new AwsApiError(
            "InvalidAction",
            `The action ${action || "(none)"} is not valid for this web service.`
          ),
          action || "InvalidAction"
        );
      }
      return xmlResponse(200, d.answerXml(action, result, id), action);
    } catch (e) {
      if (e instanceof NetworkError) throw e;
      if (!(e instanceof AwsApiError))
        return fail(new AwsApiError("InternalFailure", e.message, 500), action);
      return fail(e.code === "ThrottlingException" ? d.throttling(e.message) : e, action);
    }
  }
};

// src/sandbox/wire/auto-scaling-face.ts
var AUTOSCALING_NS = "http://autoscaling.amazonaws.com/doc/2011-01-01/";
function groupXml(g2) {
  return {
    AutoScalingGroupName: g2.AutoScalingGroupName,
    AutoScalingGroupARN: `arn:aws:autoscaling:eu-west-1:123456789012:autoScalingGroup:sandbox:autoScalingGroupName/${g2.AutoScalingGroupName}`,
    LaunchTemplate: g2.LaunchTemplate,
    MixedInstancesPolicy: g2.MixedInstancesPolicy,
    MinSize: g2.MinSize,
    MaxSize: g2.MaxSize,
    DesiredCapacity: g2.DesiredCapacity,
    DefaultCooldown: 300,
    AvailabilityZones: g2.AvailabilityZones,
    HealthCheckType: "EC2",
    HealthCheckGracePeriod: 300,
    Instances: g2.Instances,
    CreatedTime: g2.CreatedTime,
    SuspendedProcesses: g2.SuspendedProcesses,
    Tags: g2.Tags,
    WarmPoolConfiguration: g2.WarmPoolConfiguration,
    WarmPoolSize: g2.WarmPoolSize
  };
}
var activityXml = (a) => ({ ...a, Progress: a.EndTime ? 100 : 0 });
var AutoScalingFace = class extends QueryFace {
  constructor(autoScaling) {
    super();
    this.autoScaling = autoScaling;
  }
  autoScaling;
  name = "autoscaling";
  dialect = {
    service: "autoscaling",
    idPrefix: "as",
    badTypeMessage: (type) => `Unsupported content type ${type}; the query protocol takes application/x-www-form-urlencoded`,
    // The port says ThrottlingException; Auto Scaling's own code is Throttling, with HTTP 400.
    throttling: (message) => new AwsApiError("Throttling", message ?? "Rate exceeded"),
    errorXml: (e, id) => queryErrorXml({ status: e.status, code: e.code, message: e.message }, id, AUTOSCALING_NS),
    answerXml: (action, result, id) => {
      const inner = result === null ? "" : `<${action}Result>${toXml(result, "member")}</${action}Result>`;
      return `<${action}Response xmlns="${AUTOSCALING_NS}">${inner}<ResponseMetadata><RequestId>${id}</RequestId></ResponseMetadata></${action}Response>`;
    }
  };
  /** The action's result element content; null for actions without one; undefined = unknown. */
  async run(action, p) {
    const act = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : void 0;
    return act ? act(this.autoScaling, p) : void 0;
  }
};
var group = (p) => need(p, "AutoScalingGroupName");
var ACTIONS = {
  async DescribeAutoScalingGroups(as, p) {
    const names = list(p, "AutoScalingGroupNames");
    const filters = objects(p, "Filters").map((f) => ({
      Name: str(f, "Name") ?? "",
      Values: list(f, "Values") ?? []
    }));
    const groups = await as.describeAutoScalingGroups({
      ...names && { AutoScalingGroupNames: names },
      ...filters.length && { Filters: filters }
    });
    const { page: page2, next } = pageOf(groups, str(p, "NextToken"), num(p, "MaxRecords") ?? 50);
    return { AutoScalingGroups: page2.map(groupXml), NextToken: next };
  },
  async DescribeWarmPool(as, p) {
    const name = group(p);
    const [g2] = await as.describeAutoScalingGroups({ AutoScalingGroupNames: [name] });
    const instances = await as.describeWarmPool({ AutoScalingGroupName: name });
    const { page: page2, next } = pageOf(instances, str(p, "NextToken"), num(p, "MaxRecords") ?? 50);
    return {
      WarmPoolConfiguration: g2?.WarmPoolConfiguration,
      Instances: page2,
      NextToken: next
    };
  },
  async SetDesiredCapacity(as, p) {
    await as.setDesiredCapacity({
      AutoScalingGroupName: group(p),
      DesiredCapacity: num(p, "DesiredCapacity") ?? Number(need(p, "DesiredCapacity")),
      ...bool(p, "HonorCooldown") !== void 0 && { HonorCooldown: bool(p, "HonorCooldown") }
    });
    return null;
  },
  async UpdateAutoScalingGroup(as, p) {
    const lt2 = p.LaunchTemplate;
    await as.updateAutoScalingGroup({
      AutoScalingGroupName: group(p),
      ...num(p, "MinSize") !== void 0 && { MinSize: num(p, "MinSize") },
      ...num(p, "MaxSize") !== void 0 && { MaxSize: num(p, "MaxSize") },
      ...num(p, "DesiredCapacity") !== void 0 && {
        DesiredCapacity: num(p, "DesiredCapacity")
      },
      ...lt2 && typeof lt2 === "object" && { LaunchTemplate: { ...lt2 } }
    });
    return null;
  },
  async DetachInstances(as, p) {
    const acts = await as.detachInstances({
      AutoScalingGroupName: group(p),
      InstanceIds: list(p, "InstanceIds") ?? [],
      ShouldDecrementDesiredCapacity: bool(p, "ShouldDecrementDesiredCapacity") ?? false
    });
    return { Activities: acts.map(activityXml) };
  },
  async TerminateInstanceInAutoScalingGroup(as, p) {
    const a = await as.terminateInstanceInAutoScalingGroup({
      InstanceId: need(p, "InstanceId"),
      ShouldDecrementDesiredCapacity: bool(p, "ShouldDecrementDesiredCapacity") ?? false
    });
    return { Activity: activityXml(a) };
  },
  async CreateOrUpdateTags(as, p) {
    const tags = objects(p, "Tags").map((t) => ({
      Key: str(t, "Key") ?? "",
      Value: str(t, "Value") ?? "",
      ResourceId: str(t, "ResourceId") ?? "",
      ResourceType: "auto-scaling-group",
      ...str(t, "PropagateAtLaunch") !== void 0 && {
        PropagateAtLaunch: str(t, "PropagateAtLaunch") === "true"
      }
    }));
    await as.createOrUpdateTags({ Tags: tags });
    return null;
  },
  async DeleteTags(as, p) {
    const tags = objects(p, "Tags").map((t) => ({
      Key: str(t, "Key") ?? "",
      ResourceId: str(t, "ResourceId") ?? "",
      ResourceType: "auto-scaling-group"
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
    const names = str(p, "AutoScalingGroupName") !== void 0 ? [group(p)] : (await as.describeAutoScalingGroups({})).map((g2) => g2.AutoScalingGroupName);
    const acts = [];
    for (const name of names)
      acts.push(
        ...await as.describeScalingActivities({
          AutoScalingGroupName: name,
          ...num(p, "MaxRecords") !== void 0 && { MaxRecords: num(p, "MaxRecords") }
        })
      );
    return { Activities: acts.map(activityXml) };
  },
  /** What `aws autoscaling describe-auto-scaling-instances` shows: each instance with its group. */
  async DescribeAutoScalingInstances(as, p) {
    const ids = list(p, "InstanceIds");
    const rows = (await as.describeAutoScalingGroups({})).flatMap(
      (g2) => g2.Instances.filter((i) => !ids || ids.includes(i.InstanceId)).map((i) => ({
        InstanceId: i.InstanceId,
        InstanceType: i.InstanceType,
        AutoScalingGroupName: g2.AutoScalingGroupName,
        AvailabilityZone: i.AvailabilityZone,
        LifecycleState: i.LifecycleState,
        // This API spells health in capitals, unlike DescribeAutoScalingGroups.
        HealthStatus: i.HealthStatus.toUpperCase(),
        LaunchTemplate: i.LaunchTemplate,
        ProtectedFromScaleIn: i.ProtectedFromScaleIn ?? false
      }))
    );
    const { page: page2, next } = pageOf(rows, str(p, "NextToken"), num(p, "MaxRecords") ?? 50);
    return { AutoScalingInstances: page2, NextToken: next };
  },
  /** Tags of every group, filtered by auto-scaling-group, key or value. */
  async DescribeTags(as, p) {
    const filters = objects(p, "Filters").map((f) => ({
      name: str(f, "Name") ?? "",
      values: list(f, "Values") ?? []
    }));
    const field = { "auto-scaling-group": "ResourceId", key: "Key", value: "Value" };
    const tags = (await as.describeAutoScalingGroups({})).flatMap(
      (g2) => g2.Tags.map((t) => ({
        ResourceId: g2.AutoScalingGroupName,
        ResourceType: "auto-scaling-group",
        Key: t.Key,
        Value: t.Value,
        PropagateAtLaunch: t.PropagateAtLaunch ?? false
      }))
    ).filter(
      (t) => filters.every((f) => {
        const k = field[f.name];
        if (!k)
          throw new AwsApiError("ValidationError", `Filter type ${f.name} is not supported`);
        return f.values.includes(t[k]);
      })
    );
    const { page: page2, next } = pageOf(tags, str(p, "NextToken"), num(p, "MaxRecords") ?? 50);
    return { Tags: page2, NextToken: next };
  }
};
function processesInput(p) {
  const processes = list(p, "ScalingProcesses");
  return { AutoScalingGroupName: group(p), ...processes && { ScalingProcesses: processes } };
}

// src/sandbox/wire/cloudwatch-face.ts
init_cbor();
import { gunzipSync } from "node:zlib";

// src/sandbox/wire/cloudwatch-actions.ts
var DEFAULT_RECORDS = 50;
function str2(input, key) {
  const v2 = input[key];
  return typeof v2 === "string" ? v2 : void 0;
}
function num2(input, key) {
  const v2 = input[key];
  if (v2 === void 0 || v2 === null) return void 0;
  const n = typeof v2 === "number" ? v2 : typeof v2 === "string" ? Number(v2) : NaN;
  if (!Number.isFinite(n))
    throw new AwsApiError(
      "InvalidParameterValue",
      `The value ${String(v2)} for parameter ${key} is not a number.`
    );
  return n;
}
function bool2(input, key) {
  const v2 = input[key];
  return v2 === void 0 ? void 0 : v2 === true || v2 === "true";
}
function strings(input, key) {
  const v2 = input[key];
  if (v2 === void 0) return void 0;
  return (Array.isArray(v2) ? v2 : [v2]).filter((x2) => typeof x2 === "string");
}
function need2(input, key) {
  const v2 = str2(input, key);
  if (v2 === void 0)
    throw new AwsApiError("MissingParameter", `The parameter ${key} is required.`);
  return v2;
}
function putInput(input) {
  const out = {
    AlarmName: str2(input, "AlarmName"),
    EvaluationPeriods: num2(input, "EvaluationPeriods"),
    ComparisonOperator: str2(input, "ComparisonOperator"),
    AlarmDescription: str2(input, "AlarmDescription"),
    ActionsEnabled: bool2(input, "ActionsEnabled"),
    AlarmActions: strings(input, "AlarmActions"),
    OKActions: strings(input, "OKActions"),
    InsufficientDataActions: strings(input, "InsufficientDataActions"),
    MetricName: str2(input, "MetricName"),
    Namespace: str2(input, "Namespace"),
    Statistic: str2(input, "Statistic"),
    Period: num2(input, "Period"),
    Unit: str2(input, "Unit"),
    DatapointsToAlarm: num2(input, "DatapointsToAlarm"),
    Threshold: num2(input, "Threshold"),
    TreatMissingData: str2(input, "TreatMissingData")
  };
  const dimensions = input.Dimensions;
  if (Array.isArray(dimensions))
    out.Dimensions = dimensions.map((d) => ({
      Name: str2(d, "Name") ?? "",
      Value: str2(d, "Value") ?? ""
    }));
  for (const k of Object.keys(out)) if (out[k] === void 0) delete out[k];
  return out;
}
var CLOUDWATCH_ACTIONS = {
  async DescribeAlarms(cw, input, maxPage) {
    const AlarmNames = strings(input, "AlarmNames");
    const AlarmNamePrefix = str2(input, "AlarmNamePrefix");
    const StateValue = str2(input, "StateValue");
    const AlarmTypes = strings(input, "AlarmTypes");
    const max = num2(input, "MaxRecords") ?? DEFAULT_RECORDS;
    if (!Number.isInteger(max) || max < 1 || max > 100)
      throw new AwsApiError(
        "InvalidParameterValue",
        `The value ${max} for parameter MaxRecords is not valid: it must be from 1 to 100.`
      );
    const alarms = await cw.describeAlarms({
      ...AlarmNames && { AlarmNames },
      ...AlarmNamePrefix !== void 0 && { AlarmNamePrefix },
      ...StateValue && { StateValue },
      ...AlarmTypes && { AlarmTypes }
    });
    const { page: page2, next } = pageOf(alarms, str2(input, "NextToken"), Math.min(max, maxPage));
    return {
      MetricAlarms: page2,
      ...AlarmTypes?.includes("CompositeAlarm") && { CompositeAlarms: [] },
      ...next && { NextToken: next }
    };
  },
  async PutMetricAlarm(cw, input) {
    await cw.putMetricAlarm(putInput(input));
    return {};
  },
  async SetAlarmState(cw, input) {
    const StateReasonData = str2(input, "StateReasonData");
    await cw.setAlarmState({
      AlarmName: need2(input, "AlarmName"),
      StateValue: need2(input, "StateValue"),
      StateReason: need2(input, "StateReason"),
      ...StateReasonData !== void 0 && { StateReasonData }
    });
    return {};
  }
};

// src/sandbox/wire/cloudwatch-face.ts
var CLOUDWATCH_NS = "http://monitoring.amazonaws.com/doc/2010-08-01/";
var SERVICE = "GraniteServiceVersion20100801";
var CBOR_PATH = new RegExp(`^/service/${SERVICE}/operation/([A-Za-z]+)$`);
var SHAPES = {
  InvalidParameterValue: "InvalidParameterValueException",
  MissingParameter: "MissingRequiredParameterException",
  InvalidParameterCombination: "InvalidParameterCombinationException",
  InvalidFormat: "InvalidFormatFault",
  LimitExceeded: "LimitExceededFault",
  InternalServiceError: "InternalServiceFault"
};
function recognise(req) {
  if (req.method !== "POST") return void 0;
  const target = String(req.headers["x-amz-target"] ?? "");
  const cborOp = CBOR_PATH.exec(req.path)?.[1];
  if (req.path === "/" && target.startsWith(`${SERVICE}.`)) {
    const input = decode(req, (bytes) => JSON.parse(bytes.toString("utf8") || "{}"));
    return "bad" in input ? input : { protocol: "json", action: target.slice(SERVICE.length + 1), input: input.ok };
  }
  if (cborOp) {
    const input = decode(req, (bytes) => bytes.length ? cbor.deserialize(bytes) : {});
    return "bad" in input ? input : { protocol: "cbor", action: cborOp, input: input.ok };
  }
  const call = queryCall(req, "monitoring");
  if (!call) return void 0;
  if ("badType" in call) return { bad: `Unsupported content type ${call.badType}` };
  return { protocol: "query", action: call.action, input: call.params };
}
function decode(req, parse) {
  try {
    const raw = req.raw ?? Buffer.from(req.body);
    const bytes = /gzip/.test(String(req.headers["content-encoding"] ?? "")) ? gunzipSync(raw) : raw;
    const value = parse(bytes);
    if (!value || typeof value !== "object" || Array.isArray(value))
      return { bad: "the body is not an object" };
    return { ok: value };
  } catch (e) {
    return { bad: `the body cannot be read: ${e.message}` };
  }
}
function withStamps(value, stamp) {
  if (value instanceof Date) return stamp(value);
  if (Array.isArray(value)) return value.map((v2) => withStamps(v2, stamp));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v2]) => [k, withStamps(v2, stamp)]));
  return value;
}
function answer2(protocol, action, result, id) {
  const headers = { [RESOURCE_HEADER]: action, "x-amzn-requestid": id };
  if (protocol === "json")
    return {
      status: 200,
      headers: { ...headers, "content-type": "application/x-amz-json-1.0" },
      body: JSON.stringify(withStamps(result, (d) => d.getTime() / 1e3))
    };
  if (protocol === "cbor")
    return {
      status: 200,
      headers: { ...headers, "content-type": "application/cbor", "smithy-protocol": "rpc-v2-cbor" },
      bytes: cbor.serialize(withStamps(result, dateToTag))
    };
  const inner = `<${action}Result>${toXml(result, "member")}</${action}Result>`;
  return xmlResponse(
    200,
    `<${action}Response xmlns="${CLOUDWATCH_NS}">${inner}<ResponseMetadata><RequestId>${id}</RequestId></ResponseMetadata></${action}Response>`,
    action
  );
}
function failure(protocol, e, resource, id) {
  if (protocol === "query")
    return xmlResponse(
      e.status,
      queryErrorXml({ status: e.status, code: e.code, message: e.message }, id, CLOUDWATCH_NS),
      resource
    );
  const fault = e.status >= 500 ? "Receiver" : "Sender";
  const headers = {
    [RESOURCE_HEADER]: resource,
    "x-amzn-requestid": id,
    "x-amzn-query-error": `${e.code};${fault}`
  };
  const body = {
    __type: `com.amazonaws.cloudwatch#${SHAPES[e.code] ?? e.code}`,
    message: e.message
  };
  return protocol === "json" ? {
    status: e.status,
    headers: { ...headers, "content-type": "application/x-amz-json-1.0" },
    body: JSON.stringify(body)
  } : {
    status: e.status,
    headers: {
      ...headers,
      "content-type": "application/cbor",
      "smithy-protocol": "rpc-v2-cbor"
    },
    bytes: cbor.serialize(body)
  };
}
var CloudWatchFace = class {
  constructor(cloudWatch) {
    this.cloudWatch = cloudWatch;
  }
  cloudWatch;
  name = "cloudwatch";
  /** Answer the next N requests with CloudWatch's throttling error (tests of the SDK's retries). */
  throttleNext = 0;
  /** Alarms a DescribeAlarms page holds at most, whatever MaxRecords asks (tests of paging). */
  maxPage = 100;
  #requestNo = 0;
  async handle(req) {
    const call = recognise(req);
    if (!call) return void 0;
    const id = `cw-${++this.#requestNo}`;
    const protocol = "bad" in call ? "query" : call.protocol;
    if ("bad" in call)
      return failure(
        protocol,
        new AwsApiError("InvalidParameterValue", call.bad),
        "BadRequest",
        id
      );
    const { action, input } = call;
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return failure(protocol, new AwsApiError("Throttling", "Rate exceeded"), action, id);
    }
    const act = Object.hasOwn(CLOUDWATCH_ACTIONS, action) ? CLOUDWATCH_ACTIONS[action] : void 0;
    if (!act) {
      const e = protocol === "query" ? new AwsApiError(
        "InvalidAction",
        `The action ${action || "(none)"} is not valid for this web service.`
      ) : new AwsApiError("UnknownOperationException", `Unknown operation ${action}`);
      return failure(protocol, e, action || "InvalidAction", id);
    }
    try {
      return answer2(protocol, action, await act(this.cloudWatch, input, this.maxPage), id);
    } catch (e) {
      if (e instanceof NetworkError) throw e;
      if (!(e instanceof AwsApiError))
        return failure(
          protocol,
          new AwsApiError("InternalServiceError", e.message, 500),
          action,
          id
        );
      const code = e.code === "ThrottlingException" ? "Throttling" : e.code;
      return failure(protocol, new AwsApiError(code, e.message, e.status), action, id);
    }
  }
};

// src/sandbox/wire/ec2-face.ts
var EC2_NS = "http://ec2.amazonaws.com/doc/2016-11-15/";
var STATE_CODE = {
  pending: 0,
  running: 16,
  "shutting-down": 32,
  terminated: 48,
  stopping: 64,
  stopped: 80
};
function versionXml(v2) {
  return {
    launchTemplateId: v2.LaunchTemplateId,
    launchTemplateName: v2.LaunchTemplateName,
    versionNumber: v2.VersionNumber,
    createTime: v2.CreateTime,
    createdBy: "arn:aws:iam::123456789012:role/sandbox",
    defaultVersion: v2.DefaultVersion,
    launchTemplateData: {
      imageId: v2.LaunchTemplateData.ImageId,
      instanceType: v2.LaunchTemplateData.InstanceType
    }
  };
}
function instanceXml(i) {
  return {
    instanceId: i.InstanceId,
    imageId: i.ImageId,
    instanceState: { code: STATE_CODE[i.State.Name] ?? 0, name: i.State.Name },
    privateDnsName: i.PrivateDnsName,
    instanceType: i.InstanceType,
    launchTime: i.LaunchTime,
    placement: { availabilityZone: i.Placement.AvailabilityZone, tenancy: "default" },
    tagSet: i.Tags.map((t) => ({ key: t.Key, value: t.Value }))
  };
}
var Ec2Face = class extends QueryFace {
  constructor(view) {
    super();
    this.view = view;
  }
  view;
  name = "ec2";
  dialect = {
    service: "ec2",
    idPrefix: "ec2",
    badTypeMessage: (type) => `Unsupported content type ${type}`,
    throttling: () => new AwsApiError("RequestLimitExceeded", "Request limit exceeded.", 503),
    errorXml: (e, id) => ec2ErrorXml({ status: e.status, code: e.code, message: e.message }, id),
    answerXml: (action, result, id) => `<?xml version="1.0" encoding="UTF-8"?><${action}Response xmlns="${EC2_NS}"><requestId>${id}</requestId>${toXml(result, "item")}</${action}Response>`
  };
  async run(action, p) {
    const ec2 = this.view.ec2;
    switch (action) {
      case "DescribeLaunchTemplates":
        return this.#templates(p);
      case "DescribeAvailabilityZones":
        return {
          availabilityZoneInfo: (this.view.zones ?? []).map((z2, i) => ({
            zoneName: z2,
            zoneId: `${(this.view.region ?? "").replace(/-/g, "").slice(0, 4)}-az${i + 1}`,
            zoneState: "available",
            regionName: this.view.region,
            zoneType: "availability-zone"
          }))
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
            "The request must contain the parameter LaunchTemplateId or LaunchTemplateName"
          );
        const all = await ec2.describeLaunchTemplateVersions({
          ...id && { LaunchTemplateId: id },
          ...name && { LaunchTemplateName: name },
          ...versions && { Versions: versions }
        });
        const { page: page2, next } = pageOf(all, str(p, "NextToken"), num(p, "MaxResults") ?? 1e3);
        return { launchTemplateVersionSet: page2.map(versionXml), nextToken: next };
      }
      case "DescribeInstances": {
        const ids = list(p, "InstanceId");
        const Filters = objects(p, "Filter").map((f) => ({
          Name: need(f, "Name"),
          Values: list(f, "Value") ?? []
        }));
        const found = await ec2.describeInstances(
          ids ? { InstanceIds: ids, Filters } : { Filters }
        );
        const { page: page2, next } = pageOf(found, str(p, "NextToken"), num(p, "MaxResults") ?? 1e3);
        const reservations = page2.map((i, k) => ({
          reservationId: `r-${String(k).padStart(17, "0")}`,
          ownerId: "123456789012",
          instancesSet: [instanceXml(i)]
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
            Tags: tags.map((t) => ({ Key: need(t, "Key"), Value: str(t, "Value") ?? "" }))
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
            previousState: { code: STATE_CODE[i.State.Name] ?? 0, name: i.State.Name }
          }))
        };
      }
      default:
        return void 0;
    }
  }
  /** Running instances' status checks (all passing); every instance with IncludeAllInstances. */
  async #status(p) {
    const ids = list(p, "InstanceId") ?? [...this.view.sim.instances.keys()];
    const all = str(p, "IncludeAllInstances") === "true";
    const found = (await this.view.ec2.describeInstances({ InstanceIds: ids })).filter(
      (i) => all || i.State.Name === "running"
    );
    const { page: page2, next } = pageOf(found, str(p, "NextToken"), num(p, "MaxResults") ?? 1e3);
    const check = (ok) => ({ status: ok ? "ok" : "not-applicable" });
    return {
      instanceStatusSet: page2.map((i) => ({
        instanceId: i.InstanceId,
        availabilityZone: i.Placement.AvailabilityZone,
        instanceState: { code: STATE_CODE[i.State.Name] ?? 0, name: i.State.Name },
        systemStatus: check(i.State.Name === "running"),
        instanceStatus: check(i.State.Name === "running")
      })),
      nextToken: next
    };
  }
  /** The simulator's launch templates (the Cloud port has no call for them: noderoll never lists). */
  #templates(p) {
    const ids = list(p, "LaunchTemplateId");
    const names = list(p, "LaunchTemplateName");
    const all = [...this.view.sim.templates.values()].filter(
      (t) => (!ids || ids.includes(t.id)) && (!names || names.includes(t.name))
    );
    if ((ids || names) && all.length === 0)
      throw new AwsApiError(
        "InvalidLaunchTemplateName.NotFoundException",
        "At least one of the launch templates specified in the request does not exist."
      );
    return {
      launchTemplates: all.map((t) => ({
        launchTemplateId: t.id,
        launchTemplateName: t.name,
        createTime: new Date(Math.min(...t.versions.map((v2) => v2.createdAt))),
        createdBy: "arn:aws:iam::123456789012:role/sandbox",
        defaultVersionNumber: t.defaultVersion,
        latestVersionNumber: Math.max(...t.versions.map((v2) => v2.number))
      }))
    };
  }
};

// src/sandbox/wire/eks-face.ts
var seconds = (d) => d ? d.getTime() / 1e3 : void 0;
function updateJson(u) {
  return { ...u, createdAt: seconds(u.createdAt) };
}
function nodegroupJson(n, region) {
  return {
    ...n,
    nodegroupArn: `arn:aws:eks:${region}:123456789012:nodegroup/${n.clusterName}/${n.nodegroupName}/sandbox`,
    createdAt: seconds(n.createdAt),
    modifiedAt: seconds(n.modifiedAt)
  };
}
function paginate(items, q2, pageSize = 100) {
  const asked = Math.min(100, Math.max(1, Number(q2.get("maxResults") ?? 100) || 100));
  const max = Math.min(asked, pageSize);
  const token = q2.get("nextToken");
  const offset = token ? Number(Buffer.from(token, "base64url").toString()) || 0 : 0;
  const page2 = items.slice(offset, offset + max);
  const next = offset + max < items.length ? Buffer.from(String(offset + max)).toString("base64url") : void 0;
  return { page: page2, ...next && { nextToken: next } };
}
function awsJsonError(code, message, status, resource) {
  return json(status, { message }, resource, { "x-amzn-errortype": code });
}
var EksFace = class {
  constructor(view) {
    this.view = view;
  }
  view;
  name = "eks";
  /** Answer the next N requests with ThrottlingException (tests of the SDK's retries). */
  throttleNext = 0;
  #requestNo = 0;
  async handle(req) {
    const parts = req.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== "clusters") return void 0;
    const op = this.#operation(req.method, parts);
    if (!op)
      return awsJsonError(
        "UnknownOperationException",
        `No operation for ${req.method} ${req.path}`,
        404,
        "UnknownOperation"
      );
    const requestId = { "x-amzn-requestid": `eks-${++this.#requestNo}` };
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return awsJsonError("ThrottlingException", "Rate exceeded", 429, op);
    }
    try {
      const body = this.#body(req);
      const value = await this.#run(op, parts, req.query, body);
      return json(200, value, op, requestId);
    } catch (e) {
      if (e instanceof NetworkError) throw e;
      if (e instanceof AwsApiError) return awsJsonError(e.code, e.message, e.status, op);
      return awsJsonError("ServerException", e.message, 500, op);
    }
  }
  #operation(method, p) {
    const route = `${method} ${p.length} ${p[2] ?? ""} ${p[4] ?? ""}`;
    const table = {
      "GET 1  ": "ListClusters",
      "GET 2  ": "DescribeCluster",
      "GET 3 node-groups ": "ListNodegroups",
      "GET 4 node-groups ": "DescribeNodegroup",
      "POST 5 node-groups update-version": "UpdateNodegroupVersion",
      "POST 5 node-groups update-config": "UpdateNodegroupConfig",
      "GET 3 updates ": "ListUpdates",
      "GET 4 updates ": "DescribeUpdate"
    };
    return table[route];
  }
  #body(req) {
    if (req.method !== "POST") return {};
    if (!/json/.test(String(req.headers["content-type"] ?? "")))
      throw new AwsApiError(
        "UnsupportedMediaTypeException",
        "The request's content type is not application/json.",
        415
      );
    try {
      const body = JSON.parse(req.body || "{}");
      if (body && typeof body === "object" && !Array.isArray(body)) return body;
    } catch {
    }
    throw new AwsApiError("SerializationException", "The request body is not a JSON object.", 400);
  }
  async #run(op, p, q2, body) {
    const eks = this.view.eks;
    const cluster = p[1];
    const region = this.view.region;
    const size = this.view.pageSize;
    switch (op) {
      case "ListClusters": {
        const { page: page2, nextToken } = paginate(await eks.listClusters(), q2, size);
        return { clusters: page2, ...nextToken && { nextToken } };
      }
      case "DescribeCluster": {
        const c = await eks.describeCluster(cluster);
        return {
          cluster: {
            ...c,
            createdAt: seconds(new Date(Date.parse(this.view.start) - 90 * 864e5)),
            platformVersion: "eks.1"
          }
        };
      }
      case "ListNodegroups": {
        const { page: page2, nextToken } = paginate(await eks.listNodegroups(cluster), q2, size);
        return { nodegroups: page2, ...nextToken && { nextToken } };
      }
      case "DescribeNodegroup":
        return { nodegroup: nodegroupJson(await eks.describeNodegroup(cluster, p[3]), region) };
      case "UpdateNodegroupVersion":
        return {
          update: updateJson(
            await eks.updateNodegroupVersion({
              ...body,
              clusterName: cluster,
              nodegroupName: p[3]
            })
          )
        };
      case "UpdateNodegroupConfig":
        return {
          update: updateJson(
            await eks.updateNodegroupConfig({
              ...body,
              clusterName: cluster,
              nodegroupName: p[3]
            })
          )
        };
      case "ListUpdates": {
        const ng = q2.get("nodegroupName") ?? void 0;
        const ids = await eks.listUpdates({ name: cluster, ...ng && { nodegroupName: ng } });
        const { page: page2, nextToken } = paginate(ids, q2, size);
        return { updateIds: page2, ...nextToken && { nextToken } };
      }
      default: {
        const ng = q2.get("nodegroupName") ?? void 0;
        const u = await eks.describeUpdate({
          name: cluster,
          updateId: p[3],
          ...ng && { nodegroupName: ng }
        });
        return { update: updateJson(u) };
      }
    }
  }
};

// src/sandbox/wire/github-face.ts
import { createHash } from "node:crypto";

// node_modules/marked/lib/marked.esm.js
function G() {
  return { async: false, breaks: false, extensions: null, gfm: true, hooks: null, pedantic: false, renderer: null, silent: false, tokenizer: null, walkTokens: null };
}
var S = G();
function ue(l3) {
  S = l3;
}
var q = { exec: () => null };
function D(l3) {
  let e = [];
  return (t) => {
    let n = Math.max(0, Math.min(3, t - 1)), r = e[n];
    return r || (r = l3(n), e[n] = r), r;
  };
}
function g(l3, e = "") {
  let t = typeof l3 == "string" ? l3 : l3.source, n = { replace: (r, s) => {
    let o = typeof s == "string" ? s : s.source;
    return o = o.replace(O.caret, "$1"), t = t.replace(r, o), n;
  }, getRegex: () => new RegExp(t, e) };
  return n;
}
var _e = ((l3 = "") => {
  try {
    return !!new RegExp("(?<=1)(?<!1)" + l3);
  } catch {
    return false;
  }
})();
var O = { codeRemoveIndent: /^(?: {0,3}\t| {1,4})/gm, listInterruptsParagraph: /^ {0,3}(?:[*+-]|1[.)])[ \t]+[^ \t\n]/, outputLinkReplace: /\\([\[\]])/g, indentCodeCompensation: /^(\s+)(?:```)/, beginningSpace: /^\s+/, endingHash: /#$/, startingSpaceChar: /^ /, endingSpaceChar: / $/, endingSpaceTabChar: /[ \t]$/, nonSpaceChar: /[^ ]/, newLineCharGlobal: /\n/g, tabCharGlobal: /\t/g, leadingSpaceTab: /^[ \t]+/, multipleSpaceGlobal: /\s+/g, blankLine: /^[ \t]*$/, doubleBlankLine: /\n[ \t]*\n[ \t]*$/, blockquoteStart: /^ {0,3}>/, blockquoteSetextReplace: /\n {0,3}((?:=+|-+)[ \t]*)(?=\n|$)/g, blockquoteSetextReplace2: /^ {0,3}>[ \t]?/gm, blockquoteMarkerWhitespace: /^( {0,3}>)(\t[ \t]*)/gm, nestedBlockMarker: /^ {0,3}(?:(?:[*+-]|\d{1,9}[.)])(?: |$)|> ?)/, listReplaceNesting: /^ {1,4}(?=( {4})*[^ ])/g, listIsTask: /^\[[ xX]\][ \t]+\S/, listReplaceTask: /^\[[ xX]\][ \t]+/, listTaskCheckbox: /\[[ xX]\]/, anyLine: /\n.*\n/, hrefBrackets: /^<(.*)>$/, tableDelimiter: /[:|]/, tableAlignChars: /^\||\| *$/g, tableRowBlankLine: /\n[ \t]*$/, tableAlignRight: /^ *-+: *$/, tableAlignCenter: /^ *:-+: *$/, tableAlignLeft: /^ *:-+ *$/, startATag: /^<a /i, endATag: /^<\/a>/i, startPreScriptTag: /^<(pre|code|kbd|script)(\s|>)/i, endPreScriptTag: /^<\/(pre|code|kbd|script)(\s|>)/i, startAngleBracket: /^</, endAngleBracket: />$/, pedanticHrefTitle: /^([^'"]*[^\s])\s+(['"])(.*)\2/, unicodeAlphaNumeric: /[\p{L}\p{N}]/u, numericCharacterReference: /&#(?:(\d{1,7})|[Xx]([A-Fa-f0-9]{1,6}));/, numericCharacterReferenceOrAmpersand: /&#(?:(\d{1,7})|[Xx]([A-Fa-f0-9]{1,6}));|&(?!(#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);)/g, escapeTest: /[&<>"']/, escapeReplace: /[&<>"']/g, escapeTestNoEncode: /[<>"']|&(?!(#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);)/, escapeReplaceNoEncode: /[<>"']|&(?!(#\d{1,7}|#[Xx][a-fA-F0-9]{1,6}|\w+);)/g, caret: /(^|[^\[])\^/g, percentDecode: /%25/g, findPipe: /\|/g, splitPipe: / \|/, slashPipe: /\\\|/g, carriageReturn: /\r\n|\r/g, spaceLine: /^ +$/gm, notSpaceStart: /^\S*/, endingNewline: /\n$/, listItemRegex: (l3) => new RegExp(`^( {0,3}${l3})((?:[	 ][^\\n]*)?(?:\\n|$))`), nextBulletRegex: D((l3) => new RegExp(`^ {0,${l3}}(?:[*+-]|\\d{1,9}[.)])((?:[ 	][^\\n]*)?(?:\\n|$))`)), hrRegex: D((l3) => new RegExp(`^ {0,${l3}}((?:-[ 	]*){3,}|(?:_[ 	]*){3,}|(?:\\*[ 	]*){3,})(?:\\n+|$)`)), fencesBeginRegex: D((l3) => new RegExp(`^ {0,${l3}}(?:\`\`\`|~~~)`)), headingBeginRegex: D((l3) => new RegExp(`^ {0,${l3}}#{1,6}(?:\\s|$)`)), pedanticHeadingBeginRegex: D((l3) => new RegExp(`^ {0,${l3}}#`)), htmlBeginRegex: D((l3) => new RegExp(`^ {0,${l3}}(?:</?(?:${he})(?:[ \\t]+|$|/?>)|<(?:(?:script|pre|style|textarea)(?:[\\s>]|$)|!--)|<\\?|<![A-Za-z]|<!\\[CDATA\\[)`, "i")), blockquoteBeginRegex: D((l3) => new RegExp(`^ {0,${l3}}>`)), nestedContainerMarkers: /^(?: {0,3}(?:(?:[*+-]|\d{1,9}[.)])[ \t]+|>[ \t]?))+/ };
var Ge = /^(?:[ \t]*(?:\n|$))+/;
var Ne = /^((?: {4}| {0,3}\t)[^\n]+(?:\n(?:[ \t]*(?:\n|$))*)?)+/;
var Fe = /^ {0,3}(`{3,}(?=[^`\n]*(?:\n|$))|~{3,})([^\n]*)(?:\n|$)(?:|([\s\S]*?)(?:\n|$))(?: {0,3}(?:(?=`)\1`*|(?=~)\1~*) *(?=\n|$)|$)/;
var V = /^ {0,3}((?:-[\t ]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})(?:\n+|$)/;
var Qe = /^ {0,3}(#{1,6})(?=\s|$)(.*)(?:\n+|$)/;
var ce = / {0,3}(?:[*+-]|\d{1,9}[.)])/;
var he = "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|meta|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul";
var J = g(" {0,3}(?:</?(?:tag)(?:[ \\t]+|\\n|/?>)|<(?:(?:script|pre|style|textarea)(?:[\\s>]|$)|!--)|<\\?|<![A-Za-z]|<!\\[CDATA\\[)").replace("tag", he).getRegex();
var $e = /^(?!bull |blockCode|fences|blockquote|heading|html|table)((?:.|\n(?!\s*?\n|bull |fences|blockquote|heading|hr|html|table))+?)\n {0,3}(=+|-+)[ \t]*(?:\n+|$)/;
var Le = g($e).replace(/bull/g, ce).replace(/blockCode/g, /(?: {4}| {0,3}\t)/).replace(/fences/g, / {0,3}(?:`{3,}|~{3,})/).replace(/blockquote/g, / {0,3}>/).replace(/heading/g, / {0,3}#{1,6}(?:\s|$)/).replace(/hr/g, / {0,3}(?:(?:-[\t ]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})(?:\n+|$)/).replace(/\|table/g, "").replace(/html/g, J).getRegex();
var We = g($e).replace(/bull/g, ce).replace(/blockCode/g, /(?: {4}| {0,3}\t)/).replace(/fences/g, / {0,3}(?:`{3,}|~{3,})/).replace(/blockquote/g, / {0,3}>/).replace(/heading/g, / {0,3}#{1,6}(?:\s|$)/).replace(/hr/g, / {0,3}(?:(?:-[\t ]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})(?:\n+|$)/).replace(/table/g, / {0,3}\|?(?:[:\- ]*\|)+[\:\- ]*\n/).replace(/html/g, J).getRegex();
var de = /^([^\n]+(?:\n(?!hr|heading|lheading|blockquote|fences|list|html|table|[ \t]+\n)[^\n]+)*)/;
var Ue = /^[^\n]+/;
var ge = /(?!\s*\])(?:\\[\s\S]|[^\[\]\\\n]|\n(?![ \t]*\n))+/;
var Ke = g(/^ {0,3}\[(label)\]: *(?:\n[ \t]*)?([^<\s][^\s]*|<(?:\\.|[^\n<>\\])*>)(?:(?: +(?:\n[ \t]*)?| *\n[ \t]*)(title))? *(?:\n+|$)/).replace("label", ge).replace("title", /(?:"(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\\n]|\n(?!\n))*'|\((?:\\[\s\S]|[^()\\])*\))/).getRegex();
var Xe = g(/^(bull)([ \t][^\n]*?)?(?:\n|$)/).replace(/bull/g, ce).getRegex();
var ke = /<!--(?:-?>|[\s\S]*?(?:-->|$))/;
var Ve = g("^ {0,3}(?:<(script|pre|style|textarea)[\\s>][\\s\\S]*?(?:</\\1>[^\\n]*\\n*|$)|comment[^\\n]*(\\n+|$)|<\\?[\\s\\S]*?(?:\\?>[^\\n]*\\n*|$)|<![A-Z][\\s\\S]*?(?:>[^\\n]*\\n*|$)|<!\\[CDATA\\[[\\s\\S]*?(?:\\]\\]>[^\\n]*\\n*|$)|</?(tag)(?:[ \\t]+|\\n|/?>|$)[\\s\\S]*?(?:(?:\\n[ 	]*)+\\n|$)|<(?!(?:script|pre|style|textarea)(?![a-z0-9-]))([a-z][a-z0-9-]*)(?:attribute)*?[ \\t]*/?>(?=[ \\t]*(?:\\n|$))[\\s\\S]*?(?:(?:\\n[ 	]*)+\\n|$)|</[a-z][a-z0-9-]*\\s*>(?=[ \\t]*(?:\\n|$))[\\s\\S]*?(?:(?:\\n[ 	]*)+\\n|$))", "i").replace("comment", ke).replace("tag", he).replace("attribute", /[ \t]+[a-zA-Z:_][\w.:-]*(?:[ \t]*=[ \t]*"[^"\n]*"|[ \t]*=[ \t]*'[^'\n]*'|[ \t]*=[ \t]*[^\s"'=<>`]+)?/).getRegex();
var Ce = (l3) => g(de).replace("hr", V).replace("heading", " {0,3}#{1,6}(?:\\s|$)").replace("|lheading", "").replace("|table", "").replace("blockquote", " {0,3}>").replace("fences", " {0,3}(?:`{3,}(?=[^`\\n]*(?:\\n|$))|~~~)[^\\n]*(?:\\n|$)").replace("list", l3).replace("html", J).getRegex();
var Je = Ce(/ {0,3}(?:[*+-]|1[.)])[ \t]+[^ \t\n]/);
var Ye = Ce(/ {0,3}(?:[*+-]|\d{1,9}[.)])(?:[ \t]|\n|$)/);
var et = g(/^( {0,3}> ?(?:(?![ \t]*(?:\n|$))(paragraph)|[^\n]*)(?:\n|$))+/).replace("paragraph", Ye).getRegex();
var fe = { blockquote: et, code: Ne, def: Ke, fences: Fe, heading: Qe, hr: V, html: Ve, lheading: Le, list: Xe, newline: Ge, paragraph: Je, table: q, text: Ue };
var Pe = g("^ *([^\\n ].*)\\n {0,3}((?:\\| *)?:?-+:? *(?:\\| *:?-+:? *)*(?:\\| *)?)(?:\\n((?:(?! *\\n|hr|heading|blockquote|code|fences|list|html).*(?:\\n|$))*)\\n*|$)").replace("hr", V).replace("heading", " {0,3}#{1,6}(?:\\s|$)").replace("blockquote", " {0,3}>").replace("code", "(?: {4}| {0,3}	)[^\\n]").replace("fences", " {0,3}(?:`{3,}(?=[^`\\n]*(?:\\n|$))|~~~)[^\\n]*(?:\\n|$)").replace("list", " {0,3}(?:[*+-]|1[.)])[ \\t]").replace("html", J).getRegex();
var tt = { ...fe, lheading: We, table: Pe, paragraph: g(de).replace("hr", V).replace("heading", " {0,3}#{1,6}(?:\\s|$)").replace("|lheading", "").replace("table", Pe).replace("blockquote", " {0,3}>").replace("fences", " {0,3}(?:`{3,}(?=[^`\\n]*(?:\\n|$))|~~~)[^\\n]*(?:\\n|$)").replace("list", " {0,3}(?:[*+-]|1[.)])[ \\t]+[^ \\t\\n]").replace("html", J).getRegex() };
var nt = { ...fe, html: g(`^ *(?:comment(?: *\\n|\\s*$)|<(tag)[\\s\\S]+?</\\1>(?: *\\n{2,}|\\s*$)|<tag(?:"[^"]*"|'[^']*'|\\s[^'"/>\\s]*)*?/?>(?: *\\n{2,}|\\s*$))`).replace("comment", ke).replace(/tag/g, "(?!(?:a|em|strong|small|s|cite|q|dfn|abbr|data|time|code|var|samp|kbd|sub|sup|i|b|u|mark|ruby|rt|rp|bdi|bdo|span|br|wbr|ins|del|img)\\b)\\w+(?!:|[^\\w\\s@]*@)\\b").getRegex(), def: /^ *\[([^\]]+)\]: *<?([^\s>]+)>?(?: +(["(][^\n]+[")]))? *(?:\n+|$)/, heading: /^(#{1,6})(.*)(?:\n+|$)/, fences: q, lheading: /^(.+?)\n {0,3}(=+|-+) *(?:\n+|$)/, paragraph: g(de).replace("hr", V).replace("heading", ` *#{1,6} *[^
]`).replace("|table", "").replace("blockquote", " {0,3}>").replace("|fences", "").replace("|list", "").replace("|html", "").replace("|tag", "").replace("lheading", Le).getRegex() };
var rt = /^\\([!"#$%&'()*+,\-./:;<=>?@\[\]\\^_`{|}~])/;
var st = /^(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/;
var Ie = /^( {2,}|\\)\n(?!\s*$)[ \t]*/;
var it = /^(`+|[^`])(?:(?= {2,}\n)|[\s\S]*?(?:(?=[\\<!\[`*_]|\b_|$)|[^ ](?= {2,}\n)))/;
var L = /[\p{P}\p{S}]/u;
var N = /[\s\p{P}\p{S}]/u;
var Y = /[^\s\p{P}\p{S}]/u;
var ot = g(/^((?![*_])punctSpace)/, "u").replace(/punctSpace/g, N).getRegex();
var at = /[\p{Pi}\p{Ps}"']/u;
var Ae = /(?!~)[\p{P}\p{S}]/u;
var lt = /(?!~)[\s\p{P}\p{S}]/u;
var ut = /(?:[^\s\p{P}\p{S}]|~)/u;
var pt = g(/link|precode-code|html/, "g").replace("link", /\[(?:[^\[\]`]|(?<a>`+)[^`]+\k<a>(?!`))*?\]\((?:\\[\s\S]|[^\\\(\)]|\((?:\\[\s\S]|[^\\\(\)])*\))*\)/).replace("precode-", _e ? "(?<!`)()" : "(^^|[^`])").replace("code", /(?<b>`+)[^`]+\k<b>(?!`)/).replace("html", /<(?! )[^<>]*?>/).getRegex();
var Ee = /^(?:\*+(?:((?!\*)punct)|([^\s*]))?)|^_+(?:((?!_)punct)|([^\s_]))?/;
var ct = g(Ee, "u").replace(/punct/g, L).getRegex();
var ht = g(Ee, "u").replace(/punct/g, Ae).getRegex();
var dt = /^(?:\*+(?:((?!\*)(?!openQuote)punct)|([^\s*]))?)|^_+(?:((?!_)(?!openQuote)punct)|([^\s_]))?/;
var gt = g(dt, "u").replace(/openQuote/g, at).replace(/punct/g, L).getRegex();
var ze = "^[^_*]*?__[^_*]*?\\*[^_*]*?(?=__)|[^*]+(?=[^*])|(?!\\*)punct(\\*+)(?=[\\s]|$)|notPunctSpace(\\*+)(?!\\*)(?=punctSpace|$)|(?!\\*)punctSpace(\\*+)(?=notPunctSpace)|[\\s](\\*+)(?!\\*)(?=punct)|(?!\\*)punct(\\*+)(?!\\*)(?=punct)|notPunctSpace(\\*+)(?=notPunctSpace)";
var kt = g(ze, "gu").replace(/notPunctSpace/g, Y).replace(/punctSpace/g, N).replace(/punct/g, L).getRegex();
var ft = g(ze, "gu").replace(/notPunctSpace/g, ut).replace(/punctSpace/g, lt).replace(/punct/g, Ae).getRegex();
var mt = "^[^_*]*?__[^_*]*?\\*[^_*]*?(?=__)|[^*]+(?=[^*])|(?!\\*)punct(\\*+)(?=[\\s]|$)|notPunctSpace(\\*+)(?!\\*)(?=punctSpace|$)|(?!\\*)[\\s](\\*+)(?=notPunctSpace)|[\\s](\\*+)(?!\\*)(?=punct)|(?!\\*)punct(\\*+)(?!\\*)(?=punct)|(?:(?!\\*)punct|notPunctSpace)(\\*+)(?!\\*)(?=notPunctSpace)";
var xt = g(mt, "gu").replace(/notPunctSpace/g, Y).replace(/punctSpace/g, N).replace(/punct/g, L).getRegex();
var bt = g("^[^_*]*?\\*\\*[^_*]*?_[^_*]*?(?=\\*\\*)|[^_]+(?=[^_])|(?!_)punct(_+)(?=[\\s]|$)|notPunctSpace(_+)(?!_)(?=punctSpace|$)|(?!_)punctSpace(_+)(?=notPunctSpace)|[\\s](_+)(?!_)(?=punct)|(?!_)punct(_+)(?!_)(?=punct)", "gu").replace(/notPunctSpace/g, Y).replace(/punctSpace/g, N).replace(/punct/g, L).getRegex();
var Rt = "^[^_*]*?\\*\\*[^_*]*?_[^_*]*?(?=\\*\\*)|[^_]+(?=[^_])|(?!_)punct(_+)(?=[\\s]|$)|notPunctSpace(_+)(?!_)(?=punctSpace|$)|(?!_)[\\s](_+)(?=notPunctSpace)|[\\s](_+)(?!_)(?=punct)|(?!_)punct(_+)(?!_)(?=punct)|(?:(?!_)punct|notPunctSpace)(_+)(?!_)(?=notPunctSpace)";
var Tt = g(Rt, "gu").replace(/notPunctSpace/g, Y).replace(/punctSpace/g, N).replace(/punct/g, L).getRegex();
var Ot = g(/^~~?(?:((?!~)punct)|[^\s~])/, "u").replace(/punct/g, L).getRegex();
var wt = "^[^~]+(?=[^~])|(?!~)punct(~~?)(?=[\\s]|$)|notPunctSpace(~~?)(?!~)(?=punctSpace|$)|(?!~)punctSpace(~~?)(?=notPunctSpace)|[\\s](~~?)(?!~)(?=punct)|(?!~)punct(~~?)(?!~)(?=punct)|notPunctSpace(~~?)(?=notPunctSpace)";
var Pt = g(wt, "gu").replace(/notPunctSpace/g, Y).replace(/punctSpace/g, N).replace(/punct/g, L).getRegex();
var yt = g(/\\(punct)/, "gu").replace(/punct/g, L).getRegex();
var St = g(/(`+)(?:[^`]|[^`][\s\S]*?[^`])\1(?!`)|`+|\\(punct)/, "gu").replace(/punct/g, L).getRegex();
var _t = g(/^<(scheme:[^\s\x00-\x1f<>]*|email)>/).replace("scheme", /[a-zA-Z][a-zA-Z0-9+.-]{1,31}/).replace("email", /[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+(@)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+(?![-_])/).getRegex();
var $t = g(ke).replace("(?:-->|$)", "-->").getRegex();
var Lt = g("^comment|^</[a-zA-Z][a-zA-Z0-9-]*\\s*>|^<[a-zA-Z][a-zA-Z0-9-]*(?:attribute)*?\\s*/?>|^<\\?[\\s\\S]*?\\?>|^<![a-zA-Z]+\\s[\\s\\S]*?>|^<!\\[CDATA\\[[\\s\\S]*?\\]\\]>").replace("comment", $t).replace("attribute", /\s+[a-zA-Z:_][\w.:-]*(?:\s*=\s*"[^"]*"|\s*=\s*'[^']*'|\s*=\s*[^\s"'=<>`]+)?/).getRegex();
var Me = /\[(?:\\[\s\S]|[^\[\]\\])*\]/;
var ie = g(/(?:\[(?:brackets|\\[\s\S]|[^\[\]\\])*\]|\\[\s\S]|`+(?!`)[^`]*?`+(?!`)|``+(?=\])|[^\[\]\\`])*?/).replace("brackets", Me).getRegex();
var Ct = g(/^!?\[(label)\]\([ \t\n]*(href)(?:(?:[ \t]+(?:\n[ \t]*)?|\n[ \t]*)(title))?[ \t\n]*\)/).replace("label", ie).replace("href", /<(?:\\.|[^\n<>\\])*>|(?!<)[^ \t\n\x00-\x1f]+|(?=\))/).replace("title", /"(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\])*'|\((?:\\[\s\S]|[^)\\])*\)/).getRegex();
var It = g(/^!?\[(label)\]\[(ref)\]/).replace("label", ie).replace("ref", ge).getRegex();
var At = g(/^!?\[(ref)\](?:\[\])?/).replace("ref", ge).getRegex();
var ye = /(?!\s*\])(?:\\[\s\S]|[^\[\]\\]){1,999}/;
var Et = g(/(?:[^\[\]\\`]*(?:\[(?:brackets|\\[\s\S]|[^\[\]\\])*\]|\\[\s\S]|`+(?!`)[^`]*?`+(?!`)|``+(?=\]))){0,999}?[^\[\]\\`]*?/).replace("brackets", Me).getRegex();
var zt = g("reflink|nolink(?!\\()", "g").replace("reflink", g(/^!?\[(label)\]\[(ref)\]/).replace("label", Et).replace("ref", ye).getRegex()).replace("nolink", g(/^!?\[(ref)\](?:\[\])?/).replace("ref", ye).getRegex()).getRegex();
var Se = /[hH][tT][tT][pP][sS]?|[fF][tT][pP]/;
var Mt = /[A-Za-z0-9._+-]+@[a-zA-Z0-9-_]+(?:\.[a-zA-Z0-9-_]*[a-zA-Z0-9])+(?![\w-])/;
var Bt = g(/(?:mailto:email|xmpp:email(?:\/[A-Za-z0-9@.]+)?)/).replace(/email/g, Mt).getRegex();
var me = { _backpedal: q, anyPunctuation: yt, anyPunctuationOutsideCode: St, autolink: _t, blockSkip: pt, br: Ie, code: st, del: q, delLDelim: q, delRDelim: q, emStrongLDelim: ct, emStrongRDelimAst: kt, emStrongRDelimUnd: bt, escape: rt, link: Ct, nolink: At, punctuation: ot, reflink: It, reflinkSearch: zt, tag: Lt, text: it, url: q };
var Dt = { ...me, emStrongLDelim: gt, emStrongRDelimAst: xt, emStrongRDelimUnd: Tt, link: g(/^!?\[(label)\]\((.*?)\)/).replace("label", ie).getRegex(), reflink: g(/^!?\[(label)\]\s*\[([^\]]*)\]/).replace("label", ie).getRegex() };
var pe = { ...me, emStrongRDelimAst: ft, emStrongLDelim: ht, delLDelim: Ot, delRDelim: Pt, url: g(/^emailProtocol|^((?:protocol):\/\/|www\.)(?:[a-zA-Z0-9\-]+\.?)+[^\s<]*|^email/).replace("emailProtocol", Bt).replace("protocol", Se).replace("email", /[A-Za-z0-9._+-]+(@)[a-zA-Z0-9-_]+(?:\.[a-zA-Z0-9-_]*[a-zA-Z0-9])+(?![\w-])/).getRegex(), _backpedal: /(?:[^?!.,:;*_'"~()&]+|\([^)]*\)|&(?![a-zA-Z0-9]+;$)|[?!.,:;*_'"~)]+(?!$))+/, del: /^(~~?)(?=[^\s~])((?:\\[\s\S]|[^\\])*?(?:\\[\s\S]|[^\s~\\]))\1(?=[^~]|$)/, text: g(/^(?:[^a-zA-Z0-9](?=emailProtocol)|(`+|~+|[^`~])(?:(?=[`~])|(?= {2,}\n)|(?=[a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-]+@)|[\s\S]*?(?:(?=[\\<!\[`*~_]|\b_|protocol:\/\/|wwwStart|$)|[^ ](?= {2,}\n)|[^a-zA-Z0-9](?=emailProtocol)|[^a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-](?=[a-zA-Z0-9.!#$%&'*+\/=?_`{\|}~-]+@))))/).replace("protocol", Se).replace(/emailProtocol/g, /(?:mailto|xmpp):/).replace("wwwStart", _e ? "(?<![^\\s*_~(])www\\." : "www\\.").getRegex() };
var qt = { ...pe, br: g(Ie).replace("{2,}", "*").getRegex(), text: g(pe.text).replace("\\b_", "\\b_| {2,}\\n").replace(/\{2,\}/g, "*").getRegex() };
var ee = { normal: fe, gfm: tt, pedantic: nt };
var F = { normal: me, gfm: pe, breaks: qt, pedantic: Dt };
var vt = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
var Be = (l3) => vt[l3];
function y(l3, e) {
  if (e) {
    if (O.escapeTest.test(l3)) return l3.replace(O.escapeReplace, Be);
  } else if (O.escapeTestNoEncode.test(l3)) return l3.replace(O.escapeReplaceNoEncode, Be);
  return l3;
}
function De(l3) {
  return O.numericCharacterReference.test(l3) ? l3.replace(O.numericCharacterReferenceOrAmpersand, (e, t, n) => {
    if (t === void 0 && n === void 0) return "&amp;";
    let r = t === void 0 ? Number.parseInt(n, 16) : Number.parseInt(t, 10);
    return r === 0 || r > 1114111 || r >= 55296 && r <= 57343 ? "�" : r === 38 ? "&amp;" : String.fromCodePoint(r);
  }) : l3;
}
function xe(l3) {
  try {
    l3 = encodeURI(l3).replace(O.percentDecode, "%");
  } catch {
    return null;
  }
  return l3;
}
function be(l3, e) {
  let t = l3.replace(O.findPipe, (s, o, i) => {
    let a = false, c = o;
    for (; --c >= 0 && i[c] === "\\"; ) a = !a;
    return a ? "|" : " |";
  }), n = t.split(O.splitPipe), r = 0;
  if (n[0].trim() || n.shift(), n.length > 0 && !n.at(-1)?.trim() && n.pop(), e) if (n.length > e) n.splice(e);
  else for (; n.length < e; ) n.push("");
  for (; r < n.length; r++) n[r] = n[r].trim().replace(O.slashPipe, "|");
  return n;
}
function C(l3, e, t) {
  let n = l3.length;
  if (n === 0) return "";
  let r = 0;
  for (; r < n; ) {
    let s = l3.charAt(n - r - 1);
    if (s === e && !t) r++;
    else if (s !== e && t) r++;
    else break;
  }
  return l3.slice(0, n - r);
}
function Re(l3) {
  let e = l3.split(`
`), t = e.length - 1;
  for (; t >= 0 && O.blankLine.test(e[t]); ) t--;
  return e.length - t <= 2 ? l3 : e.slice(0, t + 1).join(`
`);
}
function W(l3) {
  return l3.trim().replace(O.multipleSpaceGlobal, " ").toLowerCase().toUpperCase().toLowerCase();
}
function Te(l3, e) {
  if (l3.indexOf(e[0]) === -1 && l3.indexOf(e[1]) === -1) return -1;
  let t = 0;
  for (let n = 0; n < l3.length; n++) if (l3[n] === "\\") n++;
  else if (l3[n] === e[0]) t++;
  else if (l3[n] === e[1] && (t--, t < 0)) return n;
  return t > 0 ? -2 : -1;
}
var Q = /* @__PURE__ */ new WeakMap();
function Oe(l3) {
  let e = { "*": -1, _: -1 }, t = -1, n = l3.length;
  for (let r = 0; r < n; r++) {
    let s = l3[r];
    if (s !== "*" && s !== "_" && s !== "~") continue;
    let o = r === 0 ? `
` : l3[r - 1], i = r + 1;
    for (; i < n && l3[i] === s; ) i++;
    o !== " " && o !== "	" && o !== `
` && o !== "\r" && o !== "\f" && (s === "~" ? t = r : e[s] = r), r = i - 1;
  }
  return { maskedSrc: l3, lastPossibleEmStrongCloserIndex: e, lastPossibleDelCloserIndex: t };
}
function qe(l3, e) {
  let t = Oe(e), n = Q.get(l3);
  n ? n.push(t) : Q.set(l3, [t]);
}
function ve(l3) {
  let e = Q.get(l3);
  e && (e.pop(), e.length === 0 && Q.delete(l3));
}
function oe(l3, e, t) {
  let n = Q.get(l3)?.at(-1);
  return n && n.maskedSrc === e ? n.lastPossibleEmStrongCloserIndex[t] : Oe(e).lastPossibleEmStrongCloserIndex[t];
}
function ae(l3, e) {
  let t = Q.get(l3)?.at(-1);
  return t && t.maskedSrc === e ? t.lastPossibleDelCloserIndex : Oe(e).lastPossibleDelCloserIndex;
}
function te(l3, e = 0) {
  let t = e, n = "";
  for (let r of l3) if (r === "	") {
    let s = 4 - t % 4;
    n += " ".repeat(s), t += s;
  } else n += r, t++;
  return n;
}
function Ht(l3, e) {
  let t = "";
  for (let n = 0; n < l3.length; n++) {
    if (l3[n] === "`") {
      let r = e.inline.code.exec(l3.slice(n));
      if (r) {
        t += r[0], n += r[0].length - 1;
        continue;
      }
    }
    if (l3[n] === "\\" && (l3[n + 1] === "[" || l3[n + 1] === "]")) {
      t += l3[n + 1], n++;
      continue;
    }
    t += l3[n];
  }
  return t;
}
function He(l3, e, t, n, r) {
  let s = e.href, o = e.title || null, i = Ht(l3[1], r), a = l3[0].charAt(0) === "!", c = n.state.inLink, u = n.state.linkEmitted, d = n.state.inRawBlock;
  n.state.inLink = true, n.state.linkEmitted = false;
  let h = n.inlineTokens(i), p = n.state.linkEmitted;
  if (n.state.linkEmitted = u, n.state.inLink = c, !a) {
    if (p) {
      n.state.inRawBlock = d;
      return;
    }
    n.state.linkEmitted = true;
  }
  return { type: a ? "image" : "link", raw: t, href: s, title: o, text: i, tokens: h };
}
function Zt(l3, e, t) {
  let n = l3.match(t.other.indentCodeCompensation);
  if (n === null) return e;
  let r = n[1];
  return e.split(`
`).map((s) => {
    let o = s.match(t.other.beginningSpace);
    if (o === null) return s;
    let [i] = o;
    return s.slice(Math.min(i.length, r.length));
  }).join(`
`);
}
function Ze(l3, e, t, n) {
  if (!e.includes("<")) return false;
  for (let r = 0; r < e.length; r++) {
    if (e[r] === "\\") {
      r++;
      continue;
    }
    if (e[r] === "`") {
      let i = n.inline.code.exec(e.slice(r));
      if (i) {
        r += i[0].length - 1;
        continue;
      }
    }
    if (e[r] !== "<") continue;
    let s = l3.slice(t + r), o = n.inline.tag.exec(s) || n.inline.autolink.exec(s);
    if (o) {
      if (o[0].length > e.length - r) return true;
      r += o[0].length - 1;
    }
  }
  return false;
}
var _ = class {
  options;
  rules;
  lexer;
  constructor(e) {
    this.options = e || S;
  }
  space(e) {
    let t = this.rules.block.newline.exec(e);
    if (t && t[0].length > 0) return { type: "space", raw: t[0] };
  }
  code(e) {
    let t = this.rules.block.code.exec(e);
    if (t) {
      let n = this.options.pedantic ? t[0] : Re(t[0]), r = n.replace(this.rules.other.codeRemoveIndent, "");
      return { type: "code", raw: n, codeBlockStyle: "indented", text: r };
    }
  }
  fences(e) {
    let t = this.rules.block.fences.exec(e);
    if (t) {
      let n = t[0], r = Zt(n, t[3] || "", this.rules);
      return t[3] !== void 0 && (r === "" || r.endsWith(`
`)) && (r += `
`), { type: "code", raw: n, lang: t[2] ? t[2].trim().replace(this.rules.inline.anyPunctuation, "$1") : t[2], text: r };
    }
  }
  heading(e) {
    let t = this.rules.block.heading.exec(e);
    if (t) {
      let n = t[2].trim();
      if (this.rules.other.endingHash.test(n)) {
        let r = C(n, "#");
        (this.options.pedantic || !r || this.rules.other.endingSpaceTabChar.test(r)) && (n = r.trim());
      }
      return { type: "heading", raw: C(t[0], `
`), depth: t[1].length, text: n, tokens: this.lexer.inline(n) };
    }
  }
  hr(e) {
    let t = this.rules.block.hr.exec(e);
    if (t) return { type: "hr", raw: C(t[0], `
`) };
  }
  blockquote(e) {
    let t = this.rules.block.blockquote.exec(e);
    if (t) {
      let n = C(t[0], `
`).split(`
`), r = "", s = "", o = [];
      for (; n.length > 0; ) {
        let i = false, a = [], c;
        for (c = 0; c < n.length; c++) if (this.rules.other.blockquoteStart.test(n[c])) a.push(n[c]), i = true;
        else if (!i) a.push(n[c]);
        else break;
        n = n.slice(c);
        let u = a.join(`
`), d = u.replace(this.rules.other.blockquoteMarkerWhitespace, (k, m, b) => b.startsWith(" ") ? m + " " + b.slice(1) : m + te(b, m.length)).replace(this.rules.other.blockquoteSetextReplace, `
    $1`).replace(this.rules.other.blockquoteSetextReplace2, "");
        r = r ? `${r}
${u}` : u, s = s ? `${s}
${d}` : d;
        let h = this.lexer.state.top;
        if (this.lexer.state.top = true, this.lexer.blockTokens(d, o, true), this.lexer.state.top = h, n.length === 0) break;
        let p = o.at(-1);
        if (p?.type === "code" || p?.type === "heading" || p?.type === "hr" || p?.type === "html" || p?.type === "table") break;
        if (p?.type === "blockquote") {
          let k = p, m = n.join(`
`), b = k.raw + `
` + m.replace(this.rules.other.blockquoteSetextReplace2, ""), f = this.blockquote(b);
          o[o.length - 1] = f;
          let R = b.substring(f.raw.length).replace(/^\n/, ""), E = R ? R.split(`
`).length : 0, T = E ? n.slice(0, -E) : n;
          if (T.length > 0 && (r = `${r}
${T.join(`
`)}`), s = s.substring(0, s.length - k.text.length) + f.text, n = n.slice(T.length), n.length > 0 && this.rules.other.blockquoteStart.test(n[0])) continue;
          break;
        } else if (p?.type === "list") {
          let k = p, m = k.raw + `
` + n.join(`
`), b = this.list(m);
          o[o.length - 1] = b;
          let f = b.raw.length > k.raw.length ? m.slice(k.raw.length + 1, b.raw.length).split(`
`).length : 0;
          if (f > 0) {
            let R = n.slice(0, f).join(`
`);
            r = `${r}
${R}`, s = `${s}
${R}`;
          }
          if (n = n.slice(f), n.length > 0 && !this.rules.other.blockquoteStart.test(n[0])) break;
          continue;
        }
      }
      return { type: "blockquote", raw: r, tokens: o, text: s };
    }
  }
  list(e) {
    let t = this.rules.block.list.exec(e);
    if (t) {
      if (!this.options.pedantic && this.lexer.state.lastToken?.type === "text" && !this.rules.other.listInterruptsParagraph.test(e)) return;
      let n = e, r = () => n.length - e.length, s = t[1].trim(), o = s.length > 1, i = { type: "list", raw: "", ordered: o, start: o ? +s.slice(0, -1) : "", loose: false, items: [] };
      s = o ? `\\d{1,9}\\${s.slice(-1)}` : `\\${s}`, this.options.pedantic && (s = o ? s : "[*+-]");
      let a = this.rules.other.listItemRegex(s), c = false;
      for (; e; ) {
        let h = false, p = "";
        if (!(t = a.exec(e)) || this.rules.block.hr.test(e)) break;
        let k = r();
        e = e.substring(t[0].length);
        let m = t[2].split(`
`, 1)[0], b = t[1].length, f = this.options.pedantic ? te(m, b) : m.replace(this.rules.other.leadingSpaceTab, (H) => te(H, b)), R = e.split(`
`, 1)[0], E = !f.trim(), T = 0;
        if (this.options.pedantic ? (T = 2, p = f.trimStart()) : E ? T = b + 1 : (T = f.search(this.rules.other.nonSpaceChar), T = T > 4 ? 1 : T, p = f.slice(T), T += b), E && this.rules.other.blankLine.test(R) && (e = e.substring(R.length + 1), h = true), !h) {
          let H = this.rules.other.nextBulletRegex(T), K = this.rules.other.hrRegex(T), re = this.rules.other.fencesBeginRegex(T), B = this.options.pedantic ? this.rules.other.pedanticHeadingBeginRegex(T) : this.rules.other.headingBeginRegex(T), X = this.rules.other.htmlBeginRegex(T), se = this.rules.other.blockquoteBeginRegex(T), le = false;
          for (; e; ) {
            let we = e.split(`
`, 1)[0], Z;
            if (R = we, this.options.pedantic ? (R = R.replace(this.rules.other.listReplaceNesting, "  "), Z = R) : Z = R.replace(this.rules.other.leadingSpaceTab, ($) => te($)), re.test(R) || B.test(R) || X.test(R) || se.test(R) || H.test(R) || K.test(R)) break;
            if (Z.search(this.rules.other.nonSpaceChar) >= T || !R.trim()) p += `
` + Z.slice(T), le = false;
            else {
              if (E) break;
              let $ = f;
              if (!this.options.pedantic && !p.includes(`
`) && !f.includes("	")) {
                let j;
                for (; !K.test($) && (j = this.rules.other.nestedBlockMarker.exec($)); ) $ = $.slice(j[0].length);
                if (!$.trim()) break;
              }
              if ($.replace(this.rules.other.tabCharGlobal, "    ").search(this.rules.other.nonSpaceChar) >= 4 || re.test($) || B.test($) || X.test($) || K.test($)) break;
              if (!this.options.pedantic && !le) {
                let j = f.replace(this.rules.other.nestedContainerMarkers, "");
                if (this.rules.block.fences.test(j) || this.rules.block.heading.test(j) || this.rules.block.hr.test(j)) break;
              }
              let je = !this.options.pedantic && /^ {0,3}(?:=+|-+) *$/.test(R) && this.rules.block.lheading.test(`${f}
${R}`) ? `    ${Z.replace(/^ {0,3}/, "")}` : R;
              p += `
` + je, le = true;
            }
            E = !R.trim(), e = e.substring(we.length + 1), f = Z.slice(T);
          }
        }
        let U = n.slice(k, r());
        i.loose || (c ? i.loose = true : this.rules.other.doubleBlankLine.test(U) && (c = true)), i.items.push({ type: "list_item", raw: U, task: !!this.options.gfm && this.rules.other.listIsTask.test(p), loose: false, text: p, tokens: [] });
      }
      let u = i.items.at(-1);
      if (u) u.raw = u.raw.trimEnd(), u.text = u.text.trimEnd();
      else return;
      i.raw = n.slice(0, r()).trimEnd();
      let d = [];
      for (let h of i.items) if (this.lexer.state.top = false, d.push(this.lexer.inlineQueue.length), h.tokens = this.lexer.blockTokens(h.text, []), !i.loose) {
        let p = h.tokens.filter((m) => m.type === "space"), k = p.length > 0 && p.some((m) => this.rules.other.anyLine.test(m.raw));
        i.loose = k;
      }
      for (let h = 0; h < i.items.length; h++) {
        let p = i.items[h], k = p.tokens[0];
        if (p.task && (k?.type === "text" || k?.type === "paragraph")) {
          p.text = p.text.replace(this.rules.other.listReplaceTask, ""), k.raw = k.raw.replace(this.rules.other.listReplaceTask, ""), k.text = k.text.replace(this.rules.other.listReplaceTask, "");
          let m = this.lexer.inlineQueue;
          for (let f = d[h]; f < m.length; f++) if (m[f].tokens === k.tokens) {
            m[f].src = m[f].src.replace(this.rules.other.listReplaceTask, "");
            break;
          }
          let b = this.rules.other.listTaskCheckbox.exec(p.raw);
          if (b) {
            let f = { type: "checkbox", raw: b[0] + " ", checked: b[0] !== "[ ]" };
            p.checked = f.checked, i.loose ? p.tokens[0] && ["paragraph", "text"].includes(p.tokens[0].type) && "tokens" in p.tokens[0] && p.tokens[0].tokens ? (p.tokens[0].raw = f.raw + p.tokens[0].raw, p.tokens[0].text = f.raw + p.tokens[0].text, p.tokens[0].tokens.unshift(f)) : p.tokens.unshift({ type: "paragraph", raw: f.raw, text: f.raw, tokens: [f] }) : p.tokens.unshift(f);
          }
        } else p.task && (p.task = false);
      }
      if (i.loose) for (let h of i.items) {
        h.loose = true;
        for (let p of h.tokens) p.type === "text" && (p.type = "paragraph");
      }
      return i;
    }
  }
  html(e) {
    let t = this.rules.block.html.exec(e);
    if (t) {
      if (this.lexer.state.lastToken?.type === "paragraph" && !this.rules.other.htmlBeginRegex(4).test(e)) return;
      let n = Re(t[0]);
      return { type: "html", block: true, raw: n, pre: t[1] === "pre" || t[1] === "script" || t[1] === "style", text: n };
    }
  }
  def(e) {
    let t = this.rules.block.def.exec(e);
    if (t) {
      if (!this.rules.other.startAngleBracket.test(t[2]) && Te(t[2], "()") !== -1) return;
      let n = W(t[1]), r = t[2] ? t[2].replace(this.rules.other.hrefBrackets, "$1").replace(this.rules.inline.anyPunctuation, "$1") : "", s = t[3] ? t[3].substring(1, t[3].length - 1).replace(this.rules.inline.anyPunctuation, "$1") : t[3];
      return { type: "def", tag: n, raw: C(t[0], `
`), href: r, title: s };
    }
  }
  table(e) {
    let t = this.rules.block.table.exec(e);
    if (!t || !this.rules.other.tableDelimiter.test(t[2])) return;
    let n = be(t[1]), r = t[2].replace(this.rules.other.tableAlignChars, "").split("|"), s = t[3]?.trim() ? t[3].replace(this.rules.other.tableRowBlankLine, "").split(`
`) : [], o = { type: "table", raw: C(t[0], `
`), header: [], align: [], rows: [] };
    if (n.length === r.length) {
      for (let i of r) this.rules.other.tableAlignRight.test(i) ? o.align.push("right") : this.rules.other.tableAlignCenter.test(i) ? o.align.push("center") : this.rules.other.tableAlignLeft.test(i) ? o.align.push("left") : o.align.push(null);
      for (let i = 0; i < n.length; i++) o.header.push({ text: n[i], tokens: this.lexer.inline(n[i]), header: true, align: o.align[i] });
      for (let i of s) o.rows.push(be(i, o.header.length).map((a, c) => ({ text: a, tokens: this.lexer.inline(a), header: false, align: o.align[c] })));
      return o;
    }
  }
  lheading(e) {
    let t = this.rules.block.lheading.exec(e);
    if (t) {
      let n = t[1].trim();
      return { type: "heading", raw: C(t[0], `
`), depth: t[2].charAt(0) === "=" ? 1 : 2, text: n, tokens: this.lexer.inline(n) };
    }
  }
  paragraph(e) {
    let t = this.rules.block.paragraph.exec(e);
    if (t) {
      let n = t[1].charAt(t[1].length - 1) === `
` ? t[1].slice(0, -1) : t[1];
      return { type: "paragraph", raw: t[0], text: n, tokens: this.lexer.inline(n) };
    }
  }
  text(e) {
    let t = this.rules.block.text.exec(e);
    if (t) return { type: "text", raw: t[0], text: t[0], tokens: this.lexer.inline(t[0]) };
  }
  escape(e) {
    if (e.charCodeAt(0) !== 92) return;
    let t = this.rules.inline.escape.exec(e);
    if (t) return { type: "escape", raw: t[0], text: t[1] };
  }
  tag(e) {
    if (e.charCodeAt(0) !== 60) return;
    let t = this.rules.inline.tag.exec(e);
    if (t) return !this.lexer.state.inLink && this.rules.other.startATag.test(t[0]) ? this.lexer.state.inLink = true : this.lexer.state.inLink && this.rules.other.endATag.test(t[0]) && (this.lexer.state.inLink = false), !this.lexer.state.inRawBlock && this.rules.other.startPreScriptTag.test(t[0]) ? this.lexer.state.inRawBlock = true : this.lexer.state.inRawBlock && this.rules.other.endPreScriptTag.test(t[0]) && (this.lexer.state.inRawBlock = false), { type: "html", raw: t[0], inLink: this.lexer.state.inLink, inRawBlock: this.lexer.state.inRawBlock, block: false, text: t[0] };
  }
  link(e) {
    if (this.lexer.state.linkParenPossible === false) return;
    let t = e.charCodeAt(0);
    if (t !== 91 && t !== 33) return;
    let n = this.rules.inline.link.exec(e);
    if (n) {
      let r = n[0].charAt(0) === "!" ? 2 : 1;
      if (!this.options.pedantic && Ze(e, n[1], r, this.rules)) return;
      let s = n[2].trim();
      if (!this.options.pedantic && this.rules.other.startAngleBracket.test(s)) {
        if (!this.rules.other.endAngleBracket.test(s)) return;
        let c = C(s.slice(0, -1), "\\");
        if ((s.length - c.length) % 2 === 0) return;
      } else {
        let c = Te(n[2], "()");
        if (c === -2) return;
        if (c > -1) {
          let d = (n[0].indexOf("!") === 0 ? 5 : 4) + n[1].length + c;
          n[2] = n[2].substring(0, c), n[0] = n[0].substring(0, d).trim(), n[3] = "";
        }
      }
      let o = C(n[0].slice(0, -1), "\\");
      if ((n[0].length - o.length) % 2 === 0) return;
      let i = n[2], a = "";
      if (this.options.pedantic) {
        let c = this.rules.other.pedanticHrefTitle.exec(i);
        c && (i = c[1], a = c[3]);
      } else a = n[3] ? n[3].slice(1, -1) : "";
      return i = i.trim(), this.rules.other.startAngleBracket.test(i) && (this.options.pedantic && !this.rules.other.endAngleBracket.test(s) ? i = i.slice(1) : i = i.slice(1, -1)), He(n, { href: i && i.replace(this.rules.inline.anyPunctuation, "$1"), title: a && a.replace(this.rules.inline.anyPunctuation, "$1") }, n[0], this.lexer, this.rules);
    }
  }
  reflink(e, t) {
    let n = e.charCodeAt(0);
    if (n !== 91 && n !== 33) return;
    let r;
    if ((r = this.rules.inline.reflink.exec(e)) || (r = this.rules.inline.nolink.exec(e))) {
      let s = r[0].charAt(0) === "!" ? 2 : 1;
      if (!this.options.pedantic && Ze(e, r[1], s, this.rules)) return;
      let o = t[W(r[2] || r[1])];
      if (!o) {
        let i = r[0].charAt(0);
        return { type: "text", raw: i, text: i };
      }
      return He(r, o, r[0], this.lexer, this.rules);
    }
  }
  emStrong(e, t, n = "") {
    let r = this.rules.inline.emStrongLDelim.exec(e);
    if (!r || !r[1] && !r[2] && !r[3] && !r[4]) return;
    let s = r[0][0], o = n === s, i = t.length - e.length, a = i;
    for (; !this.options.pedantic && a > 0 && t[a - 1] === s; ) a--;
    let c = [...t.slice(Math.max(0, a - 2), a)].at(-1) ?? "", u = c === "*" || c === "_" || !!this.rules.inline.punctuation.exec(c);
    a < i && (n = c);
    let d = a < i ? u : n === "*" || n === "_" || !!this.rules.inline.punctuation.exec(n);
    if (r[4] && n.match(this.rules.other.unicodeAlphaNumeric)) return;
    let h = r[1] || r[3] || "";
    if (!h || !n || d) {
      let p = [...r[0]].length - 1, k, m, b = p, f = 0, R = i - a + p, E = !this.options.pedantic && !!c.trim() && (!!h || s === "*" && !u);
      if (s !== "*" && s !== "_") return;
      let T = s === "*" ? this.rules.inline.emStrongRDelimAst : this.rules.inline.emStrongRDelimUnd, U = oe(this, t, s), H = t.length - e.length + p;
      if (U < H) return;
      t = t.slice(-1 * e.length + p);
      let K = U - H;
      for (T.lastIndex = 0; (r = T.exec(t)) !== null && !(r.index > K); ) {
        if (k = r[1] || r[2] || r[3] || r[4] || r[5] || r[6], !k) continue;
        if (m = [...k].length, r[3] || r[4]) {
          b += m;
          continue;
        } else if ((r[5] || r[6] || E) && R % 3 && !((R + m) % 3)) {
          if (o && (r[5] || r[6])) break;
          f += m;
          continue;
        }
        if (b -= m, b > 0) continue;
        m = Math.min(m, m + b + f);
        let re = [...r[0]][0].length, B = e.slice(0, p + r.index + re + m);
        if (Math.min(p, m) % 2) {
          let se = B.slice(1, -1);
          return { type: "em", raw: B, text: se, tokens: this.lexer.inlineTokens(se) };
        }
        let X = B.slice(2, -2);
        return { type: "strong", raw: B, text: X, tokens: this.lexer.inlineTokens(X) };
      }
    }
  }
  codespan(e) {
    if (e.charCodeAt(0) !== 96) return;
    let t = this.rules.inline.code.exec(e);
    if (t) {
      let n = t[2].replace(this.rules.other.newLineCharGlobal, " "), r = this.rules.other.nonSpaceChar.test(n), s = this.rules.other.startingSpaceChar.test(n) && this.rules.other.endingSpaceChar.test(n);
      return r && s && (n = n.substring(1, n.length - 1)), { type: "codespan", raw: t[0], text: n };
    }
  }
  br(e) {
    let t = e.charCodeAt(0);
    if (t !== 32 && t !== 92 && t !== 10) return;
    let n = this.rules.inline.br.exec(e);
    if (n) return { type: "br", raw: n[0] };
  }
  del(e, t, n = "") {
    if (e.charCodeAt(0) !== 126) return;
    let r = this.rules.inline.delLDelim.exec(e);
    if (!r) return;
    if (!(r[1] || "") || !n || this.rules.inline.punctuation.exec(n)) {
      let o = [...r[0]].length - 1, i, a, c = o, u = this.rules.inline.delRDelim, d = ae(this, t), h = t.length - e.length + o;
      if (d < h) return;
      t = t.slice(-1 * e.length + o);
      let p = d - h;
      for (u.lastIndex = 0; (r = u.exec(t)) !== null && !(r.index > p); ) {
        if (i = r[1] || r[2] || r[3] || r[4] || r[5] || r[6], !i || (a = [...i].length, a !== o)) continue;
        if (r[3] || r[4]) {
          c += a;
          continue;
        }
        if (c -= a, c > 0) continue;
        a = Math.min(a, a + c);
        let k = [...r[0]][0].length, m = e.slice(0, o + r.index + k + a), b = m.slice(o, -o);
        return { type: "del", raw: m, text: b, tokens: this.lexer.inlineTokens(b) };
      }
    }
  }
  autolink(e) {
    if (e.charCodeAt(0) !== 60) return;
    let t = this.rules.inline.autolink.exec(e);
    if (t) {
      let n, r;
      return t[2] === "@" ? (n = t[1], r = "mailto:" + n) : (n = t[1], r = n), { type: "link", raw: t[0], text: n, href: r, autolink: true, tokens: [{ type: "text", raw: n, text: n }] };
    }
  }
  url(e) {
    let t;
    if (t = this.rules.inline.url.exec(e)) {
      let n, r;
      if (t[2] === "@") n = t[0], r = "mailto:" + n;
      else {
        let s;
        do
          s = t[0], t[0] = this.rules.inline._backpedal.exec(t[0])?.[0] ?? "";
        while (s !== t[0]);
        n = t[0], t[1] === "www." ? r = "http://" + t[0] : r = t[0];
      }
      return { type: "link", raw: t[0], text: n, href: r, autolink: true, tokens: [{ type: "text", raw: n, text: n }] };
    }
  }
  inlineText(e) {
    let t = this.rules.inline.text.exec(e);
    if (t) {
      let n = this.lexer.state.inRawBlock;
      return { type: "text", raw: t[0], text: n ? t[0] : De(t[0]), escaped: n };
    }
  }
};
var w = class l {
  tokens;
  options;
  state;
  inlineQueue;
  tokenizer;
  constructor(e) {
    this.tokens = [], this.tokens.links = /* @__PURE__ */ Object.create(null), this.options = e || S, this.options.tokenizer = this.options.tokenizer || new _(), this.tokenizer = this.options.tokenizer, this.tokenizer.options = this.options, this.tokenizer.lexer = this, this.inlineQueue = [], this.state = { inLink: false, inRawBlock: false, linkEmitted: false, linkParenPossible: true, top: true };
    let t = { other: O, block: ee.normal, inline: F.normal };
    this.options.pedantic ? (t.block = ee.pedantic, t.inline = F.pedantic) : this.options.gfm && (t.block = ee.gfm, this.options.breaks ? t.inline = F.breaks : t.inline = F.gfm), this.tokenizer.rules = t;
  }
  static get rules() {
    return { block: ee, inline: F };
  }
  static lex(e, t) {
    return new l(t).lex(e);
  }
  static lexInline(e, t) {
    return new l(t).inlineTokens(e);
  }
  lex(e) {
    e = e.replace(O.carriageReturn, `
`), this.blockTokens(e, this.tokens);
    for (let t = 0; t < this.inlineQueue.length; t++) {
      let n = this.inlineQueue[t];
      this.state.inRawBlock = false, this.inlineTokens(n.src, n.tokens);
    }
    return this.inlineQueue = [], this.tokens;
  }
  blockTokens(e, t = [], n = false) {
    this.tokenizer.lexer = this;
    let r = this.state.lastToken;
    this.options.pedantic && (e = e.replace(O.tabCharGlobal, "    ").replace(O.spaceLine, ""));
    let s = 1 / 0, o, i = this.options.gfm && !this.options.pedantic && this.tokenizer.paragraph === _.prototype.paragraph;
    for (; e; ) {
      if (e.length < s) s = e.length;
      else {
        this.infiniteLoopError(e.charCodeAt(0));
        break;
      }
      this.state.lastToken = t.at(-1);
      let a;
      if (this.options.extensions?.block?.some((u) => (a = u.call({ lexer: this }, e, t)) ? (e = e.substring(a.raw.length), t.push(a), true) : false)) continue;
      if (a = this.tokenizer.space(e)) {
        e = e.substring(a.raw.length);
        let u = t.at(-1);
        a.raw.length === 1 && u !== void 0 ? u.raw += `
` : t.push(a);
        continue;
      }
      if (a = this.tokenizer.code(e)) {
        e = e.substring(a.raw.length);
        let u = t.at(-1);
        u?.type === "paragraph" || u?.type === "text" ? (u.raw += (u.raw.endsWith(`
`) ? "" : `
`) + a.raw, u.text += `
` + a.text, this.inlineQueue.at(-1).src = u.text) : t.push(a);
        continue;
      }
      if (a = this.tokenizer.fences(e)) {
        e = e.substring(a.raw.length), t.push(a);
        continue;
      }
      if (a = this.tokenizer.heading(e)) {
        e = e.substring(a.raw.length), t.push(a);
        continue;
      }
      if (a = this.tokenizer.hr(e)) {
        e = e.substring(a.raw.length), t.push(a);
        continue;
      }
      if (a = this.tokenizer.blockquote(e)) {
        e = e.substring(a.raw.length), t.push(a);
        continue;
      }
      if (a = this.tokenizer.list(e)) {
        e = e.substring(a.raw.length), t.push(a);
        continue;
      }
      if (a = this.tokenizer.html(e)) {
        e = e.substring(a.raw.length), t.push(a);
        continue;
      }
      if (a = this.tokenizer.def(e)) {
        e = e.substring(a.raw.length);
        let u = t.at(-1);
        u?.type === "paragraph" || u?.type === "text" ? (u.raw += (u.raw.endsWith(`
`) ? "" : `
`) + a.raw, u.text += `
` + a.raw, this.inlineQueue.at(-1).src = u.text) : (this.tokens.links[a.tag] || (this.tokens.links[a.tag] = { href: a.href, title: a.title }), t.push(a));
        continue;
      }
      if (a = this.tokenizer.table(e)) {
        e = e.substring(a.raw.length), t.push(a);
        continue;
      }
      if (a = this.tokenizer.lheading(e)) {
        e = e.substring(a.raw.length), t.push(a);
        continue;
      }
      let c = e;
      if (this.options.extensions?.startBlock) {
        let u = 1 / 0, d = e.slice(1), h;
        this.options.extensions.startBlock.forEach((p) => {
          h = p.call({ lexer: this }, d), typeof h == "number" && h >= 0 && (u = Math.min(u, h));
        }), u < 1 / 0 && u >= 0 && (c = e.substring(0, u + 1));
      }
      if (this.state.top && (a = this.tokenizer.paragraph(c))) {
        let u = t.at(-1);
        (n || u === o && i) && u?.type === "paragraph" ? (u.raw += (u.raw.endsWith(`
`) ? "" : `
`) + a.raw, u.text += `
` + a.text, this.inlineQueue.pop(), this.inlineQueue.at(-1).src = u.text, o = u) : (t.push(a), o = a), n = c.length !== e.length, e = e.substring(a.raw.length);
        continue;
      }
      if (a = this.tokenizer.text(e)) {
        e = e.substring(a.raw.length);
        let u = t.at(-1);
        u?.type === "text" ? (u.raw += (u.raw.endsWith(`
`) ? "" : `
`) + a.raw, u.text += `
` + a.text, this.inlineQueue.pop(), this.inlineQueue.at(-1).src = u.text) : t.push(a);
        continue;
      }
      if (e) {
        this.infiniteLoopError(e.charCodeAt(0));
        break;
      }
    }
    return this.state.top = true, this.state.lastToken = r, t;
  }
  inline(e, t = []) {
    return this.inlineQueue.push({ src: e, tokens: t }), t;
  }
  linkInText(e) {
    if (!e.includes("[")) return false;
    let t = this.tokenizer.rules.inline.link;
    for (let n of e.matchAll(this.tokenizer.rules.inline.blockSkip)) if (t.test(n[0]) && e.charAt(n.index - 1) !== "!") return true;
    for (let n of e.matchAll(this.tokenizer.rules.inline.reflinkSearch)) {
      let r = n[0], s = r.lastIndexOf("[");
      if (!(r.charAt(0) === "!" || !Object.hasOwn(this.tokens.links, W(r.slice(s + 1, -1)))) && !(s > 1 && this.linkInText(r.slice(1, s - 1)))) return true;
    }
    return false;
  }
  inlineTokens(e, t = []) {
    this.tokenizer.lexer = this;
    let n = this.state.linkParenPossible;
    this.state.linkParenPossible = e.includes(")");
    try {
      return this.#t(e, t);
    } finally {
      this.state.linkParenPossible = n;
    }
  }
  #t(e, t) {
    let n = e.includes("*") || e.includes("_") || e.includes("~"), r = n || this.options.hooks?.emStrongMask || this.tokenizer.emStrong !== _.prototype.emStrong || this.tokenizer.del !== _.prototype.del ? this.#r(e) : e;
    if (!n) return this.#e(e, r, t);
    qe(this.tokenizer, r);
    try {
      return this.#e(e, r, t);
    } finally {
      ve(this.tokenizer);
    }
  }
  #e(e, t, n) {
    let r = false, s = "", o = 1 / 0;
    for (; e; ) {
      if (e.length < o) o = e.length;
      else {
        this.infiniteLoopError(e.charCodeAt(0));
        break;
      }
      r || (s = ""), r = false;
      let i;
      if (this.options.extensions?.inline?.some((u) => (i = u.call({ lexer: this }, e, n)) ? (e = e.substring(i.raw.length), n.push(i), true) : false)) continue;
      if (i = this.tokenizer.escape(e)) {
        e = e.substring(i.raw.length), n.push(i);
        continue;
      }
      if (i = this.tokenizer.tag(e)) {
        e = e.substring(i.raw.length), n.push(i);
        continue;
      }
      if (i = this.tokenizer.link(e)) {
        e = e.substring(i.raw.length), n.push(i);
        continue;
      }
      if (i = this.tokenizer.reflink(e, this.tokens.links)) {
        e = e.substring(i.raw.length);
        let u = n.at(-1);
        i.type === "text" && u?.type === "text" ? (u.raw += i.raw, u.text += i.text) : n.push(i);
        continue;
      }
      let a = e[0];
      if (a === "*" || a === "_") {
        let u = t.length - e.length;
        if (oe(this.tokenizer, t, a) <= u) {
          let h = 1;
          for (; h < e.length && e.charCodeAt(h) === a.charCodeAt(0); ) h++;
          let p = e.substring(0, h), k = n.at(-1);
          k?.type === "text" && !k.escaped ? (k.raw += p, k.text += p) : n.push({ type: "text", raw: p, text: p, escaped: false }), e = e.substring(h), s = a, r = true;
          continue;
        }
      } else if (a === "~") {
        let u = t.length - e.length;
        if (ae(this.tokenizer, t) <= u) {
          let h = 1;
          for (; h < e.length && e.charCodeAt(h) === 126; ) h++;
          let p = e.substring(0, h), k = n.at(-1);
          k?.type === "text" && !k.escaped ? (k.raw += p, k.text += p) : n.push({ type: "text", raw: p, text: p, escaped: false }), e = e.substring(h), s = a, r = true;
          continue;
        }
      }
      if (i = this.tokenizer.emStrong(e, t, s)) {
        e = e.substring(i.raw.length), n.push(i);
        continue;
      }
      if (i = this.tokenizer.codespan(e)) {
        e = e.substring(i.raw.length), n.push(i);
        continue;
      }
      if (i = this.tokenizer.br(e)) {
        e = e.substring(i.raw.length), n.push(i);
        continue;
      }
      if (i = this.tokenizer.del(e, t, s)) {
        e = e.substring(i.raw.length), n.push(i);
        continue;
      }
      if (i = this.tokenizer.autolink(e)) {
        e = e.substring(i.raw.length), n.push(i);
        continue;
      }
      if (!this.state.inLink && (i = this.tokenizer.url(e))) {
        e = e.substring(i.raw.length), n.push(i);
        continue;
      }
      let c = e;
      if (this.options.extensions?.startInline) {
        let u = 1 / 0, d = e.slice(1), h;
        this.options.extensions.startInline.forEach((p) => {
          h = p.call({ lexer: this }, d), typeof h == "number" && h >= 0 && (u = Math.min(u, h));
        }), u < 1 / 0 && u >= 0 && (c = e.substring(0, u + 1));
      }
      if (i = this.tokenizer.inlineText(c)) {
        e = e.substring(i.raw.length), i.raw.slice(-1) !== "_" && (s = i.raw.slice(-1)), r = true;
        let u = n.at(-1);
        u?.type === "text" ? (u.raw += i.raw, u.text += i.text) : n.push(i);
        continue;
      }
      if (e) {
        this.infiniteLoopError(e.charCodeAt(0));
        break;
      }
    }
    return n;
  }
  #n(e) {
    let { blockSkip: t, tag: n, autolink: r } = this.tokenizer.rules.inline, s = "", o = 0, i;
    for (t.lastIndex = 0; i = t.exec(e); ) {
      let a = i.index + (i[2] ? i[2].length : 0), c = i.index + i[0].length;
      if (e.charAt(a) === "<") {
        let u = e.slice(a), d = n.exec(u) || r.exec(u);
        if (!d) {
          t.lastIndex = a + 1;
          continue;
        }
        c = a + d[0].length, t.lastIndex = c;
      }
      s += e.slice(o, a) + "[" + "a".repeat(c - a - 2) + "]", o = c;
    }
    return s + e.slice(o);
  }
  #r(e) {
    let t = e;
    if (this.tokens.links && e.includes("[")) {
      let n = this.tokenizer.rules.inline.reflinkSearch, r = (s) => {
        let o = s.lastIndexOf("[");
        if (!Object.hasOwn(this.tokens.links, W(s.slice(o + 1, -1)))) return s;
        if (o > 1 && s.charAt(0) !== "!") {
          let i = s.slice(1, o - 1);
          if (this.linkInText(i)) return "[" + i.replace(n, r) + "][" + "a".repeat(s.length - o - 2) + "]";
        }
        return "[" + "a".repeat(s.length - 2) + "]";
      };
      t = t.replace(n, r);
    }
    return t = t.replace(this.tokenizer.rules.inline.anyPunctuationOutsideCode, (n, r, s) => s ? "+".repeat(n.length) : r ? r + n.slice(r.length, -r.length).replace(/`/g, "+") + r : n), t = this.#n(t), t = this.options.hooks?.emStrongMask?.call({ lexer: this }, t) ?? t, t;
  }
  infiniteLoopError(e) {
    let t = "Infinite loop on byte: " + e;
    if (this.options.silent) console.error(t);
    else throw new Error(t);
  }
};
var I = class {
  options;
  parser;
  constructor(e) {
    this.options = e || S;
  }
  space(e) {
    return "";
  }
  code({ text: e, lang: t, escaped: n }) {
    let r = (t || "").match(O.notSpaceStart)?.[0], s = e ? e.replace(O.endingNewline, "") + `
` : "";
    return r ? '<pre><code class="language-' + y(r) + '">' + (n ? s : y(s, true)) + `</code></pre>
` : "<pre><code>" + (n ? s : y(s, true)) + `</code></pre>
`;
  }
  blockquote({ tokens: e }) {
    return `<blockquote>
${this.parser.parse(e)}</blockquote>
`;
  }
  html({ text: e }) {
    return e;
  }
  def(e) {
    return "";
  }
  heading({ tokens: e, depth: t }) {
    return `<h${t}>${this.parser.parseInline(e)}</h${t}>
`;
  }
  hr(e) {
    return `<hr>
`;
  }
  list(e) {
    let t = e.ordered, n = e.start, r = "";
    for (let i = 0; i < e.items.length; i++) {
      let a = e.items[i];
      r += this.listitem(a);
    }
    let s = t ? "ol" : "ul", o = t && n !== 1 ? ' start="' + n + '"' : "";
    return "<" + s + o + `>
` + r + "</" + s + `>
`;
  }
  listitem(e) {
    return `<li>${this.parser.parse(e.tokens)}</li>
`;
  }
  checkbox({ checked: e }) {
    return "<input " + (e ? 'checked="" ' : "") + 'disabled="" type="checkbox"> ';
  }
  paragraph({ tokens: e }) {
    return `<p>${this.parser.parseInline(e)}</p>
`;
  }
  table(e) {
    let t = "", n = "";
    for (let s = 0; s < e.header.length; s++) n += this.tablecell(e.header[s]);
    t += this.tablerow({ text: n });
    let r = "";
    for (let s = 0; s < e.rows.length; s++) {
      let o = e.rows[s];
      n = "";
      for (let i = 0; i < o.length; i++) n += this.tablecell(o[i]);
      r += this.tablerow({ text: n });
    }
    return r && (r = `<tbody>${r}</tbody>`), `<table>
<thead>
` + t + `</thead>
` + r + `</table>
`;
  }
  tablerow({ text: e }) {
    return `<tr>
${e}</tr>
`;
  }
  tablecell(e) {
    let t = this.parser.parseInline(e.tokens), n = e.header ? "th" : "td";
    return (e.align ? `<${n} align="${e.align}">` : `<${n}>`) + t + `</${n}>
`;
  }
  strong({ tokens: e }) {
    return `<strong>${this.parser.parseInline(e)}</strong>`;
  }
  em({ tokens: e }) {
    return `<em>${this.parser.parseInline(e)}</em>`;
  }
  codespan({ text: e }) {
    return `<code>${y(e, true)}</code>`;
  }
  br(e) {
    return "<br>";
  }
  del({ tokens: e }) {
    return `<del>${this.parser.parseInline(e)}</del>`;
  }
  link({ href: e, title: t, text: n, tokens: r, autolink: s }) {
    let o = s ? y(n, true) : this.parser.parseInline(r), i = xe(e);
    if (i === null) return o;
    e = y(i, s);
    let a = '<a href="' + e + '"';
    return t && (a += ' title="' + y(t) + '"'), a += ">" + o + "</a>", a;
  }
  image({ href: e, title: t, text: n, tokens: r }) {
    r && (n = this.parser.parseInline(r, this.parser.textRenderer));
    let s = xe(e);
    if (s === null) return y(n);
    e = s;
    let o = `<img src="${y(e)}" alt="${y(n)}"`;
    return t && (o += ` title="${y(t)}"`), o += ">", o;
  }
  text(e) {
    return "tokens" in e && e.tokens ? this.parser.parseInline(e.tokens) : "escaped" in e && e.escaped ? e.text : y(e.text);
  }
};
var z = class {
  parser;
  strong({ text: e, tokens: t }) {
    return t ? this.parser.parseInline(t, this) : e;
  }
  em({ text: e, tokens: t }) {
    return t ? this.parser.parseInline(t, this) : e;
  }
  codespan({ text: e }) {
    return e;
  }
  del({ text: e, tokens: t }) {
    return t ? this.parser.parseInline(t, this) : e;
  }
  html({ text: e }) {
    return e;
  }
  text({ text: e }) {
    return e;
  }
  link({ text: e, tokens: t }) {
    return t ? this.parser.parseInline(t, this) : e;
  }
  image({ text: e, tokens: t }) {
    return t ? this.parser.parseInline(t, this) : e;
  }
  br() {
    return `
`;
  }
  checkbox({ raw: e }) {
    return e;
  }
};
var P = class l2 {
  options;
  renderer;
  textRenderer;
  constructor(e) {
    this.options = e || S, this.options.renderer = this.options.renderer || new I(), this.renderer = this.options.renderer, this.renderer.options = this.options, this.renderer.parser = this, this.textRenderer = new z(), this.textRenderer.parser = this;
  }
  static parse(e, t) {
    return new l2(t).parse(e);
  }
  static parseInline(e, t) {
    return new l2(t).parseInline(e);
  }
  parse(e) {
    this.renderer.parser = this;
    let t = "";
    for (let n = 0; n < e.length; n++) {
      let r = e[n];
      if (this.options.extensions?.renderers?.[r.type]) {
        let o = r, i = this.options.extensions.renderers[o.type].call({ parser: this }, o);
        if (i !== false || !["space", "hr", "heading", "code", "table", "blockquote", "list", "checkbox", "html", "def", "paragraph", "text"].includes(o.type)) {
          t += i === false ? "" : i ?? "";
          continue;
        }
      }
      let s = r;
      switch (s.type) {
        case "space": {
          t += this.renderer.space(s);
          break;
        }
        case "hr": {
          t += this.renderer.hr(s);
          break;
        }
        case "heading": {
          t += this.renderer.heading(s);
          break;
        }
        case "code": {
          t += this.renderer.code(s);
          break;
        }
        case "table": {
          t += this.renderer.table(s);
          break;
        }
        case "blockquote": {
          t += this.renderer.blockquote(s);
          break;
        }
        case "list": {
          t += this.renderer.list(s);
          break;
        }
        case "checkbox": {
          t += this.renderer.checkbox(s);
          break;
        }
        case "html": {
          t += this.renderer.html(s);
          break;
        }
        case "def": {
          t += this.renderer.def(s);
          break;
        }
        case "paragraph": {
          t += this.renderer.paragraph(s);
          break;
        }
        case "text": {
          t += this.renderer.text(s);
          break;
        }
        default: {
          let o = 'Token with "' + s.type + '" type was not found.';
          if (this.options.silent) return console.error(o), "";
          throw new Error(o);
        }
      }
    }
    return t;
  }
  parseInline(e, t = this.renderer) {
    this.renderer.parser = this;
    let n = "";
    for (let r = 0; r < e.length; r++) {
      let s = e[r];
      if (this.options.extensions?.renderers?.[s.type]) {
        let i = this.options.extensions.renderers[s.type].call({ parser: this }, s);
        if (i !== false || !["escape", "html", "link", "image", "checkbox", "strong", "em", "codespan", "br", "del", "text"].includes(s.type)) {
          n += i === false ? "" : i ?? "";
          continue;
        }
      }
      let o = s;
      switch (o.type) {
        case "escape": {
          n += t.text(o);
          break;
        }
        case "html": {
          n += t.html(o);
          break;
        }
        case "link": {
          n += t.link(o);
          break;
        }
        case "image": {
          n += t.image(o);
          break;
        }
        case "checkbox": {
          n += t.checkbox(o);
          break;
        }
        case "strong": {
          n += t.strong(o);
          break;
        }
        case "em": {
          n += t.em(o);
          break;
        }
        case "codespan": {
          n += t.codespan(o);
          break;
        }
        case "br": {
          n += t.br(o);
          break;
        }
        case "del": {
          n += t.del(o);
          break;
        }
        case "text": {
          n += t.text(o);
          break;
        }
        default: {
          let i = 'Token with "' + o.type + '" type was not found.';
          if (this.options.silent) return console.error(i), "";
          throw new Error(i);
        }
      }
    }
    return n;
  }
};
var A = class {
  options;
  block;
  constructor(e) {
    this.options = e || S;
  }
  static passThroughHooks = /* @__PURE__ */ new Set(["preprocess", "postprocess", "processAllTokens", "emStrongMask"]);
  static passThroughHooksRespectAsync = /* @__PURE__ */ new Set(["preprocess", "postprocess", "processAllTokens"]);
  preprocess(e) {
    return e;
  }
  postprocess(e) {
    return e;
  }
  processAllTokens(e) {
    return e;
  }
  emStrongMask(e) {
    return e;
  }
  provideLexer(e = this.block) {
    return e ? w.lex : w.lexInline;
  }
  provideParser(e = this.block) {
    return e ? P.parse : P.parseInline;
  }
};
function M(l3, e) {
  if (Array.isArray(e)) for (let t = 0; t < e.length; t++) l3.push(e[t]);
  else l3.push(e);
}
var ne = class {
  defaults = G();
  options = this.setOptions;
  parse = this.parseMarkdown(true);
  parseInline = this.parseMarkdown(false);
  Parser = P;
  Renderer = I;
  TextRenderer = z;
  Lexer = w;
  Tokenizer = _;
  Hooks = A;
  constructor(...e) {
    this.use(...e);
  }
  walkTokens(e, t) {
    let n = [];
    for (let r of e) switch (M(n, t.call(this, r)), r.type) {
      case "table": {
        let s = r;
        for (let o of s.header) M(n, this.walkTokens(o.tokens, t));
        for (let o of s.rows) for (let i of o) M(n, this.walkTokens(i.tokens, t));
        break;
      }
      case "list": {
        let s = r;
        M(n, this.walkTokens(s.items, t));
        break;
      }
      default: {
        let s = r;
        this.defaults.extensions?.childTokens?.[s.type] ? this.defaults.extensions.childTokens[s.type].forEach((o) => {
          let i = s[o].flat(1 / 0);
          M(n, this.walkTokens(i, t));
        }) : s.tokens && M(n, this.walkTokens(s.tokens, t));
      }
    }
    return n;
  }
  use(...e) {
    let t = this.defaults.extensions || { renderers: /* @__PURE__ */ Object.create(null), childTokens: /* @__PURE__ */ Object.create(null) };
    return e.forEach((n) => {
      let r = { ...n };
      if (r.async = this.defaults.async || r.async || false, n.extensions && (n.extensions.forEach((s) => {
        if (!s.name) throw new Error("extension name required");
        if ("renderer" in s) {
          let o = t.renderers[s.name];
          o ? t.renderers[s.name] = function(...i) {
            let a = s.renderer.apply(this, i);
            return a === false && (a = o.apply(this, i)), a;
          } : t.renderers[s.name] = s.renderer;
        }
        if ("tokenizer" in s) {
          if (!s.level || s.level !== "block" && s.level !== "inline") throw new Error("extension level must be 'block' or 'inline'");
          let o = t[s.level];
          o ? o.unshift(s.tokenizer) : t[s.level] = [s.tokenizer], s.start && (s.level === "block" ? t.startBlock ? t.startBlock.push(s.start) : t.startBlock = [s.start] : s.level === "inline" && (t.startInline ? t.startInline.push(s.start) : t.startInline = [s.start]));
        }
        "childTokens" in s && s.childTokens && (t.childTokens[s.name] = s.childTokens);
      }), r.extensions = t), n.renderer) {
        let s = this.defaults.renderer || new I(this.defaults);
        for (let o in n.renderer) {
          if (!(o in s)) throw new Error(`renderer '${o}' does not exist`);
          if (["options", "parser"].includes(o)) continue;
          let i = o, a = n.renderer[i], c = s[i];
          s[i] = (...u) => {
            let d = a.apply(s, u);
            return d === false && (d = c.apply(s, u)), d === false ? "" : d ?? "";
          };
        }
        r.renderer = s;
      }
      if (n.tokenizer) {
        let s = this.defaults.tokenizer || new _(this.defaults);
        for (let o in n.tokenizer) {
          if (!(o in s)) throw new Error(`tokenizer '${o}' does not exist`);
          if (["options", "rules", "lexer"].includes(o)) continue;
          let i = o, a = n.tokenizer[i], c = s[i];
          s[i] = (...u) => {
            let d = a.apply(s, u);
            return d === false && (d = c.apply(s, u)), d;
          };
        }
        r.tokenizer = s;
      }
      if (n.hooks) {
        let s = this.defaults.hooks || new A();
        for (let o in n.hooks) {
          if (!(o in s)) throw new Error(`hook '${o}' does not exist`);
          if (["options", "block"].includes(o)) continue;
          let i = o, a = n.hooks[i], c = s[i];
          A.passThroughHooks.has(o) ? s[i] = (u) => {
            if (s.options.async && A.passThroughHooksRespectAsync.has(o)) return (async () => {
              let h = await a.call(s, u);
              return c.call(s, h);
            })();
            let d = a.call(s, u);
            return c.call(s, d);
          } : s[i] = (...u) => {
            if (s.options.async) return (async () => {
              let h = await a.apply(s, u);
              return h === false && (h = await c.apply(s, u)), h;
            })();
            let d = a.apply(s, u);
            return d === false && (d = c.apply(s, u)), d;
          };
        }
        r.hooks = s;
      }
      if (n.walkTokens) {
        let s = this.defaults.walkTokens, o = n.walkTokens;
        r.walkTokens = function(i) {
          let a = [];
          return M(a, o.call(this, i)), s && M(a, s.call(this, i)), a;
        };
      }
      this.defaults = { ...this.defaults, ...r };
    }), this;
  }
  setOptions(e) {
    return this.defaults = { ...this.defaults, ...e }, this;
  }
  lexer(e, t) {
    return w.lex(e, t ?? this.defaults);
  }
  parser(e, t) {
    return P.parse(e, t ?? this.defaults);
  }
  parseMarkdown(e) {
    return (n, r) => {
      let s = { ...r }, o = { ...this.defaults, ...s }, i = this.onError(!!o.silent, !!o.async);
      if (this.defaults.async === true && s.async === false) return i(new Error("marked(): The async option was set to true by an extension. Remove async: false from the parse options object to return a Promise."));
      if (typeof n > "u" || n === null) return i(new Error("marked(): input parameter is undefined or null"));
      if (typeof n != "string") return i(new Error("marked(): input parameter is of type " + Object.prototype.toString.call(n) + ", string expected"));
      if (o.hooks && (o.hooks.options = o, o.hooks.block = e), o.async) return (async () => {
        let a = o.hooks ? await o.hooks.preprocess(n) : n, u = await (o.hooks ? await o.hooks.provideLexer(e) : e ? w.lex : w.lexInline)(a, o), d = o.hooks ? await o.hooks.processAllTokens(u) : u;
        o.walkTokens && await Promise.all(this.walkTokens(d, o.walkTokens));
        let p = await (o.hooks ? await o.hooks.provideParser(e) : e ? P.parse : P.parseInline)(d, o);
        return o.hooks ? await o.hooks.postprocess(p) : p;
      })().catch(i);
      try {
        o.hooks && (n = o.hooks.preprocess(n));
        let c = (o.hooks ? o.hooks.provideLexer(e) : e ? w.lex : w.lexInline)(n, o);
        o.hooks && (c = o.hooks.processAllTokens(c)), o.walkTokens && this.walkTokens(c, o.walkTokens);
        let d = (o.hooks ? o.hooks.provideParser(e) : e ? P.parse : P.parseInline)(c, o);
        return o.hooks && (d = o.hooks.postprocess(d)), d;
      } catch (a) {
        return i(a);
      }
    };
  }
  onError(e, t) {
    return (n) => {
      if (n.message += `
Please report this to https://github.com/markedjs/marked.`, e) {
        let r = "<p>An error occurred:</p><pre>" + y(n.message + "", true) + "</pre>";
        return t ? Promise.resolve(r) : r;
      }
      if (t) return Promise.reject(n);
      throw n;
    };
  }
};
var v = new ne();
function x(l3, e) {
  return v.parse(l3, e);
}
x.options = x.setOptions = function(l3) {
  return v.setOptions(l3), x.defaults = v.defaults, ue(x.defaults), x;
};
x.getDefaults = G;
x.defaults = S;
function jt(...l3) {
  return v.use(...l3), x.defaults = v.defaults, ue(x.defaults), x;
}
x.use = jt;
x.walkTokens = function(l3, e) {
  return v.walkTokens(l3, e);
};
x.parseInline = v.parseInline;
x.Parser = P;
x.parser = P.parse;
x.Renderer = I;
x.TextRenderer = z;
x.Lexer = w;
x.lexer = w.lex;
x.Tokenizer = _;
x.Hooks = A;
x.parse = x;
var En = x.options;
var zn = x.setOptions;
var Mn = x.walkTokens;
var Bn = x.parseInline;
var qn = P.parse;
var vn = w.lex;

// src/sandbox/wire/github-page.ts
var RELOAD_SECONDS = 5;
var STYLE = `body{font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#1f2328}
section{border-top:1px solid #d0d7de;margin-top:2em}
.state{border-radius:2em;padding:.1em .7em;color:#fff;font-size:12px;vertical-align:middle}
.open{background:#1f883d}.merged{background:#8250df}.closed{background:#cf222e}
.meta,.empty,header{color:#59636e}
article{border:1px solid #d0d7de;border-radius:6px;margin:1em 0}
article header{background:#f6f8fa;border-bottom:1px solid #d0d7de;padding:.5em 1em}
.markdown-body{padding:0 1em}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.2em .6em}
pre{background:#f6f8fa;padding:1em;overflow:auto}code{font-size:12px}
blockquote{border-left:.25em solid #d0d7de;margin:0;padding:0 1em;color:#59636e}`;
var escape = (text) => text.replace(
  /[&<>"']/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]
);
var markdown = (body) => x.parse(body.replace(/<!--[\s\S]*?-->\n?/g, ""), { gfm: true, async: false });
var short = (sha) => `<code>${escape(sha.slice(0, 7))}</code>`;
var time = (iso) => escape(iso.slice(0, 19).replace("T", " "));
function stateOf(p) {
  if (p.merged) return "merged";
  return p.state === "closed" ? "closed" : "open";
}
function comment(c) {
  const edited = c.updated_at !== c.created_at ? ` · edited ${time(c.updated_at)}` : "";
  return `<article><header><strong>${escape(c.user.login)}</strong> commented ${time(c.created_at)}${edited}</header>
<div class="markdown-body">${markdown(c.body)}</div></article>`;
}
function checkRun(r, where) {
  const said = [
    r.status,
    ...r.conclusion ? [r.conclusion] : [],
    ...r.output.title ? [r.output.title] : []
  ];
  const summary = r.output.summary ? `<details><summary>output</summary><div class="markdown-body">${markdown(r.output.summary)}</div></details>` : "";
  return `<li><strong>${escape(r.name)}</strong> on ${short(r.head_sha)} (${where}): ${escape(said.join(" · "))}${summary}</li>`;
}
function checkRuns(runs, where) {
  if (runs.length === 0) return `<p class="empty">no check runs</p>`;
  return `<ul>${runs.map((r) => checkRun(r, where(r.head_sha))).join("\n")}</ul>`;
}
function issue(v2, n, pull) {
  const comments = v2.comments.filter((c) => c.issue === n);
  const labels = v2.labels.get(n) ?? [];
  const state = pull ? stateOf(pull) : void 0;
  const meta = [
    ...pull ? [`head ${short(pull.headSha)}`] : [],
    ...pull?.mergeCommitSha ? [`merge commit ${short(pull.mergeCommitSha)}`] : [],
    ...pull ? [`changes ${pull.files.map((f) => `<code>${escape(f)}</code>`).join(", ")}`] : [],
    ...labels.length > 0 ? [`labels: ${labels.map(escape).join(", ")}`] : []
  ];
  const shas = pull ? [pull.headSha, ...pull.mergeCommitSha ? [pull.mergeCommitSha] : []] : [];
  const runs = v2.checkRuns.filter((r) => shas.includes(r.head_sha));
  return `<section id="pull-${n}">
<h2>#${n} ${escape(pull?.title ?? `Pull request #${n}`)}${state ? ` <span class="state ${state}">${state}</span>` : ""}</h2>
${meta.length > 0 ? `<p class="meta">${meta.join(" · ")}</p>` : ""}
${comments.length > 0 ? comments.map(comment).join("\n") : `<p class="empty">no comments</p>`}
${pull ? `<h3 class="runs">Check runs</h3>
${checkRuns(runs, (sha) => sha === pull.headSha ? "head" : "merge commit")}` : ""}
</section>`;
}
function gitHubPage(v2) {
  const numbers = [
    .../* @__PURE__ */ new Set([...v2.pulls.map((p) => p.number), ...v2.comments.map((c) => c.issue)])
  ].sort((a, b) => a - b);
  const known = new Set(v2.pulls.flatMap((p) => [p.headSha, p.mergeCommitSha]));
  const others = v2.checkRuns.filter((r) => !known.has(r.head_sha));
  const name = `${escape(v2.owner)}/${escape(v2.repo)}`;
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${RELOAD_SECONDS}">
<title>${name}: pull requests</title><style>${STYLE}</style></head>
<body><h1>${name} · pull requests</h1>
<p class="meta">The sandbox's GitHub (noderoll sandbox serve): what was posted to it, as GitHub would show it.</p>
${numbers.length > 0 ? numbers.map(
    (n) => issue(
      v2,
      n,
      v2.pulls.find((p) => p.number === n)
    )
  ).join("\n") : `<p class="empty">no pull requests</p>`}
${others.length > 0 ? `<section id="other-commits"><h2>Check runs on other commits</h2>
${checkRuns(others, () => "commit")}</section>` : ""}
</body></html>
`;
  return {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src data:",
      [RESOURCE_HEADER]: "page"
    },
    body
  };
}

// src/sandbox/wire/github-face.ts
var DOCS = "https://docs.github.com/rest";
var COMMENT_LIMIT = 65536;
var OUTPUT_LIMIT = 65535;
var ANNOTATIONS_PER_REQUEST = 50;
function error(status, message, resource, errors) {
  return json(
    status,
    { message, ...errors && { errors }, documentation_url: DOCS, status: String(status) },
    resource
  );
}
function page(req, items, resource, wrap) {
  const perPage = Math.min(100, Math.max(1, Number(req.query.get("per_page") ?? 30) || 30));
  const pageNo = Math.max(1, Number(req.query.get("page") ?? 1) || 1);
  const slice = items.slice((pageNo - 1) * perPage, pageNo * perPage);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n, rel) => {
    const q2 = new URLSearchParams(req.query);
    q2.set("page", String(n));
    q2.set("per_page", String(perPage));
    return `<${req.headers.host ? `http://${req.headers.host}` : ""}${req.path}?${q2}>; rel="${rel}"`;
  };
  const links = [];
  if (pageNo < last) links.push(link(pageNo + 1, "next"), link(last, "last"));
  if (pageNo > 1) links.push(link(1, "first"), link(pageNo - 1, "prev"));
  return json(
    200,
    wrap ? wrap(slice) : slice,
    resource,
    links.length ? { link: links.join(", ") } : {}
  );
}
var GitHubFace = class {
  constructor(options = {}, now = () => /* @__PURE__ */ new Date()) {
    this.options = options;
    this.now = now;
    this.owner = options.owner ?? "octo-org";
    this.repo = options.repo ?? "infra";
    this.pulls = options.pulls ?? [];
    this.readOnly = new Set(options.readOnlyTokens ?? []);
    for (const pull of this.pulls) if (pull.labels) this.labels.set(pull.number, [...pull.labels]);
  }
  options;
  now;
  name = "github";
  owner;
  repo;
  comments = [];
  checkRuns = [];
  /** Each issue's (pull request's) labels, by name, in the order added. */
  labels = /* @__PURE__ */ new Map();
  nextId = 1e3;
  /** Answers the next N requests with a secondary rate limit (403), as GitHub does. */
  throttleNext = 0;
  /**
   * The Retry-After those answers carry, in seconds; undefined: none, with the remaining
   * requests of the hour above 0 (GitHub does not always send one for a secondary limit).
   */
  throttleRetryAfter = "1";
  pulls;
  readOnly;
  /** The epoch second an hour from now (x-ratelimit-reset: when the hour's requests renew). */
  #inAnHour() {
    return Math.floor(this.now().getTime() / 1e3) + 3600;
  }
  handle(req) {
    if (req.method === "GET" && /^\/github\/?$/.test(req.path)) return this.page();
    const prefix = `/repos/${this.owner}/${this.repo}/`;
    if (!req.path.startsWith(prefix))
      return req.path.startsWith("/repos/") ? error(404, "Not Found", "repos") : void 0;
    const rest = req.path.slice(prefix.length).split("/");
    if (this.throttleNext > 0) {
      this.throttleNext--;
      const limited = error(
        403,
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        rest[0] ?? "repos"
      );
      const headers = this.throttleRetryAfter === void 0 ? { "x-ratelimit-remaining": "4000", "x-ratelimit-reset": String(this.#inAnHour()) } : { "retry-after": this.throttleRetryAfter };
      return { ...limited, headers: { ...limited.headers, ...headers } };
    }
    const token = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (!token) return error(401, "Requires authentication", rest[0] ?? "repos");
    if (req.method !== "GET" && this.readOnly.has(token))
      return error(403, "Resource not accessible by integration", rest[0] ?? "repos");
    let body = {};
    if (req.body) {
      try {
        body = JSON.parse(req.body);
      } catch {
        return error(400, "Problems parsing JSON", rest[0] ?? "repos");
      }
    }
    return this.route(req, rest, body);
  }
  route(req, p, body) {
    const [a, b, c, d] = p;
    const m = req.method;
    if (a === "issues" && c === "comments" && m === "GET")
      return page(
        req,
        this.comments.filter((x2) => x2.issue === Number(b)),
        "issue-comments"
      );
    if (a === "issues" && c === "comments" && m === "POST")
      return this.createComment(Number(b), body);
    if (a === "issues" && b === "comments" && c && m === "PATCH")
      return this.updateComment(Number(c), body);
    if (a === "issues" && b && c === "labels") return this.issueLabels(req, Number(b), d, body);
    if (a === "check-runs" && !b && m === "POST") return this.createCheckRun(body);
    if (a === "check-runs" && b && m === "PATCH") return this.updateCheckRun(Number(b), body);
    if (a === "check-runs" && b && m === "GET") return this.getCheckRun(Number(b));
    if (a === "pulls" && b && c === "merge" && m === "PUT") return this.merge(Number(b), body);
    if (a === "commits" && c === "check-runs" && m === "GET") {
      const runs = this.checkRuns.filter((r) => r.head_sha === b).map((r) => this.publicRun(r));
      return page(req, runs, "check-runs", (items) => ({
        total_count: runs.length,
        check_runs: items
      }));
    }
    if (a === "commits" && c === "pulls" && m === "GET") {
      return page(
        req,
        this.pulls.filter((x2) => x2.headSha === b || x2.mergeCommitSha === b).map((x2) => this.publicPull(x2)),
        "commit-pulls"
      );
    }
    if (a === "pulls" && b && !c && m === "GET") {
      const pull = this.pull(Number(b));
      return pull ? json(200, this.publicPull(pull), "pulls") : error(404, "Not Found", "pulls");
    }
    if (a === "pulls" && b && c === "files" && m === "GET") {
      const pull = this.pull(Number(b));
      if (!pull) return error(404, "Not Found", "pull-files");
      return page(
        req,
        pull.files.map((filename) => ({
          filename,
          status: "modified",
          additions: 1,
          deletions: 1,
          changes: 2
        })),
        "pull-files"
      );
    }
    return error(404, "Not Found", a ?? "repos");
  }
  /**
   * An issue's labels: list (GET), add (POST `{labels: [names]}`; a name the repository does not
   * have yet is created, as GitHub does), remove one (DELETE …/labels/{name}: 404 "Label does
   * not exist" when the issue does not carry it). Both changes answer with what it carries now.
   */
  issueLabels(req, issue2, encoded, body) {
    const now = this.labels.get(issue2) ?? [];
    const answer3 = (names, status = 200) => json(
      status,
      names.map((name) => this.label(name)),
      "issue-labels"
    );
    if (req.method === "GET" && !encoded)
      return page(
        req,
        now.map((n) => this.label(n)),
        "issue-labels"
      );
    if (req.method === "POST" && !encoded) {
      const names = body.labels;
      if (!Array.isArray(names) || names.some((n) => typeof n !== "string" || n.length === 0))
        return error(
          422,
          "Invalid request.\n\nFor 'properties/labels', nil is not an array.",
          "issue-labels"
        );
      const after = [...now, ...names.filter((n) => !now.includes(n))];
      this.labels.set(issue2, after);
      return answer3(after);
    }
    if (req.method === "DELETE" && encoded) {
      const name = decodeURIComponent(encoded);
      if (!now.includes(name)) return error(404, "Label does not exist", "issue-labels");
      const after = now.filter((n) => n !== name);
      this.labels.set(issue2, after);
      return answer3(after);
    }
    return error(404, "Not Found", "issue-labels");
  }
  label(name) {
    return {
      name,
      color: "ededed",
      default: false,
      url: `https://api.github.com/repos/${this.owner}/${this.repo}/labels/${encodeURIComponent(name)}`
    };
  }
  publicRun(run) {
    const { history: _history, annotations: _annotations, ...rest } = run;
    return { ...rest, html_url: `https://github.com/${this.owner}/${this.repo}/runs/${run.id}` };
  }
  /**
   * PUT …/pulls/{n}/merge, GitHub's "Merge a pull request": it closes, merged, with a merge
   * commit (a made-up sha, the same for the same pull request and head) that the pulls of a
   * commit lead back to — what a push event to the default branch then names. A `sha` other
   * than its head: 409; one closed already: 405 (GitHub's answers).
   */
  merge(n, body) {
    const pull = this.pulls.find((x2) => x2.number === n);
    if (!pull) return error(404, "Not Found", "pull-merge");
    if (pull.merged || pull.state === "closed")
      return error(405, "Pull Request is not mergeable", "pull-merge");
    if (body.sha !== void 0 && body.sha !== pull.headSha)
      return error(409, "Head branch was modified. Review and try the merge again.", "pull-merge");
    const sha = createHash("sha1").update(`merge ${this.owner}/${this.repo}#${n} ${pull.headSha}`).digest("hex");
    Object.assign(pull, { state: "closed", merged: true, mergeCommitSha: sha });
    pull.mergedAt = this.now().toISOString();
    return json(
      200,
      { sha, merged: true, message: "Pull Request successfully merged" },
      "pull-merge"
    );
  }
  /** GET /github/: the pull requests as a person reads them on GitHub (github-page.ts). */
  page() {
    const { owner, repo, pulls, comments, checkRuns: checkRuns2, labels } = this;
    return gitHubPage({ owner, repo, pulls, comments, checkRuns: checkRuns2, labels });
  }
  pull(n) {
    const known = this.pulls.find((x2) => x2.number === n);
    if (known || !this.options.unknownPullsChange) return known;
    return {
      number: n,
      headSha: `${n}`.padStart(40, "0"),
      files: [this.options.unknownPullsChange]
    };
  }
  publicPull(x2) {
    return {
      number: x2.number,
      state: x2.state ?? "open",
      title: x2.title ?? `Pull request #${x2.number}`,
      merged: x2.merged ?? false,
      merge_commit_sha: x2.mergeCommitSha ?? null,
      merged_at: x2.mergedAt ?? null,
      head: { sha: x2.headSha, ref: `branch-${x2.number}` },
      base: { ref: "main" },
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${x2.number}`
    };
  }
  createComment(issue2, body) {
    const problem = commentProblem(body.body);
    if (problem)
      return error(422, "Validation Failed", "issue-comments", [
        { resource: "IssueComment", code: "custom", field: "body", message: problem }
      ]);
    const at2 = this.now().toISOString();
    const id = this.nextId++;
    const comment2 = {
      id,
      issue: issue2,
      body: body.body,
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${issue2}#issuecomment-${id}`,
      user: { login: "github-actions[bot]", type: "Bot" },
      created_at: at2,
      updated_at: at2
    };
    this.comments.push(comment2);
    return json(201, comment2, "issue-comments");
  }
  updateComment(id, body) {
    const comment2 = this.comments.find((c) => c.id === id);
    if (!comment2) return error(404, "Not Found", "issue-comments");
    const problem = commentProblem(body.body);
    if (problem)
      return error(422, "Validation Failed", "issue-comments", [
        { resource: "IssueComment", code: "custom", field: "body", message: problem }
      ]);
    comment2.body = body.body;
    comment2.updated_at = this.now().toISOString();
    return json(200, comment2, "issue-comments");
  }
  createCheckRun(body) {
    if (typeof body.name !== "string" || typeof body.head_sha !== "string") {
      return error(422, `Invalid request.

"name", "head_sha" wasn't supplied.`, "check-runs");
    }
    const run = {
      id: this.nextId++,
      name: body.name,
      head_sha: body.head_sha,
      status: "queued",
      conclusion: null,
      output: { annotations_count: 0 },
      annotations: [],
      history: []
    };
    const problem = this.applyCheckRun(run, body);
    if (problem) return problem;
    this.checkRuns.push(run);
    return json(201, this.publicRun(run), "check-runs");
  }
  updateCheckRun(id, body) {
    const run = this.checkRuns.find((r) => r.id === id);
    if (!run) return error(404, "Not Found", "check-runs");
    return this.applyCheckRun(run, body) ?? json(200, this.publicRun(run), "check-runs");
  }
  getCheckRun(id) {
    const run = this.checkRuns.find((r) => r.id === id);
    return run ? json(200, this.publicRun(run), "check-runs") : error(404, "Not Found", "check-runs");
  }
  /** Checks GitHub's limits first, so a refused request changes nothing. */
  applyCheckRun(run, body) {
    const output = body.output ?? {};
    for (const field of ["summary", "text"]) {
      if ((output[field]?.length ?? 0) > OUTPUT_LIMIT) {
        return error(
          422,
          `Invalid request.

Only ${OUTPUT_LIMIT} characters are allowed in output.${field}; ${output[field]?.length} were supplied.`,
          "check-runs"
        );
      }
    }
    if ((output.annotations?.length ?? 0) > ANNOTATIONS_PER_REQUEST) {
      return error(
        422,
        `Invalid request.

Only ${ANNOTATIONS_PER_REQUEST} annotations are allowed per request; ${output.annotations?.length} were supplied.`,
        "check-runs"
      );
    }
    if (body.conclusion !== void 0 && body.status !== void 0 && body.status !== "completed") {
      return error(
        422,
        "Invalid request.\n\nA conclusion requires status completed.",
        "check-runs"
      );
    }
    if (typeof body.status === "string") run.status = body.status;
    if (typeof body.external_id === "string") run.external_id = body.external_id;
    if (typeof body.conclusion === "string") {
      run.conclusion = body.conclusion;
      run.status = "completed";
    }
    if (body.output) {
      run.output = {
        ...run.output,
        title: output.title ?? run.output.title,
        summary: output.summary ?? run.output.summary,
        text: output.text ?? run.output.text
      };
      run.annotations.push(...output.annotations ?? []);
      run.output.annotations_count = run.annotations.length;
    }
    run.history.push(body);
    return void 0;
  }
};
function commentProblem(body) {
  if (typeof body !== "string" || body.length === 0) return "body wasn't supplied.";
  if (body.length > COMMENT_LIMIT)
    return `Body is too long (maximum is ${COMMENT_LIMIT} characters)`;
  return void 0;
}

// src/sandbox/wire/kube-discovery.ts
var READ = ["get", "list", "watch"];
var res = (name, kind, namespaced, verbs, extra = {}) => ({
  name,
  singularName: name.includes("/") ? "" : kind.toLowerCase(),
  namespaced,
  kind,
  verbs,
  ...extra
});
var RESOURCES = {
  v1: [
    res("nodes", "Node", false, [...READ, "patch"], { shortNames: ["no"] }),
    res("pods", "Pod", true, [...READ, "delete"], { shortNames: ["po"] }),
    res("pods/eviction", "Eviction", true, ["create"], { group: "policy", version: "v1" }),
    res("persistentvolumeclaims", "PersistentVolumeClaim", true, ["get"], { shortNames: ["pvc"] }),
    res("persistentvolumes", "PersistentVolume", false, ["get"], { shortNames: ["pv"] })
  ],
  "apps/v1": [
    res("daemonsets", "DaemonSet", true, ["get", "list"], { shortNames: ["ds"] }),
    res("deployments", "Deployment", true, ["get", "list"], { shortNames: ["deploy"] }),
    res("replicasets", "ReplicaSet", true, ["get", "list"], { shortNames: ["rs"] }),
    res("statefulsets", "StatefulSet", true, ["get", "list"], { shortNames: ["sts"] })
  ],
  "policy/v1": [
    res("poddisruptionbudgets", "PodDisruptionBudget", true, ["list", "watch"], {
      shortNames: ["pdb"]
    })
  ],
  "coordination.k8s.io/v1": [res("leases", "Lease", true, ["create", "delete", "get", "update"])]
};
function versionDoc(minor) {
  const [major, min] = minor.split(".");
  return {
    major,
    minor: min,
    gitVersion: `v${minor}.0-eks-sandbox`,
    gitCommit: "0000000000000000000000000000000000000000",
    gitTreeState: "clean",
    buildDate: "2026-01-01T00:00:00Z",
    goVersion: "go1.24.0",
    compiler: "gc",
    platform: "linux/amd64"
  };
}
function apiVersionsDoc(host) {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: host }]
  };
}
function apiGroupListDoc() {
  const groups = Object.keys(RESOURCES).filter((gv) => gv.includes("/")).map((gv) => {
    const [name, version] = gv.split("/");
    const v2 = { groupVersion: gv, version };
    return { name, versions: [v2], preferredVersion: v2 };
  });
  return { kind: "APIGroupList", apiVersion: "v1", groups };
}
function apiGroupDoc(group2) {
  const gv = Object.keys(RESOURCES).find((k) => k.startsWith(`${group2}/`));
  if (!gv) return void 0;
  const v2 = { groupVersion: gv, version: gv.split("/")[1] };
  return { kind: "APIGroup", apiVersion: "v1", name: group2, versions: [v2], preferredVersion: v2 };
}
function resourceListDoc(groupVersion) {
  const resources = RESOURCES[groupVersion];
  if (!resources) return void 0;
  return { kind: "APIResourceList", apiVersion: "v1", groupVersion, resources };
}

// src/sandbox/wire/kube-patch.ts
var UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";
var PATCH_TYPES = [
  "application/json-patch+json",
  "application/merge-patch+json",
  "application/strategic-merge-patch+json"
];
function mergePatch(target, patch) {
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) return patch;
  const out = target && typeof target === "object" && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v2] of Object.entries(patch)) {
    if (k.startsWith("$")) continue;
    if (v2 === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v2);
  }
  return out;
}
function pointer(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw invalid(`invalid JSON pointer: ${path}`);
  return path.slice(1).split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}
function invalid(message) {
  return new KubeApiError(422, "Invalid", message);
}
function jsonPatch(doc, ops) {
  if (!Array.isArray(ops))
    throw new KubeApiError(400, "BadRequest", "a JSON patch is an array of operations");
  let root = structuredClone(doc);
  for (const raw of ops) {
    const parts = pointer(String(raw.path ?? ""));
    const last = parts.pop();
    let parent = root;
    for (const p of parts) {
      const next = Array.isArray(parent) ? parent[Number(p)] : parent && typeof parent === "object" ? parent[p] : void 0;
      if (next === void 0) throw invalid(`doc is missing path: ${raw.path}`);
      parent = next;
    }
    if (last === void 0) {
      if (raw.op === "replace" || raw.op === "add") root = raw.value ?? null;
      continue;
    }
    applyOp(parent, last, raw);
  }
  return root;
}
function applyOp(parent, key, op) {
  if (parent === null || typeof parent !== "object")
    throw invalid(`doc is missing path: ${op.path}`);
  const list2 = Array.isArray(parent) ? parent : void 0;
  const obj = parent;
  const index = key === "-" ? list2?.length ?? 0 : Number(key);
  const has = list2 ? index < list2.length : Object.hasOwn(obj, key);
  switch (op.op) {
    case "add":
      if (list2) list2.splice(index, 0, op.value ?? null);
      else obj[key] = op.value ?? null;
      return;
    case "replace":
      if (!has) throw invalid(`doc is missing key: ${op.path}`);
      if (list2) list2[index] = op.value ?? null;
      else obj[key] = op.value ?? null;
      return;
    case "remove":
      if (!has) throw invalid(`doc is missing key: ${op.path}`);
      if (list2) list2.splice(index, 1);
      else delete obj[key];
      return;
    case "test": {
      const current = list2 ? list2[index] : obj[key];
      if (JSON.stringify(current) !== JSON.stringify(op.value))
        throw invalid(`testing value ${op.path} failed`);
      return;
    }
    default:
      throw new KubeApiError(400, "BadRequest", `Unexpected kind: ${String(op.op)}`);
  }
}
function mapDiff(before, after) {
  const out = {};
  for (const k of Object.keys(before ?? {})) if (!after || !(k in after)) out[k] = null;
  for (const [k, v2] of Object.entries(after ?? {})) if (before?.[k] !== v2) out[k] = String(v2);
  return Object.keys(out).length ? out : void 0;
}
var realTaints = (t) => (t ?? []).filter((x2) => x2.key !== UNSCHEDULABLE_TAINT);
function nodePatchFrom(before, after, precondition) {
  const patch = {};
  const labels = mapDiff(before.metadata.labels, after.metadata?.labels);
  const annotations = mapDiff(before.metadata.annotations, after.metadata?.annotations);
  if (labels) patch.labels = labels;
  if (annotations) patch.annotations = annotations;
  const taints = realTaints(after.spec?.taints);
  if (JSON.stringify(realTaints(before.spec.taints)) !== JSON.stringify(taints))
    patch.taints = taints;
  const unschedulable = after.spec?.unschedulable === true;
  if (unschedulable !== (before.spec.unschedulable === true)) patch.unschedulable = unschedulable;
  if (precondition !== void 0) patch.resourceVersion = precondition;
  return patch;
}
function patchNodeBody(node, contentType, body) {
  const doc = node;
  if (contentType === "application/json-patch+json") {
    const after2 = jsonPatch(doc, body);
    return nodePatchFrom(node, after2);
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw new KubeApiError(400, "BadRequest", "a merge patch is a JSON object");
  const after = mergePatch(doc, body);
  const rv = body.metadata?.resourceVersion;
  return nodePatchFrom(node, after, typeof rv === "string" ? rv : void 0);
}

// src/sandbox/wire/kube-table.ts
function age(fromIso, nowMs) {
  if (!fromIso) return "<unknown>";
  const s = Math.max(0, Math.floor((nowMs - Date.parse(fromIso)) / 1e3));
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const d = Math.floor(h / 24);
  if (s < 120) return `${s}s`;
  if (m < 10) return s % 60 ? `${m}m${s % 60}s` : `${m}m`;
  if (h < 3) return `${m}m`;
  if (h < 8) return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
  if (h < 48) return `${h}h`;
  if (d < 8) return h % 24 ? `${d}d${h % 24}h` : `${d}d`;
  return `${d}d`;
}
function nodeRow(n, now) {
  const ready = n.status.conditions?.find((c) => c.type === "Ready")?.status === "True";
  const status = (ready ? "Ready" : "NotReady") + (n.spec.unschedulable ? ",SchedulingDisabled" : "");
  const roles = Object.keys(n.metadata.labels ?? {}).filter((k) => k.startsWith("node-role.kubernetes.io/")).map((k) => k.slice("node-role.kubernetes.io/".length));
  return [
    n.metadata.name,
    status,
    roles.length ? roles.join(",") : "<none>",
    age(n.metadata.creationTimestamp, now),
    n.status.nodeInfo?.kubeletVersion ?? ""
  ];
}
function podRow(p, now) {
  const ready = p.status.conditions?.find((c) => c.type === "Ready")?.status === "True";
  const total = p.spec.containers.length;
  const containers = p.status.containerStatuses ?? [];
  const waiting = containers.find((c) => c.state?.waiting?.reason)?.state?.waiting?.reason;
  const status = p.metadata.deletionTimestamp ? "Terminating" : waiting ?? p.status.phase;
  return [
    p.metadata.name,
    `${ready ? total : 0}/${total}`,
    status,
    containers.reduce((n, c) => n + c.restartCount, 0),
    age(p.metadata.creationTimestamp, now),
    p.spec.nodeName ?? "<none>"
  ];
}
var NAME = { name: "Name", type: "string", format: "name" };
var COLUMNS = {
  nodes: [
    NAME,
    { name: "Status", type: "string" },
    { name: "Roles", type: "string" },
    { name: "Age", type: "string" },
    { name: "Version", type: "string" }
  ],
  pods: [
    NAME,
    { name: "Ready", type: "string" },
    { name: "Status", type: "string" },
    { name: "Restarts", type: "integer" },
    { name: "Age", type: "string" },
    { name: "Node", type: "string", priority: 1 }
  ],
  other: [NAME, { name: "Age", type: "string" }]
};
function toTable(resource, objects2, listMeta, nowMs) {
  const row = (o) => resource === "nodes" ? nodeRow(o, nowMs) : resource === "pods" ? podRow(o, nowMs) : [o.metadata.name, age(o.metadata.creationTimestamp, nowMs)];
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: listMeta,
    columnDefinitions: (COLUMNS[resource] ?? COLUMNS.other).map((c) => ({
      description: "",
      priority: 0,
      format: "",
      ...c
    })),
    rows: objects2.map((o) => ({
      cells: row(o),
      object: {
        kind: "PartialObjectMetadata",
        apiVersion: "meta.k8s.io/v1",
        metadata: o.metadata
      }
    }))
  };
}
function wantsTable(accept) {
  return /as=Table/.test(accept ?? "");
}

// src/sandbox/wire/kube-request.ts
var KINDS = {
  nodes: { kind: "Node", apiVersion: "v1" },
  pods: { kind: "Pod", apiVersion: "v1" },
  persistentvolumeclaims: { kind: "PersistentVolumeClaim", apiVersion: "v1" },
  persistentvolumes: { kind: "PersistentVolume", apiVersion: "v1" },
  poddisruptionbudgets: { kind: "PodDisruptionBudget", apiVersion: "policy/v1" },
  leases: { kind: "Lease", apiVersion: "coordination.k8s.io/v1" },
  daemonsets: { kind: "DaemonSet", apiVersion: "apps/v1" },
  deployments: { kind: "Deployment", apiVersion: "apps/v1" },
  replicasets: { kind: "ReplicaSet", apiVersion: "apps/v1" },
  statefulsets: { kind: "StatefulSet", apiVersion: "apps/v1" }
};
var PUBLIC = /* @__PURE__ */ new Set(["/version", "/healthz", "/livez", "/readyz"]);
var NODE_FIELDS = ["metadata.name", "spec.unschedulable"];
var POD_FIELDS = ["spec.nodeName", "metadata.name", "metadata.namespace", "status.phase"];
var FIELDS = {
  nodes: NODE_FIELDS,
  pods: POD_FIELDS,
  poddisruptionbudgets: ["metadata.name", "metadata.namespace"]
};
function kubeStatus(code, reason, message, resource, details, headers = {}) {
  const failure2 = code >= 300;
  return json(
    code,
    {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: failure2 ? "Failure" : "Success",
      ...failure2 && { message, reason },
      ...details && { details },
      code
    },
    resource,
    headers
  );
}
function fromError(e, resource) {
  if (e instanceof NetworkError) throw e;
  if (e instanceof KubeApiError) {
    const retry = e.retryAfterSeconds;
    return kubeStatus(
      e.status,
      e.reason,
      e.message,
      resource,
      retry !== void 0 ? { retryAfterSeconds: retry } : void 0,
      e.status === 429 && retry !== void 0 ? { "retry-after": String(retry) } : {}
    );
  }
  return kubeStatus(
    500,
    "InternalError",
    `Internal error occurred: ${e.message}`,
    resource
  );
}
function parseTarget(path) {
  const s = path.split("/").filter(Boolean).map(decodeURIComponent);
  let rest;
  let groupVersion;
  if (s[0] === "api" && s.length >= 3) [groupVersion, rest] = [s[1], s.slice(2)];
  else if (s[0] === "apis" && s.length >= 4) [groupVersion, rest] = [`${s[1]}/${s[2]}`, s.slice(3)];
  else return void 0;
  let namespace;
  if (rest[0] === "namespaces" && rest.length >= 3) [namespace, rest] = [rest[1], rest.slice(2)];
  if (rest.length > 3) return void 0;
  return { groupVersion, namespace, resource: rest[0], name: rest[1], sub: rest[2] };
}
function listOptions(q2) {
  const opts = {};
  for (const k of ["labelSelector", "fieldSelector", "continue", "resourceVersion"]) {
    const v2 = q2.get(k);
    if (v2) opts[k] = v2;
  }
  const limit = Number(q2.get("limit") ?? 0);
  if (limit > 0) opts.limit = limit;
  return opts;
}
function fieldOf(o, field) {
  const p = o;
  if (field === "metadata.name") return o.metadata.name;
  if (field === "metadata.namespace") return o.metadata.namespace ?? "";
  if (field === "spec.nodeName") return p.spec.nodeName ?? "";
  if (field === "status.phase") return p.status.phase;
  return String(o.spec.unschedulable ?? false);
}
function objectFilter(kind, namespace, q2) {
  const labels = parseLabelSelector(q2.get("labelSelector") ?? void 0);
  const fields = parseFieldSelector(q2.get("fieldSelector") ?? void 0, FIELDS[kind]);
  return (o) => (namespace === void 0 || o.metadata.namespace === namespace) && labels(o.metadata.labels ?? {}) && fields.every((f) => fieldOf(o, f.field) === f.value === (f.op === "="));
}
function parseBody(req, allowed) {
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (!allowed.includes(type))
    throw new KubeApiError(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: ${allowed.join(", ")}`
    );
  try {
    return JSON.parse(req.body);
  } catch (e) {
    throw new KubeApiError(
      400,
      "BadRequest",
      `the object provided is unrecognized: ${e.message}`
    );
  }
}
var truthy = (v2) => v2 === "1" || v2 === "true";
function evictionResponse(r, name) {
  const resource = "pods/eviction";
  switch (r.status) {
    case 201:
      return kubeStatus(201, "", "", resource);
    case 429:
      return kubeStatus(
        429,
        "TooManyRequests",
        r.message,
        resource,
        {
          causes: r.causes.map((message) => ({ reason: "DisruptionBudget", message })),
          ...r.retryAfterSeconds !== void 0 && { retryAfterSeconds: r.retryAfterSeconds }
        },
        r.retryAfterSeconds !== void 0 ? { "retry-after": String(r.retryAfterSeconds) } : {}
      );
    case 500:
      return kubeStatus(500, "InternalError", `Internal error occurred: ${r.message}`, resource);
    case 404:
      return kubeStatus(404, "NotFound", r.message, resource, { name, kind: "pods" });
    case 403:
      return kubeStatus(
        403,
        "Forbidden",
        r.message,
        resource,
        r.namespaceTerminating ? {
          name,
          kind: "pods",
          causes: [
            {
              reason: "NamespaceTerminating",
              message: r.message,
              field: "metadata.namespace"
            }
          ]
        } : void 0
      );
  }
}
function volumeOf(cluster, t) {
  return t.namespace !== void 0 ? cluster.getPersistentVolumeClaim(t.namespace, t.name) : cluster.getPersistentVolume(t.name);
}

// src/sandbox/wire/sts-face.ts
var SANDBOX_ACCOUNT = "123456789012";
var DEFAULT_CREDENTIALS = {
  accessKeyId: "AKIASANDBOXNODEROLL1",
  secretAccessKey: "sandbox-secret-access-key-not-a-real-one",
  arn: `arn:aws:iam::${SANDBOX_ACCOUNT}:role/noderoll`
};
var TOKEN_MAX_AGE_MS = 15 * 6e4;
var STS_HOST = /^sts(\.[a-z0-9-]+)?\.(amazonaws\.com|amazonaws\.com\.cn|c2s\.ic\.gov|sc2s\.sgov\.gov)$/;
function parseAmzDate(text) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  return m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])) : void 0;
}
async function verifyEksToken(token, clusterName, known, now) {
  const text = decodeEksToken(token);
  if (text === void 0) return { ok: false, reason: "token is not an EKS token (k8s-aws-v1.)" };
  let url;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "token does not decode to a URL" };
  }
  if (!STS_HOST.test(url.hostname) && url.hostname !== "127.0.0.1")
    return { ok: false, reason: `token names ${url.hostname}, not an STS endpoint` };
  const q2 = url.searchParams;
  if (q2.get("Action") !== GET_CALLER_IDENTITY.Action)
    return { ok: false, reason: "token is not a GetCallerIdentity request" };
  const signedHeaders = (q2.get("X-Amz-SignedHeaders") ?? "").split(";");
  if (!signedHeaders.includes(CLUSTER_ID_HEADER))
    return { ok: false, reason: `token does not sign ${CLUSTER_ID_HEADER}` };
  const date = parseAmzDate(q2.get("X-Amz-Date") ?? "");
  if (!date) return { ok: false, reason: "token has no X-Amz-Date" };
  if (now.getTime() - date.getTime() > TOKEN_MAX_AGE_MS)
    return { ok: false, reason: "token expired" };
  if (date.getTime() - now.getTime() > 5 * 6e4)
    return { ok: false, reason: "token is from the future" };
  const [accessKeyId, , region] = (q2.get("X-Amz-Credential") ?? "").split("/");
  const creds = known.find((c) => c.accessKeyId === accessKeyId);
  if (!creds || !region) return { ok: false, reason: "token is signed by unknown credentials" };
  const query = {};
  for (const [k, v2] of q2)
    if (k !== "X-Amz-Signature" && !/^X-Amz-(Algorithm|Credential|Date|Expires|SignedHeaders)$/.test(k))
      query[k] = v2;
  const expected = await presignStsGet({
    url,
    region,
    clusterName,
    credentials: creds,
    query,
    expiresIn: Number(q2.get("X-Amz-Expires") ?? 60),
    at: date
  });
  if (expected.query["X-Amz-Signature"] !== q2.get("X-Amz-Signature"))
    return { ok: false, reason: "token signature does not match (wrong cluster or key)" };
  return { ok: true, arn: creds.arn };
}
function xml(status, body, resource) {
  return { status, headers: { "content-type": "text/xml", [RESOURCE_HEADER]: resource }, body };
}
var StsFace = class {
  constructor(identity = DEFAULT_CREDENTIALS) {
    this.identity = identity;
  }
  identity;
  name = "sts";
  requestNo = 0;
  handle(req) {
    const params = req.method === "POST" && /x-www-form-urlencoded/.test(req.headers["content-type"] ?? "") ? new URLSearchParams(req.body) : req.query;
    const action = params.get("Action");
    if (req.path !== "/" || !action || signingService(req.headers, params) !== "sts")
      return void 0;
    const id = `sts-${++this.requestNo}`;
    if (action !== "GetCallerIdentity") {
      return xml(
        400,
        `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>InvalidAction</Code><Message>Could not find operation ${action} for version 2011-06-15</Message></Error><RequestId>${id}</RequestId></ErrorResponse>`,
        action
      );
    }
    return xml(
      200,
      `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>${this.identity.arn}</Arn><UserId>AROASANDBOX:noderoll</UserId><Account>${SANDBOX_ACCOUNT}</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>${id}</RequestId></ResponseMetadata></GetCallerIdentityResponse>`,
      "GetCallerIdentity"
    );
  }
};

// src/sandbox/wire/kubernetes-face.ts
var WATCH_CALLS = {
  nodes: "core.watchNodes",
  pods: "core.watchPods",
  poddisruptionbudgets: "policy.watchPodDisruptionBudgets"
};
var SANDBOX_TOKEN = "noderoll-sandbox-token";
var KubernetesFace = class {
  constructor(view, options = {}) {
    this.view = view;
    this.options = options;
    this.hub = new WatchHub(view.kube, options.historyLimit);
    this.#tokens = new Set(options.tokens ?? [SANDBOX_TOKEN]);
  }
  view;
  options;
  name = "kubernetes";
  hub;
  /** Answer the next N resource requests with 429 + Retry-After (tests of client retries). */
  throttleNext = 0;
  throttleRetryAfter = 1;
  #tokens;
  /**
   * The catch-all face: anything no other face took is a Kubernetes request. Every answer's Date
   * header is the world's time, as a real API server's is its own clock's: a client reads the
   * server's clock from it (src/adapters/kubernetes/http.ts), and the world's is not the wall's.
   */
  async handle(req) {
    const response = await this.#answer(req);
    const date = new Date(this.view.clock.nowMs()).toUTCString();
    return { ...response, headers: { ...response.headers, date } };
  }
  async #answer(req) {
    try {
      if (!PUBLIC.has(req.path) && !await this.#authenticated(req))
        return kubeStatus(401, "Unauthorized", "Unauthorized", "unauthorized");
      return await this.#route(req);
    } catch (e) {
      return fromError(e, "error");
    }
  }
  async #authenticated(req) {
    const m = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ""));
    if (!m) return false;
    const token = m[1];
    if (this.#tokens.has(token)) return true;
    const check = await verifyEksToken(
      token,
      this.view.clusterName,
      this.options.credentials ?? [DEFAULT_CREDENTIALS],
      /* @__PURE__ */ new Date()
    );
    return check.ok;
  }
  #route(req) {
    const discovery = this.#discovery(req);
    if (discovery) return discovery;
    const t = parseTarget(req.path);
    const known = t && RESOURCES[t.groupVersion]?.find((r) => r.name === t.resource);
    const misplaced = known && (known.namespaced ? t.namespace === void 0 && (t.name || t.resource === "leases") : t.namespace !== void 0);
    if (!t || !known || misplaced)
      return kubeStatus(
        404,
        "NotFound",
        "the server could not find the requested resource",
        "unknown"
      );
    const resource = t.sub ? `${t.resource}/${t.sub}` : t.resource;
    if (this.throttleNext > 0) {
      this.throttleNext--;
      const after = this.throttleRetryAfter;
      return kubeStatus(
        429,
        "TooManyRequests",
        "Too many requests, please try again later.",
        resource,
        { retryAfterSeconds: after },
        { "retry-after": String(after) }
      );
    }
    return this.#resource(req, t).catch((e) => fromError(e, resource));
  }
  #discovery(req) {
    if (req.method !== "GET") return void 0;
    const p = req.path.replace(/\/$/, "") || "/";
    const doc = (value) => value === void 0 ? void 0 : json(200, value, "discovery");
    if (p === "/version") return doc(versionDoc(this.view.version));
    if (p === "/healthz" || p === "/livez" || p === "/readyz")
      return {
        status: 200,
        headers: { "content-type": "text/plain", [RESOURCE_HEADER]: "health" },
        body: "ok"
      };
    if (p === "/api") return doc(apiVersionsDoc(String(req.headers.host ?? "127.0.0.1")));
    if (p === "/apis") return doc(apiGroupListDoc());
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)(?:\/([^/]+))?)$/.exec(p);
    if (!m) return void 0;
    if (m[1]) return doc(resourceListDoc("v1"));
    if (m[3]) return doc(resourceListDoc(`${m[2]}/${m[3]}`));
    return doc(apiGroupDoc(m[2]));
  }
  async #resource(req, t) {
    const key = `${req.method} ${t.resource}${t.name ? "/name" : ""}${t.sub ? `/${t.sub}` : ""}`;
    switch (key) {
      case "GET nodes":
      case "GET pods":
      case "GET poddisruptionbudgets":
        return truthy(req.query.get("watch")) ? this.#watch(req, t) : this.#list(req, t);
      case "GET daemonsets":
      case "GET deployments":
      case "GET replicasets":
      case "GET statefulsets":
        return this.#list(req, t);
      case "GET nodes/name":
        return this.#shown(req, "nodes", await this.view.cluster.getNode(t.name));
      case "PATCH nodes/name":
        return this.#patchNode(req, t.name);
      case "GET pods/name":
        return this.#shown(req, "pods", await this.view.cluster.getPod(t.namespace, t.name));
      case "DELETE pods/name":
        return this.#deletePod(req, t.namespace, t.name);
      case "POST pods/name/eviction":
        return this.#evict(req, t.namespace, t.name);
      case "GET daemonsets/name":
      case "GET deployments/name":
      case "GET replicasets/name":
      case "GET statefulsets/name":
        return this.#workload(t);
      case "GET persistentvolumeclaims/name":
      case "GET persistentvolumes/name":
        return this.#object(t.resource, await volumeOf(this.view.cluster, t));
      case "GET leases/name":
        return this.#object("leases", await this.view.cluster.getLease(t.namespace, t.name));
      case "POST leases":
        return this.#createLease(req, t.namespace);
      case "PUT leases/name":
        return this.#updateLease(req, t.namespace, t.name);
      case "DELETE leases/name":
        return this.#deleteLease(t.namespace, t.name);
    }
    return kubeStatus(
      405,
      "MethodNotAllowed",
      `the server does not allow this method on the requested resource`,
      t.resource
    );
  }
  /** An object, or a one-row Table when kubectl asks to print it. */
  #shown(req, resource, obj) {
    if (!wantsTable(req.headers.accept)) return this.#object(resource, obj);
    const meta = { resourceVersion: obj.metadata.resourceVersion ?? "" };
    return json(200, toTable(resource, [obj], meta, this.view.clock.nowMs()), resource);
  }
  #object(resource, obj, status = 200) {
    return json(status, { ...KINDS[resource], ...obj }, resource);
  }
  async #list(req, t) {
    const opts = listOptions(req.query);
    const c = this.view.cluster;
    const { kind, apiVersion } = KINDS[t.resource];
    const list2 = t.resource === "nodes" ? await c.listNodes(opts) : t.resource === "pods" ? await c.listPods(t.namespace, opts) : t.resource === "poddisruptionbudgets" ? await c.listPodDisruptionBudgets(t.namespace, opts) : await c.listWorkloads(kind, t.namespace, opts);
    const meta = list2.metadata.continue ? list2.metadata : { resourceVersion: list2.metadata.resourceVersion };
    if (wantsTable(req.headers.accept))
      return json(200, toTable(t.resource, list2.items, meta, this.view.clock.nowMs()), t.resource);
    return json(
      200,
      { kind: `${kind}List`, apiVersion, metadata: meta, items: list2.items },
      t.resource
    );
  }
  /**
   * A wire watch is served from the hub, not through the Cluster port, so it passes the gate
   * here: counted as the port's watch call, throttled by the same faults (without a timeline
   * event, unlike the port's).
   */
  #throttleWatch(call) {
    const th = this.view.gate.admit(call, "kubernetes");
    if (th)
      throw new KubeApiError(
        429,
        "TooManyRequests",
        "Too many requests, please try again later.",
        th.retryAfter
      );
  }
  async #watch(req, t) {
    const kind = t.resource;
    const resource = `${kind}/watch`;
    this.#throttleWatch(WATCH_CALLS[kind]);
    const filter = objectFilter(kind, t.namespace, req.query);
    const rvText = req.query.get("resourceVersion") ?? "";
    const { kind: objectKind, apiVersion } = KINDS[kind];
    const bookmark = (annotations) => ({
      kind: objectKind,
      apiVersion,
      metadata: { resourceVersion: String(this.hub.last), ...annotations && { annotations } }
    });
    let initial;
    const afterInitial = [];
    if (rvText === "" || rvText === "0") {
      const items = await this.#current(kind, t.namespace, req.query);
      initial = items.map((object) => ({ type: "ADDED", object }));
      if (truthy(req.query.get("sendInitialEvents")))
        afterInitial.push({
          type: "BOOKMARK",
          object: bookmark({ "k8s.io/initial-events-end": "true" })
        });
    } else {
      const rv = Number(rvText);
      if (!Number.isInteger(rv) || rv < 0)
        throw new KubeApiError(400, "BadRequest", `invalid resource version "${rvText}"`);
      const replay = this.hub.since(rv, kind, filter);
      if (!replay) return this.#gone(rv, resource);
      initial = replay.map((e) => ({ type: e.type, object: e.object }));
    }
    const table = wantsTable(req.headers.accept);
    const render = (o) => table ? toTable(
      kind,
      [o],
      { resourceVersion: o.metadata.resourceVersion ?? "" },
      this.view.clock.nowMs()
    ) : { kind: objectKind, apiVersion, ...o };
    const timeout = Number(req.query.get("timeoutSeconds") ?? 0);
    const stream = watchStream({
      hub: this.hub,
      kind,
      filter,
      initial,
      afterInitial,
      render,
      bookmarks: truthy(req.query.get("allowWatchBookmarks")),
      bookmarkMs: this.options.bookmarkMs ?? 1e3,
      bookmarkObject: () => bookmark(),
      ...timeout > 0 && { timeoutMs: timeout * 1e3 },
      ...this.#trouble()
    });
    return {
      status: 200,
      headers: { "content-type": "application/json", [RESOURCE_HEADER]: resource },
      stream
    };
  }
  /** A watch fault the scenario asks for, if this watch meets one. */
  #trouble() {
    const trouble = this.view.gate.watchFault();
    if (!trouble) return {};
    return { trouble, after: (ms, fn) => this.view.clock.after(ms, fn) };
  }
  async #current(kind, namespace, q2) {
    const opts = {
      labelSelector: q2.get("labelSelector") ?? "",
      fieldSelector: q2.get("fieldSelector") ?? ""
    };
    const c = this.view.cluster;
    if (kind === "poddisruptionbudgets") return (await c.listPodDisruptionBudgets(namespace)).items;
    return kind === "nodes" ? (await c.listNodes(opts)).items : (await c.listPods(namespace, opts)).items;
  }
  /** A too-old resourceVersion: the watch opens, says 410 Expired in an ERROR event, and ends. */
  #gone(rv, resource) {
    const status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `too old resource version: ${rv} (${this.hub.floor})`,
      reason: "Expired",
      code: 410
    };
    return {
      status: 200,
      headers: { "content-type": "application/json", [RESOURCE_HEADER]: resource },
      stream: (res2) => res2.end(JSON.stringify({ type: "ERROR", object: status }) + "\n")
    };
  }
  async #patchNode(req, name) {
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    const body = parseBody(req, PATCH_TYPES);
    const node = await this.view.cluster.getNode(name);
    const patch = patchNodeBody(node, type, body);
    const { resourceVersion, ...changes } = patch;
    if (Object.keys(changes).length === 0) {
      if (resourceVersion !== void 0 && resourceVersion !== node.metadata.resourceVersion)
        throw new KubeApiError(
          409,
          "Conflict",
          `Operation cannot be fulfilled on nodes "${name}": the object has been modified; please apply your changes to the latest version and try again`
        );
      return this.#object("nodes", node);
    }
    return this.#object("nodes", await this.view.cluster.patchNode(name, patch));
  }
  async #deletePod(req, namespace, name) {
    let grace = req.query.get("gracePeriodSeconds") ?? void 0;
    if (req.body.trim()) {
      const body = parseBody(req, ["application/json"]);
      if (body.gracePeriodSeconds !== void 0) grace = String(body.gracePeriodSeconds);
    }
    const pod = await this.view.cluster.getPod(namespace, name);
    await this.view.cluster.deletePod(
      namespace,
      name,
      grace !== void 0 ? { gracePeriodSeconds: Number(grace) } : {}
    );
    const after = await this.view.cluster.getPod(namespace, name).catch(() => pod);
    return this.#object("pods", after);
  }
  async #evict(req, namespace, name) {
    const body = parseBody(req, ["application/json"]);
    if (body?.kind !== void 0 && body.kind !== "Eviction")
      throw new KubeApiError(400, "BadRequest", `expected an Eviction, got ${body.kind}`);
    if (body?.metadata?.name !== void 0 && body.metadata.name !== name)
      throw new KubeApiError(
        400,
        "BadRequest",
        `name in URL does not match name in Eviction object`
      );
    const dryRun = req.query.get("dryRun") === "All" || (body?.deleteOptions?.dryRun ?? []).includes("All");
    const r = await this.view.cluster.evictPod(namespace, name, dryRun ? { dryRun } : {});
    return evictionResponse(r, name);
  }
  async #workload(t) {
    const kind = KINDS[t.resource].kind;
    return this.#object(
      t.resource,
      await this.view.cluster.getWorkload(kind, t.namespace, t.name)
    );
  }
  #leaseBody(req) {
    const body = parseBody(req, ["application/json"]);
    if (!body || typeof body !== "object" || typeof body.metadata?.name !== "string" || !body.metadata.name)
      throw new KubeApiError(
        422,
        "Invalid",
        `Lease.coordination.k8s.io "" is invalid: metadata.name: Required value: name or generateName is required`
      );
    return { metadata: body.metadata, spec: body.spec ?? {} };
  }
  async #createLease(req, namespace) {
    const lease = this.#leaseBody(req);
    return this.#object("leases", await this.view.cluster.createLease(namespace, lease), 201);
  }
  async #updateLease(req, namespace, name) {
    const lease = this.#leaseBody(req);
    if (lease.metadata.name !== name)
      throw new KubeApiError(
        400,
        "BadRequest",
        `the name of the object (${lease.metadata.name}) does not match the name on the URL (${name})`
      );
    return this.#object("leases", await this.view.cluster.updateLease(namespace, lease));
  }
  async #deleteLease(namespace, name) {
    const del = this.view.cluster.deleteLease;
    if (!del) throw new KubeApiError(405, "MethodNotAllowed", "leases cannot be deleted here");
    await del.call(this.view.cluster, namespace, name);
    return kubeStatus(200, "", "", "leases", {
      name,
      group: "coordination.k8s.io",
      kind: "leases"
    });
  }
};

// src/sandbox/wire/prometheus-face.ts
var PROMETHEUS_PATH = "/prometheus";
var QUERY = new RegExp(`^${PROMETHEUS_PATH}(?:/([^/]+))?/api/v1/query$`);
var RESOURCE = "prometheus/query";
function error2(status, errorType, text, extra = {}) {
  return json(status, { status: "error", errorType, error: text }, RESOURCE, extra);
}
var PrometheusFace = class {
  /** `clusters`: each cluster's Prometheus by its name, the first the default. */
  constructor(clusters) {
    this.clusters = clusters;
  }
  clusters;
  name = "prometheus";
  /** Answer the next N queries 429 Too Many Requests, with `retryAfterSeconds`. */
  throttleNext = 0;
  /** Answer the next N queries 503 Service Unavailable, with `retryAfterSeconds`. */
  unavailableNext = 0;
  retryAfterSeconds = 1;
  handle(req) {
    if (req.path !== PROMETHEUS_PATH && !req.path.startsWith(`${PROMETHEUS_PATH}/`))
      return void 0;
    const match = QUERY.exec(req.path);
    const name = match?.[1] === void 0 ? void 0 : decodeURIComponent(match[1]);
    const metrics = name === void 0 ? [...this.clusters.values()][0] : this.clusters.get(name);
    if (!match || !metrics)
      return {
        status: 404,
        headers: { "content-type": "text/plain" },
        body: "404 page not found\n"
      };
    if (req.method !== "GET" && req.method !== "POST")
      return error2(405, "bad_data", `method ${req.method} not allowed`);
    const params = new URLSearchParams(req.query);
    if (req.method === "POST" && /x-www-form-urlencoded/.test(req.headers["content-type"] ?? ""))
      for (const [k, v2] of new URLSearchParams(req.body)) params.append(k, v2);
    const busy = this.#busy();
    if (busy) return busy;
    const query = params.get("query");
    if (query === null || query.trim() === "")
      return error2(400, "bad_data", 'invalid parameter "query": no expression found in input');
    if (params.has("time"))
      return error2(
        400,
        "bad_data",
        'invalid parameter "time": the sandbox evaluates at its own current time only'
      );
    try {
      return json(200, { status: "success", data: metrics.query(query) }, RESOURCE);
    } catch (e) {
      if (e instanceof PromQueryError) return error2(400, e.errorType, e.message);
      return error2(500, "internal", e.message);
    }
  }
  #busy() {
    const retry = { "retry-after": String(this.retryAfterSeconds) };
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return error2(429, "unavailable", "too many requests", retry);
    }
    if (this.unavailableNext > 0) {
      this.unavailableNext--;
      return error2(503, "unavailable", "the sandbox's Prometheus is unavailable", retry);
    }
    return void 0;
  }
};

// src/sandbox/wire/ssm-face.ts
var TARGET = "AmazonSSM.";
var MAX_NAMES = 10;
var RELEASE_PARAMETER = new RegExp(
  "^/aws/service/eks/optimized-ami/(\\d+\\.\\d+)/(amazon-linux-2|amazon-linux-2-arm64|amazon-linux-2-gpu|amazon-linux-2023/x86_64/(standard|nvidia|neuron)|amazon-linux-2023/arm64/(standard|nvidia))/recommended/release_version$"
);
function reply(status, value, resource, id) {
  return {
    status,
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amzn-requestid": id,
      [RESOURCE_HEADER]: resource
    },
    body: JSON.stringify(value)
  };
}
function validation(message) {
  return new AwsApiError("ValidationException", `1 validation error detected: ${message}`);
}
function namesOf(body) {
  let input;
  try {
    input = JSON.parse(body || "{}");
  } catch {
    throw new AwsApiError("SerializationException", "The request body is not JSON.");
  }
  const names = input?.Names;
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string"))
    throw validation("Value null at 'names' failed to satisfy constraint: Member must not be null");
  if (names.length < 1 || names.length > MAX_NAMES)
    throw validation(
      `Value '[${names.join(", ")}]' at 'names' failed to satisfy constraint: Member must have length ${names.length < 1 ? "greater than or equal to 1" : `less than or equal to ${MAX_NAMES}`}`
    );
  return [...new Set(names)];
}
var SsmFace = class {
  constructor(view) {
    this.view = view;
  }
  view;
  name = "ssm";
  /** Refuse every call, as SSM refuses a role without ssm:GetParameters (tests of that). */
  denied = false;
  #requestNo = 0;
  async handle(req) {
    const target = String(req.headers["x-amz-target"] ?? "");
    if (req.method !== "POST" || req.path !== "/" || !target.startsWith(TARGET)) return void 0;
    const action = target.slice(TARGET.length);
    const id = `ssm-${++this.#requestNo}`;
    try {
      if (action !== "GetParameters")
        throw new AwsApiError("UnknownOperationException", `Unknown operation ${action}`);
      const names = namesOf(req.body);
      if (this.denied)
        throw new AwsApiError(
          "AccessDeniedException",
          `User: ${DEFAULT_CREDENTIALS.arn} is not authorized to perform: ssm:GetParameters on resource: arn:aws:ssm:${this.view.region}::parameter${names[0]} because no identity-based policy allows the ssm:GetParameters action`
        );
      return reply(200, await this.#parameters(names), action, id);
    } catch (e) {
      if (e instanceof NetworkError) throw e;
      const err = e instanceof AwsApiError ? e : new AwsApiError("InternalServerError", e.message, 500);
      return reply(err.status, { __type: err.code, message: err.message }, action, id);
    }
  }
  async #parameters(names) {
    const versionOf = new Map(names.map((n) => [n, RELEASE_PARAMETER.exec(n)?.[1]]));
    const versions = [...new Set([...versionOf.values()].filter((v2) => v2 !== void 0))];
    const latest = versions.length ? await this.view.eks.latestReleaseVersions?.(versions) ?? {} : {};
    const release = (name) => {
      const version = versionOf.get(name);
      return version !== void 0 && Object.hasOwn(latest, version) ? latest[version] : void 0;
    };
    return {
      Parameters: names.flatMap((Name) => {
        const Value = release(Name);
        if (Value === void 0) return [];
        const ARN = `arn:aws:ssm:${this.view.region}::parameter${Name}`;
        return [{ Name, Type: "String", Value, Version: 1, ARN, DataType: "text" }];
      }),
      InvalidParameters: names.filter((n) => release(n) === void 0)
    };
  }
};

// src/sandbox/wire/time-driver.ts
var TimeDriver = class {
  constructor(clock, speed, instant, quietMs, horizonMs) {
    this.clock = clock;
    this.speed = speed;
    this.instant = instant;
    this.quietMs = quietMs;
    this.horizonMs = horizonMs;
    this.#lastActivityVirtual = clock.nowMs();
  }
  clock;
  speed;
  instant;
  quietMs;
  horizonMs;
  #inFlight = 0;
  #lastActivity = performance.now();
  #lastActivityVirtual;
  #stopped = false;
  #last = performance.now();
  #timeout;
  #immediate;
  /** A request other than a watch started (+1) or ended (-1). */
  track(delta) {
    this.#inFlight += delta;
    this.#lastActivity = performance.now();
    this.#lastActivityVirtual = this.clock.nowMs();
  }
  /**
   * A call made by a client in this same process, in flight from the moment it is made until
   * the client has its answer. The server counts a request only from its arrival to its
   * response's end, and each leg through the TLS front takes a few event-loop turns (more on a
   * new connection): on a loaded machine longer than the quiet period, and a jump then fires the
   * client's own timers early when its clock is the world's (a lock renewal's deadline, with
   * the renewal on its way). No jump happens while a call is held (at speed 0 time stands
   * still), so the call must not wait on the world's clock itself (a retry's backoff).
   */
  hold(call) {
    this.track(1);
    return Promise.resolve(call).finally(() => this.track(-1));
  }
  start() {
    this.#schedule(false);
  }
  stop() {
    this.#stopped = true;
    clearTimeout(this.#timeout);
    if (this.#immediate) clearImmediate(this.#immediate);
  }
  #schedule(soon, ms = 10) {
    if (this.#stopped) return;
    if (soon) this.#immediate = setImmediate(() => void this.#tick());
    else this.#timeout = setTimeout(() => void this.#tick(), ms);
  }
  async #tick() {
    const clock = this.clock;
    const now = performance.now();
    const elapsed = now - this.#last;
    this.#last = now;
    const next = clock.nextAt();
    const idle = this.#inFlight === 0;
    const near = next !== void 0 && next - this.#lastActivityVirtual <= this.horizonMs;
    if (this.instant && idle && next !== void 0 && near) {
      if (now - this.#lastActivity < this.quietMs) return this.#schedule(false, 1);
      await clock.advanceTo(Math.max(next, clock.nowMs()));
      return this.#schedule(true);
    }
    if (this.speed > 0) await clock.advance(elapsed * this.speed);
    this.#schedule(false);
  }
};

// src/sandbox/wire/tls-front.ts
import { connect } from "node:net";
import { createServer as createServer2 } from "node:tls";
var SANDBOX_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgnwy7of1Uha8C4nsE
/yOwr9gW+ZDUKicaYsOXb79xJPmhRANCAASwmMy2YVFyjtwGK0oDmcur1EbzBZl0
bAJ/eQWmd9FlLsHCAevlYL5IjYP7mYjYTipm76x6avVLDCxrjTlN/LT3
-----END PRIVATE KEY-----
`;
var SANDBOX_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBnDCCAUGgAwIBAgICEAAwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQbm9kZXJv
bGwgc2FuZGJveDAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowGzEZ
MBcGA1UEAwwQbm9kZXJvbGwgc2FuZGJveDBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABLCYzLZhUXKO3AYrSgOZy6vURvMFmXRsAn95BaZ30WUuwcIB6+VgvkiNg/uZ
iNhOKmbvrHpq9UsMLGuNOU38tPejczBxMBoGA1UdEQQTMBGHBH8AAAGCCWxvY2Fs
aG9zdDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIChDATBgNVHSUEDDAK
BggrBgEFBQcDATAdBgNVHQ4EFgQUHmr7M3aUB+cDNoMJe1SRGBN4D+kwCgYIKoZI
zj0EAwIDSQAwRgIhAPH8T+9iBooJBrm/rXwn4OO74PHWxq5g1j7fX3kX78sZAiEA
klBPPP1DMj/t2MdWXR/hSQ9BvILeNjIPqP+Fe6n94pg=
-----END CERTIFICATE-----
`;
var SANDBOX_TLS_IDENTITIES = [
  { key: SANDBOX_TLS_KEY, cert: SANDBOX_TLS_CERT },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgmNASJy1S0eA2ut4V
pZiRn2zjttdnJzult56xeb8W9JahRANCAATi7YoYJuyz42JN/WPZP8HaqOOGMtfv
hWLDdzuDU0yeru/Xkeexl9vXPXgC53wyMWL6u2+Gp0wiVNmZHE3v5XRN
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAEwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCAyMCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDIwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATi7YoYJuyz42JN/WPZP8HaqOOGMtfvhWLDdzuDU0yeru/Xkeexl9vX
PXgC53wyMWL6u2+Gp0wiVNmZHE3v5XRNo3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFKuScTXOAXHqUxhL4E6xYku+WDPyMAoG
CCqGSM49BAMCA0gAMEUCIQCRvz4RDzCGU0mYFcKpbd7Zd0cBVZQctk1M/p+I8Arw
MwIgbt8b6b7fNwyCyyY/QoQa7lsF2gvEK9GezhkNITZQCKg=
-----END CERTIFICATE-----
`
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgn+N637Ja7Gec+9zR
2LqXGqlBn/Vc4UdG9UpGjV5/iD6hRANCAAQ4MrWpEYS/BeJVTpkbCrIBaUfSXypf
nYAtYEtmQL6daLdgaG1/DISCLzbHR2PH9Md52IvsadjmjJVkSehgARir
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAIwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCAzMCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDMwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQ4MrWpEYS/BeJVTpkbCrIBaUfSXypfnYAtYEtmQL6daLdgaG1/DISC
LzbHR2PH9Md52IvsadjmjJVkSehgARiro3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFKjRrXxWRh4FV5YrMPqMWpxDWKusMAoG
CCqGSM49BAMCA0gAMEUCICoGRbaAIqQcIu3vUPGyzCCTIOrzTC/iSaspxEWusUDE
AiEAwEmjSJTakDqgDlhk6cUqgmcZqVDeYJxao6xJSGGGBtU=
-----END CERTIFICATE-----
`
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg5mATdn8DL3SQtTNJ
Fi0L+kdzGl+RDdotJyD4TFldmC6hRANCAAQh5oANSK8MoU5Yp4CNHumRtoU1aJjn
ijf5SvUrXP03R5OtYKI8UKy4N/01I5gbSO33APuLxYpNSsniaqC/WoT8
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnjCCAUWgAwIBAgICEAMwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA0MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDQwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQh5oANSK8MoU5Yp4CNHumRtoU1aJjnijf5SvUrXP03R5OtYKI8UKy4
N/01I5gbSO33APuLxYpNSsniaqC/WoT8o3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFAnh9TarYjTROPlhZ5iASnotltWfMAoG
CCqGSM49BAMCA0cAMEQCIFZNf3DBAHvG07yrm5mlIxJ8eTIP5/FJa4fJ0wX7KI6T
AiBjJvAqdoF56RQIULl5h+J2N20VkafC3S1bfXQZCyNSiA==
-----END CERTIFICATE-----
`
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgXLL/U4WuBgeOUILY
SRRpI5hynOsGOcbrUCze7Cgn1Y+hRANCAATEFMuscLbWYy0Yho18ZkqZr/S2GoH6
73h91AU7iye1dM0upTM/gnk8SCSvSLuBBll+xgTDz9++GpKEWggQGsdl
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnjCCAUWgAwIBAgICEAQwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA1MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDUwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATEFMuscLbWYy0Yho18ZkqZr/S2GoH673h91AU7iye1dM0upTM/gnk8
SCSvSLuBBll+xgTDz9++GpKEWggQGsdlo3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFIW9+ffolhXB2+ceeYMQ2Hz3kN6hMAoG
CCqGSM49BAMCA0cAMEQCIEGSHDg4sO6OtKcdHNDBOUUbJzU2CncBClaUUhrjW0E7
AiBCGucE7BNf7YHRb9YRFHOfJXYqhS+E97HZuOM2LqLUNQ==
-----END CERTIFICATE-----
`
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgfov6grej0TbFBk7X
OkUAIPJn1yLT0MQliNNBLJFLtoqhRANCAAQMjGz/6wqpMpZakLaPx4c+9ZHvrYaV
EPUKcr1rNiW1LiPB2Xejk0hGnObTl4nLlvHgjvvWmkigzzFtGTzNoQYi
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAUwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA2MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDYwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQMjGz/6wqpMpZakLaPx4c+9ZHvrYaVEPUKcr1rNiW1LiPB2Xejk0hG
nObTl4nLlvHgjvvWmkigzzFtGTzNoQYio3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFCRHSoi04sBMoAAjwMBQEXTsuodtMAoG
CCqGSM49BAMCA0gAMEUCIFD7g1Vhq3I5MdrSM+uvdQa3vXV9eGBUxe0pcBABjO+x
AiEAn15M7Of6oE0DWbCKYuyKoLfUBDINXS6hdq27Vly3KLU=
-----END CERTIFICATE-----
`
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgGeZZ+Rwwotvb8O/y
kLAAIV+2nczaPY7oZVI07Dy6wJihRANCAARPcGARrsIjrev5R8KrQ0yYDASQvWoc
GpFfNVSXV+PSl8bxyzhNsMPKI+3uVjCGlF0j7rU658nCA+qKddT6b4I9
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAYwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA3MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDcwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARPcGARrsIjrev5R8KrQ0yYDASQvWocGpFfNVSXV+PSl8bxyzhNsMPK
I+3uVjCGlF0j7rU658nCA+qKddT6b4I9o3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFNAR0WFcVnO88Xk/p8MyjGiX+MFdMAoG
CCqGSM49BAMCA0gAMEUCIQCTY34nWs/jsu0LXlh6fDAJMdsHiLqYtmNT4m7hNmzn
VgIgFZbG2VMsEbeFeEezungsF5BfH5BL5HBL0G3kEabxVVw=
-----END CERTIFICATE-----
`
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgPEEXZBJYG/S/e1+G
TDH+YQUcECSN1TM9qtMI1llPt06hRANCAASDTYw4G7/6S6dht+B/n8p3BmN5bFUj
3IcFqA81fBvit3q+k/MBiWqkP4fTR5fTUwxp70XdIIPC6WekHFZrviMU
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAcwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA4MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDgwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASDTYw4G7/6S6dht+B/n8p3BmN5bFUj3IcFqA81fBvit3q+k/MBiWqk
P4fTR5fTUwxp70XdIIPC6WekHFZrviMUo3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFNMKlsoDeAtHi36qXyGOvmL/8D+aMAoG
CCqGSM49BAMCA0gAMEUCIQCIYCnDHKDG/fhA432XSOhrQlp1jPKiQyyt0kSDg0NY
2wIgTPU8mX1wkpJnx72UZghzoRKi3XfrN23OLcm9SZc/ZaI=
-----END CERTIFICATE-----
`
  }
];
async function startTlsFront(port, tlsPort = 0, identity = { key: SANDBOX_TLS_KEY, cert: SANDBOX_TLS_CERT }) {
  const open = /* @__PURE__ */ new Set();
  const options = { key: identity.key, cert: identity.cert, noDelay: true };
  const server = createServer2(options, (socket) => {
    const upstream = connect({ port, host: "127.0.0.1", noDelay: true });
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  server.on("tlsClientError", () => void 0);
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(tlsPort, "127.0.0.1", () => resolve());
  });
  return {
    port: server.address().port,
    server,
    // Kept-alive client connections would hold close() open: end them.
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    })
  };
}

// src/sandbox/wire/serve.ts
var isWatch = (req) => /[?&]watch=(1|true)(&|$)/.test(req.url ?? "");
function kubeconfigPathOf(path, cluster) {
  const base = basename(path);
  const dot = base.lastIndexOf(".");
  const name = dot > 0 ? `${base.slice(0, dot)}.${cluster}${base.slice(dot)}` : `${base}.${cluster}`;
  return join(dirname(path), name);
}
function kubeconfig(c, name) {
  return [
    "apiVersion: v1",
    "kind: Config",
    "clusters:",
    `  - name: ${name}`,
    "    cluster:",
    `      server: ${c.kubernetes}`,
    `      certificate-authority-data: ${c.caData}`,
    "contexts:",
    `  - name: ${name}`,
    "    context:",
    `      cluster: ${name}`,
    `      user: ${name}`,
    `current-context: ${name}`,
    "users:",
    `  - name: ${name}`,
    "    user:",
    `      token: ${c.token}`,
    ""
  ].join("\n");
}
function servedPull(owner, repo, number, files) {
  const headSha = createHash2("sha1").update(`head ${owner}/${repo}#${number}`).digest("hex");
  return { number, headSha, files };
}
var MAX_SERVED_CLUSTERS = SANDBOX_TLS_IDENTITIES.length;
async function serveSandbox(target, options = {}) {
  const worlds = target instanceof Account ? target.worlds : [target];
  if (worlds.length > MAX_SERVED_CLUSTERS)
    throw new Error(
      `sandbox serve serves at most ${MAX_SERVED_CLUSTERS} clusters at once (each has a TLS identity, a certificate authority, of its own), not ${worlds.length}`
    );
  const first = worlds[0];
  const faces = makeFaces(target, options);
  const { sts, autoScaling, ec2, cloudWatch, ssm, eks, github, prometheus, kubernetes } = faces;
  const server = await startWireServer(
    [sts, autoScaling, ec2, cloudWatch, ssm, eks, github, prometheus, kubernetes],
    { ...options.port !== void 0 && { port: options.port } }
  );
  const url = server.url;
  const driver = new TimeDriver(
    first.clock,
    options.speed ?? 1,
    options.instant ?? true,
    options.quietMs ?? 3,
    options.horizonMs ?? 36e5
  );
  const track = (http) => void http.on("request", (req, res2) => {
    if (isWatch(req)) return;
    driver.track(1);
    res2.on("close", () => driver.track(-1));
  });
  track(server.server);
  const served = await serveClusters(worlds, { face: faces.kubernetes, server }, options, track);
  driver.start();
  const clusters = served.map((s) => s.cluster);
  const kube = clusters[0];
  const endpoints = {
    kubernetes: kube.kubernetes,
    eks: url,
    autoScaling: url,
    ec2: url,
    cloudWatch: url,
    sts: url,
    github: url,
    prometheus: `${url}${PROMETHEUS_PATH}`
  };
  const env = environment(first, url, options.kubeconfigPath, faces.github);
  return {
    url,
    port: server.port,
    log: server.log,
    endpoints,
    clusters,
    env,
    faces,
    describe: () => worlds.length === 1 ? describeServer(first, url, kube.kubernetes, env, options.github) : describeAccount(worlds, url, clusters, env, options.github),
    hold: (call) => driver.hold(call),
    close: async () => {
      driver.stop();
      await Promise.all(served.map((s) => s.close()));
      await server.close();
      for (const s of served) s.done();
    }
  };
}
async function serveClusters(worlds, main, options, track) {
  const served = [];
  try {
    for (const [i, world] of worlds.entries()) {
      const s = await serveCluster(world, i, i === 0 ? main : void 0, options);
      served.push(s);
      if (i > 0) track(s.server.server);
    }
    return served;
  } catch (e) {
    await Promise.all(served.map((s) => s.close()));
    await main.server.close();
    for (const s of served) s.done();
    throw e;
  }
}
async function serveCluster(world, i, main, options) {
  const name = world.scenario.cluster.name;
  const token = i === 0 ? SANDBOX_TOKEN : `${SANDBOX_TOKEN}-${name}`;
  const face = main?.face ?? kubernetesFace(world, { tokens: [token], ...options.kubernetes });
  const server = main?.server ?? await startWireServer([face]);
  const identity = SANDBOX_TLS_IDENTITIES[i];
  let tls;
  const close = async () => {
    await tls?.close();
    if (!main) await server.close();
  };
  try {
    tls = await startTlsFront(server.port, i === 0 ? options.tlsPort ?? 0 : 0, identity);
    const kubernetes = `https://127.0.0.1:${tls.port}`;
    const caData = Buffer.from(identity.cert).toString("base64");
    const path = options.kubeconfigPath && (i === 0 ? options.kubeconfigPath : kubeconfigPathOf(options.kubeconfigPath, name));
    const cluster = {
      name,
      kubernetes,
      url: server.url,
      caData,
      token: options.kubernetes?.tokens?.[0] ?? token,
      ...path && { kubeconfigPath: path },
      log: server.log,
      face
    };
    if (path)
      writeFileSync(
        path,
        kubeconfig(cluster, i === 0 ? "noderoll-sandbox" : `noderoll-sandbox-${name}`)
      );
    const before = { ...world.endpoint };
    Object.assign(world.endpoint, { server: kubernetes, caData });
    return {
      cluster,
      server,
      close,
      done: () => {
        face.hub.close();
        delete world.endpoint.caData;
        Object.assign(world.endpoint, before);
      }
    };
  } catch (e) {
    await close();
    face.hub.close();
    throw e;
  }
}
function kubernetesFace(world, options = {}) {
  const s = world.scenario;
  return new KubernetesFace(
    {
      cluster: world.cluster,
      clusterName: s.cluster.name,
      version: s.cluster.version,
      clock: world.clock,
      gate: world.gate,
      kube: world.kube
    },
    options
  );
}
function makeFaces(target, options) {
  const worlds = target instanceof Account ? target.worlds : [target];
  const first = worlds[0];
  const s = first.scenario;
  const one = worlds.length === 1;
  return {
    sts: new StsFace(),
    autoScaling: new AutoScalingFace(target.cloud.autoScaling),
    ec2: new Ec2Face({
      ec2: target.cloud.ec2,
      sim: one ? first.ec2 : {
        templates: { values: () => worlds.flatMap((w2) => [...w2.ec2.templates.values()]) },
        instances: { keys: () => worlds.flatMap((w2) => [...w2.ec2.instances.keys()]) }
      },
      region: s.cluster.region,
      zones: one ? s.zones : [...new Set(worlds.flatMap((w2) => w2.scenario.zones))].sort()
    }),
    eks: new EksFace({
      eks: target.cloud.eks,
      region: s.cluster.region,
      start: s.start,
      pageSize: s.eks.updates.pageSize
    }),
    cloudWatch: new CloudWatchFace(target.cloud.cloudWatch),
    ssm: new SsmFace({ eks: target.cloud.eks, region: s.cluster.region }),
    prometheus: new PrometheusFace(
      new Map(worlds.map((w2) => [w2.scenario.cluster.name, w2.metrics]))
    ),
    github: new GitHubFace(options.github, () => first.clock.now()),
    kubernetes: kubernetesFace(first, options.kubernetes)
  };
}
function environment(world, url, kubeconfigPath, github) {
  return {
    AWS_ENDPOINT_URL_EKS: url,
    AWS_ENDPOINT_URL_AUTO_SCALING: url,
    AWS_ENDPOINT_URL_EC2: url,
    AWS_ENDPOINT_URL_CLOUDWATCH: url,
    AWS_ENDPOINT_URL_SSM: url,
    AWS_ENDPOINT_URL_STS: url,
    AWS_REGION: world.scenario.cluster.region,
    AWS_ACCESS_KEY_ID: DEFAULT_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: DEFAULT_CREDENTIALS.secretAccessKey,
    GITHUB_API_URL: url,
    GITHUB_REPOSITORY: `${github.owner}/${github.repo}`,
    ...kubeconfigPath && { KUBECONFIG: kubeconfigPath }
  };
}
function describeAccount(worlds, url, clusters, env, github = {}) {
  const region = worlds[0].scenario.cluster.region;
  return [
    `noderoll sandbox: ${worlds.length} clusters in one account (${region}) on ${url}`,
    ...clusters.flatMap((c, i) => [
      `  cluster ${c.name} (scenario "${worlds[i].scenario.metadata.name}")`,
      `    Kubernetes API   ${c.kubernetes}  (TLS, its own CA; also ${c.url}; bearer token ${c.token} or an EKS token for ${c.name})`,
      ...c.kubeconfigPath ? [`    kubeconfig       ${c.kubeconfigPath}`] : [],
      `    EKS              ${url}/clusters/${c.name}`
    ]),
    `  Auto Scaling     ${url}  (query protocol, by SigV4 service; every cluster's groups)`,
    `  EC2              ${url}  (query protocol, by SigV4 service)`,
    `  CloudWatch       ${url}  (JSON, query and CBOR protocols: alarms)`,
    `  Prometheus       ${url}${PROMETHEUS_PATH}  (the first cluster's; ${url}${PROMETHEUS_PATH}/<cluster> each's)`,
    `  STS              ${url}  (GetCallerIdentity)`,
    ...describeGitHub(url, env, github),
    "",
    "export these to point the AWS SDK / CLI, kubectl and Octokit at it (kubectl: the first cluster):",
    ...Object.entries(env).map(([k, v2]) => `  export ${k}=${v2}`),
    ""
  ].join("\n");
}
function describeServer(world, url, kubeUrl, env, github = {}) {
  const s = world.scenario;
  return [
    `noderoll sandbox "${s.metadata.name}" (cluster ${s.cluster.name}, ${s.cluster.region}) on ${url}`,
    `  Kubernetes API   ${kubeUrl}  (TLS; also ${url}; bearer token ${SANDBOX_TOKEN} or an EKS token)`,
    `  EKS              ${url}/clusters/${s.cluster.name}`,
    `  Auto Scaling     ${url}  (query protocol, by SigV4 service)`,
    `  EC2              ${url}  (query protocol, by SigV4 service)`,
    `  CloudWatch       ${url}  (JSON, query and CBOR protocols: alarms)`,
    `  Prometheus       ${url}${PROMETHEUS_PATH}  (instant queries: /api/v1/query)`,
    `  STS              ${url}  (GetCallerIdentity)`,
    ...describeGitHub(url, env, github),
    "",
    "export these to point the AWS SDK / CLI, kubectl and Octokit at it:",
    ...Object.entries(env).map(([k, v2]) => `  export ${k}=${v2}`),
    ""
  ].join("\n");
}
function describeGitHub(url, env, github) {
  return [
    `  GitHub REST      ${url}/repos/${env.GITHUB_REPOSITORY}/...  (any token; a read-only one cannot write)`,
    `  GitHub page      ${url}/github/  (the pull requests, their comments and check runs)`,
    ...(github.pulls ?? []).map(
      (p) => `    pull request #${p.number}   head ${p.headSha}, changes ${p.files.join(", ")}`
    ),
    ...(github.readOnlyTokens ?? []).map(
      (t) => `    read-only token  ${t}  (a fork's: writes answer 403)`
    )
  ];
}
export {
  MAX_SERVED_CLUSTERS,
  kubeconfigPathOf,
  serveSandbox,
  servedPull
};
