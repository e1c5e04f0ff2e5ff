#!/usr/bin/env node
import { createRequire as __noderollCreateRequire } from 'node:module';
const require = __noderollCreateRequire(import.meta.url);
if (Number(process.versions.node.split('.')[0]) < 24) { console.error(`noderoll needs Node.js 24 or later; this is ${process.version}. Use the project's own (npm ci installs it): npx node ${process.argv.slice(1).join(' ')}`); process.exit(2); }
import {
  Account,
  PromQueryError,
  WatchHub,
  parseFieldSelector,
  parseLabelSelector,
  watchStream
} from "./chunk-UVKIYLZ4.js";
import {
  CLUSTER_ID_HEADER,
  GET_CALLER_IDENTITY,
  cbor,
  dateToTag,
  decodeEksToken,
  init_cbor,
  presignStsGet
} from "./chunk-BJMJA2LH.js";
import {
  AwsApiError,
  KubeApiError,
  NetworkError
} from "./chunk-766E4P2P.js";
import "./chunk-XQ7ELI4G.js";
import "./chunk-HN53IBUS.js";

// src/sandbox/wire/serve.ts
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
function compactLists(v) {
  if (Array.isArray(v)) return v.filter((x) => x !== void 0).map(compactLists);
  if (typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, compactLists(x)]));
  return v;
}
function escapeXml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
function toXml(value, listItem) {
  if (value === null || value === void 0) return "";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return value.map((v) => `<${listItem}>${toXml(v, listItem)}</${listItem}>`).join("");
  if (typeof value === "object") {
    return Object.entries(value).filter(([, v]) => v !== void 0).map(([k, v]) => `<${k}>${toXml(v, listItem)}</${k}>`).join("");
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
  const v = p[key];
  return typeof v === "string" ? v : void 0;
}
function need(p, key) {
  const v = str(p, key);
  if (v === void 0)
    throw new AwsApiError(
      "ValidationError",
      `1 validation error detected: Value null at '${key}' failed to satisfy constraint: Member must not be null`
    );
  return v;
}
function num(p, key) {
  const v = str(p, key);
  if (v === void 0) return void 0;
  const n = Number(v);
  if (!Number.isFinite(n))
    throw new AwsApiError("ValidationError", `Value ${v} for ${key} is not a number`);
  return n;
}
function bool(p, key) {
  const v = str(p, key);
  return v === void 0 ? void 0 : v === "true";
}
function list(p, key) {
  const v = p[key];
  if (v === void 0) return void 0;
  return (Array.isArray(v) ? v : [v]).filter((x) => typeof x === "string");
}
function objects(p, key) {
  const v = p[key];
  return Array.isArray(v) ? v.filter((x) => x && typeof x === "object" && !Array.isArray(x)) : [];
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
function groupXml(g) {
  return {
    AutoScalingGroupName: g.AutoScalingGroupName,
    AutoScalingGroupARN: `arn:aws:autoscaling:eu-west-1:123456789012:autoScalingGroup:sandbox:autoScalingGroupName/${g.AutoScalingGroupName}`,
    LaunchTemplate: g.LaunchTemplate,
    MixedInstancesPolicy: g.MixedInstancesPolicy,
    MinSize: g.MinSize,
    MaxSize: g.MaxSize,
    DesiredCapacity: g.DesiredCapacity,
    DefaultCooldown: 300,
    AvailabilityZones: g.AvailabilityZones,
    HealthCheckType: "EC2",
    HealthCheckGracePeriod: 300,
    Instances: g.Instances,
    CreatedTime: g.CreatedTime,
    SuspendedProcesses: g.SuspendedProcesses,
    Tags: g.Tags,
    WarmPoolConfiguration: g.WarmPoolConfiguration,
    WarmPoolSize: g.WarmPoolSize
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
    const [g] = await as.describeAutoScalingGroups({ AutoScalingGroupNames: [name] });
    const instances = await as.describeWarmPool({ AutoScalingGroupName: name });
    const { page: page2, next } = pageOf(instances, str(p, "NextToken"), num(p, "MaxRecords") ?? 50);
    return {
      WarmPoolConfiguration: g?.WarmPoolConfiguration,
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
    const lt = p.LaunchTemplate;
    await as.updateAutoScalingGroup({
      AutoScalingGroupName: group(p),
      ...num(p, "MinSize") !== void 0 && { MinSize: num(p, "MinSize") },
      ...num(p, "MaxSize") !== void 0 && { MaxSize: num(p, "MaxSize") },
      ...num(p, "DesiredCapacity") !== void 0 && {
        DesiredCapacity: num(p, "DesiredCapacity")
      },
      ...lt && typeof lt === "object" && { LaunchTemplate: { ...lt } }
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
    const names = str(p, "AutoScalingGroupName") !== void 0 ? [group(p)] : (await as.describeAutoScalingGroups({})).map((g) => g.AutoScalingGroupName);
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
      (g) => g.Instances.filter((i) => !ids || ids.includes(i.InstanceId)).map((i) => ({
        InstanceId: i.InstanceId,
        InstanceType: i.InstanceType,
        AutoScalingGroupName: g.AutoScalingGroupName,
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
      (g) => g.Tags.map((t) => ({
        ResourceId: g.AutoScalingGroupName,
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
  const v = input[key];
  return typeof v === "string" ? v : void 0;
}
function num2(input, key) {
  const v = input[key];
  if (v === void 0 || v === null) return void 0;
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  if (!Number.isFinite(n))
    throw new AwsApiError(
      "InvalidParameterValue",
      `The value ${String(v)} for parameter ${key} is not a number.`
    );
  return n;
}
function bool2(input, key) {
  const v = input[key];
  return v === void 0 ? void 0 : v === true || v === "true";
}
function strings(input, key) {
  const v = input[key];
  if (v === void 0) return void 0;
  return (Array.isArray(v) ? v : [v]).filter((x) => typeof x === "string");
}
function need2(input, key) {
  const v = str2(input, key);
  if (v === void 0)
    throw new AwsApiError("MissingParameter", `The parameter ${key} is required.`);
  return v;
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
  if (Array.isArray(value)) return value.map((v) => withStamps(v, stamp));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withStamps(v, stamp)]));
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
function versionXml(v) {
  return {
    launchTemplateId: v.LaunchTemplateId,
    launchTemplateName: v.LaunchTemplateName,
    versionNumber: v.VersionNumber,
    createTime: v.CreateTime,
    createdBy: "arn:aws:iam::123456789012:role/sandbox",
    defaultVersion: v.DefaultVersion,
    launchTemplateData: {
      imageId: v.LaunchTemplateData.ImageId,
      instanceType: v.LaunchTemplateData.InstanceType
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
          availabilityZoneInfo: (this.view.zones ?? []).map((z, i) => ({
            zoneName: z,
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
        createTime: new Date(Math.min(...t.versions.map((v) => v.createdAt))),
        createdBy: "arn:aws:iam::123456789012:role/sandbox",
        defaultVersionNumber: t.defaultVersion,
        latestVersionNumber: Math.max(...t.versions.map((v) => v.number))
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
function paginate(items, q, pageSize = 100) {
  const asked = Math.min(100, Math.max(1, Number(q.get("maxResults") ?? 100) || 100));
  const max = Math.min(asked, pageSize);
  const token = q.get("nextToken");
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
  async #run(op, p, q, body) {
    const eks = this.view.eks;
    const cluster = p[1];
    const region = this.view.region;
    const size = this.view.pageSize;
    switch (op) {
      case "ListClusters": {
        const { page: page2, nextToken } = paginate(await eks.listClusters(), q, size);
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
        const { page: page2, nextToken } = paginate(await eks.listNodegroups(cluster), q, size);
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
        const ng = q.get("nodegroupName") ?? void 0;
        const ids = await eks.listUpdates({ name: cluster, ...ng && { nodegroupName: ng } });
        const { page: page2, nextToken } = paginate(ids, q, size);
        return { updateIds: page2, ...nextToken && { nextToken } };
      }
      default: {
        const ng = q.get("nodegroupName") ?? void 0;
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
    const q = new URLSearchParams(req.query);
    q.set("page", String(n));
    q.set("per_page", String(perPage));
    return `<${req.headers.host ? `http://${req.headers.host}` : ""}${req.path}?${q}>; rel="${rel}"`;
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
  }
  options;
  now;
  name = "github";
  owner;
  repo;
  comments = [];
  checkRuns = [];
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
        this.comments.filter((x) => x.issue === Number(b)),
        "issue-comments"
      );
    if (a === "issues" && c === "comments" && m === "POST")
      return this.createComment(Number(b), body);
    if (a === "issues" && b === "comments" && c && m === "PATCH")
      return this.updateComment(Number(c), body);
    if (a === "check-runs" && !b && m === "POST") return this.createCheckRun(body);
    if (a === "check-runs" && b && m === "PATCH") return this.updateCheckRun(Number(b), body);
    if (a === "check-runs" && b && m === "GET") return this.getCheckRun(Number(b));
    if (a === "commits" && c === "check-runs" && m === "GET") {
      const runs = this.checkRuns.filter((r) => r.head_sha === b).map(publicRun);
      return page(req, runs, "check-runs", (items) => ({
        total_count: runs.length,
        check_runs: items
      }));
    }
    if (a === "commits" && c === "pulls" && m === "GET") {
      return page(
        req,
        this.pulls.filter((x) => x.headSha === b || x.mergeCommitSha === b).map((x) => this.publicPull(x)),
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
    void d;
    return error(404, "Not Found", a ?? "repos");
  }
  pull(n) {
    const known = this.pulls.find((x) => x.number === n);
    if (known || !this.options.unknownPullsChange) return known;
    return {
      number: n,
      headSha: `${n}`.padStart(40, "0"),
      files: [this.options.unknownPullsChange]
    };
  }
  publicPull(x) {
    return {
      number: x.number,
      state: x.state ?? "open",
      title: x.title ?? `Pull request #${x.number}`,
      merged: x.merged ?? false,
      merge_commit_sha: x.mergeCommitSha ?? null,
      head: { sha: x.headSha, ref: `branch-${x.number}` },
      base: { ref: "main" },
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${x.number}`
    };
  }
  createComment(issue, body) {
    const problem = commentProblem(body.body);
    if (problem)
      return error(422, "Validation Failed", "issue-comments", [
        { resource: "IssueComment", code: "custom", field: "body", message: problem }
      ]);
    const at = this.now().toISOString();
    const comment = {
      id: this.nextId++,
      issue,
      body: body.body,
      user: { login: "github-actions[bot]", type: "Bot" },
      created_at: at,
      updated_at: at
    };
    this.comments.push(comment);
    return json(201, comment, "issue-comments");
  }
  updateComment(id, body) {
    const comment = this.comments.find((c) => c.id === id);
    if (!comment) return error(404, "Not Found", "issue-comments");
    const problem = commentProblem(body.body);
    if (problem)
      return error(422, "Validation Failed", "issue-comments", [
        { resource: "IssueComment", code: "custom", field: "body", message: problem }
      ]);
    comment.body = body.body;
    comment.updated_at = this.now().toISOString();
    return json(200, comment, "issue-comments");
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
    return json(201, publicRun(run), "check-runs");
  }
  updateCheckRun(id, body) {
    const run = this.checkRuns.find((r) => r.id === id);
    if (!run) return error(404, "Not Found", "check-runs");
    return this.applyCheckRun(run, body) ?? json(200, publicRun(run), "check-runs");
  }
  getCheckRun(id) {
    const run = this.checkRuns.find((r) => r.id === id);
    return run ? json(200, publicRun(run), "check-runs") : error(404, "Not Found", "check-runs");
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
function publicRun(run) {
  const { history: _history, annotations: _annotations, ...rest } = run;
  return rest;
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
    const v = { groupVersion: gv, version };
    return { name, versions: [v], preferredVersion: v };
  });
  return { kind: "APIGroupList", apiVersion: "v1", groups };
}
function apiGroupDoc(group2) {
  const gv = Object.keys(RESOURCES).find((k) => k.startsWith(`${group2}/`));
  if (!gv) return void 0;
  const v = { groupVersion: gv, version: gv.split("/")[1] };
  return { kind: "APIGroup", apiVersion: "v1", name: group2, versions: [v], preferredVersion: v };
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
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith("$")) continue;
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k] ?? null, v);
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
  for (const [k, v] of Object.entries(after ?? {})) if (before?.[k] !== v) out[k] = String(v);
  return Object.keys(out).length ? out : void 0;
}
var realTaints = (t) => (t ?? []).filter((x) => x.key !== UNSCHEDULABLE_TAINT);
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
function listOptions(q) {
  const opts = {};
  for (const k of ["labelSelector", "fieldSelector", "continue", "resourceVersion"]) {
    const v = q.get(k);
    if (v) opts[k] = v;
  }
  const limit = Number(q.get("limit") ?? 0);
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
function objectFilter(kind, namespace, q) {
  const labels = parseLabelSelector(q.get("labelSelector") ?? void 0);
  const fields = parseFieldSelector(q.get("fieldSelector") ?? void 0, FIELDS[kind]);
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
var truthy = (v) => v === "1" || v === "true";
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
  const q = url.searchParams;
  if (q.get("Action") !== GET_CALLER_IDENTITY.Action)
    return { ok: false, reason: "token is not a GetCallerIdentity request" };
  const signedHeaders = (q.get("X-Amz-SignedHeaders") ?? "").split(";");
  if (!signedHeaders.includes(CLUSTER_ID_HEADER))
    return { ok: false, reason: `token does not sign ${CLUSTER_ID_HEADER}` };
  const date = parseAmzDate(q.get("X-Amz-Date") ?? "");
  if (!date) return { ok: false, reason: "token has no X-Amz-Date" };
  if (now.getTime() - date.getTime() > TOKEN_MAX_AGE_MS)
    return { ok: false, reason: "token expired" };
  if (date.getTime() - now.getTime() > 5 * 6e4)
    return { ok: false, reason: "token is from the future" };
  const [accessKeyId, , region] = (q.get("X-Amz-Credential") ?? "").split("/");
  const creds = known.find((c) => c.accessKeyId === accessKeyId);
  if (!creds || !region) return { ok: false, reason: "token is signed by unknown credentials" };
  const query = {};
  for (const [k, v] of q)
    if (k !== "X-Amz-Signature" && !/^X-Amz-(Algorithm|Credential|Date|Expires|SignedHeaders)$/.test(k))
      query[k] = v;
  const expected = await presignStsGet({
    url,
    region,
    clusterName,
    credentials: creds,
    query,
    expiresIn: Number(q.get("X-Amz-Expires") ?? 60),
    at: date
  });
  if (expected.query["X-Amz-Signature"] !== q.get("X-Amz-Signature"))
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
  async #current(kind, namespace, q) {
    const opts = {
      labelSelector: q.get("labelSelector") ?? "",
      fieldSelector: q.get("fieldSelector") ?? ""
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
      for (const [k, v] of new URLSearchParams(req.body)) params.append(k, v);
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
var MAX_SERVED_CLUSTERS = SANDBOX_TLS_IDENTITIES.length;
async function serveSandbox(target, options = {}) {
  const worlds = target instanceof Account ? target.worlds : [target];
  if (worlds.length > MAX_SERVED_CLUSTERS)
    throw new Error(
      `sandbox serve serves at most ${MAX_SERVED_CLUSTERS} clusters at once (each has a TLS identity, a certificate authority, of its own), not ${worlds.length}`
    );
  const first = worlds[0];
  const faces = makeFaces(target, options);
  const { sts, autoScaling, ec2, cloudWatch, eks, github, prometheus, kubernetes } = faces;
  const server = await startWireServer(
    [sts, autoScaling, ec2, cloudWatch, eks, github, prometheus, kubernetes],
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
  const env = environment(first, url, options.kubeconfigPath);
  return {
    url,
    port: server.port,
    log: server.log,
    endpoints,
    clusters,
    env,
    faces,
    describe: () => worlds.length === 1 ? describeServer(first, url, kube.kubernetes, env) : describeAccount(worlds, url, clusters, env),
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
        templates: { values: () => worlds.flatMap((w) => [...w.ec2.templates.values()]) },
        instances: { keys: () => worlds.flatMap((w) => [...w.ec2.instances.keys()]) }
      },
      region: s.cluster.region,
      zones: one ? s.zones : [...new Set(worlds.flatMap((w) => w.scenario.zones))].sort()
    }),
    eks: new EksFace({
      eks: target.cloud.eks,
      region: s.cluster.region,
      start: s.start,
      pageSize: s.eks.updates.pageSize
    }),
    cloudWatch: new CloudWatchFace(target.cloud.cloudWatch),
    prometheus: new PrometheusFace(
      new Map(worlds.map((w) => [w.scenario.cluster.name, w.metrics]))
    ),
    github: new GitHubFace(options.github, () => first.clock.now()),
    kubernetes: kubernetesFace(first, options.kubernetes)
  };
}
function environment(world, url, kubeconfigPath) {
  return {
    AWS_ENDPOINT_URL_EKS: url,
    AWS_ENDPOINT_URL_AUTO_SCALING: url,
    AWS_ENDPOINT_URL_EC2: url,
    AWS_ENDPOINT_URL_CLOUDWATCH: url,
    AWS_ENDPOINT_URL_STS: url,
    AWS_REGION: world.scenario.cluster.region,
    AWS_ACCESS_KEY_ID: DEFAULT_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: DEFAULT_CREDENTIALS.secretAccessKey,
    GITHUB_API_URL: url,
    ...kubeconfigPath && { KUBECONFIG: kubeconfigPath }
  };
}
function describeAccount(worlds, url, clusters, env) {
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
    `  GitHub REST      ${url}/repos/...`,
    "",
    "export these to point the AWS SDK / CLI, kubectl and Octokit at it (kubectl: the first cluster):",
    ...Object.entries(env).map(([k, v]) => `  export ${k}=${v}`),
    ""
  ].join("\n");
}
function describeServer(world, url, kubeUrl, env) {
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
    `  GitHub REST      ${url}/repos/...`,
    "",
    "export these to point the AWS SDK / CLI, kubectl and Octokit at it:",
    ...Object.entries(env).map(([k, v]) => `  export ${k}=${v}`),
    ""
  ].join("\n");
}
export {
  MAX_SERVED_CLUSTERS,
  kubeconfigPathOf,
  serveSandbox
};
