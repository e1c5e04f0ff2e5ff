// The CloudWatch face: DescribeAlarms, PutMetricAlarm and SetAlarmState over the Cloud port's
// CloudWatch, in each protocol a client may speak. CloudWatch's service model names three
// (`protocols: smithy-rpc-v2-cbor, json, query`, with awsQueryCompatible), and each client picks
// the first it supports in an order of its own:
// - the AWS SDK for JavaScript v3 (@aws-sdk/client-cloudwatch 3.11xx) and botocore 1.43 (the
//   aws CLI v1): awsJson1_0 — POST / with `X-Amz-Target: GraniteServiceVersion20100801.<Op>` and
//   a JSON body, timestamps in epoch seconds;
// - Debian's aws CLI v2 (2.9): the query protocol — POST / with a form signed for `monitoring`,
//   XML out, list members as <member>;
// - Smithy RPC v2 CBOR (`POST /service/GraniteServiceVersion20100801/operation/<Op>`,
//   `smithy-protocol: rpc-v2-cbor`), what newer clients may choose; bodies with @smithy/core's
//   CBOR codec, the one the SDK itself uses.
// Errors are the query protocol's error document, or for JSON and CBOR a `__type` and a
// `message` with the query code in `x-amzn-query-error` (awsQueryCompatible: the code a client
// reports is the query protocol's, ResourceNotFound, InvalidParameterValue, ...).
import { gunzipSync } from "node:zlib";
import { cbor, dateToTag } from "@smithy/core/cbor";
import { AwsApiError, NetworkError } from "../../ports/errors.js";
import type { SandboxCloudWatchApi } from "../ports/api.js";
import { RESOURCE_HEADER, type Face, type WireRequest, type WireResponse } from "./http-server.js";
import { queryCall, xmlResponse } from "./query-face.js";
import { queryErrorXml, toXml, type XmlValue } from "./query-protocol.js";
import { CLOUDWATCH_ACTIONS, type Input } from "./cloudwatch-actions.js";

export const CLOUDWATCH_NS = "http://monitoring.amazonaws.com/doc/2010-08-01/";
/** The service's shape name: the JSON protocol's X-Amz-Target prefix, the CBOR path's service. */
const SERVICE = "GraniteServiceVersion20100801";
const CBOR_PATH = new RegExp(`^/service/${SERVICE}/operation/([A-Za-z]+)$`);

type Protocol = "json" | "cbor" | "query";

/** The error shapes of the JSON and CBOR protocols, by query code (the service model's). */
const SHAPES: Record<string, string> = {
  InvalidParameterValue: "InvalidParameterValueException",
  MissingParameter: "MissingRequiredParameterException",
  InvalidParameterCombination: "InvalidParameterCombinationException",
  InvalidFormat: "InvalidFormatFault",
  LimitExceeded: "LimitExceededFault",
  InternalServiceError: "InternalServiceFault",
};

/** The request, if it is a CloudWatch call in one of the three protocols. */
function recognise(
  req: WireRequest,
): { protocol: Protocol; action: string; input: Input } | { bad: string } | undefined {
  if (req.method !== "POST") return undefined;
  const target = String(req.headers["x-amz-target"] ?? "");
  const cborOp = CBOR_PATH.exec(req.path)?.[1];
  if (req.path === "/" && target.startsWith(`${SERVICE}.`)) {
    const input = decode(req, (bytes) => JSON.parse(bytes.toString("utf8") || "{}") as unknown);
    return "bad" in input
      ? input
      : { protocol: "json", action: target.slice(SERVICE.length + 1), input: input.ok };
  }
  if (cborOp) {
    const input = decode(req, (bytes) => (bytes.length ? cbor.deserialize(bytes) : {}) as unknown);
    return "bad" in input ? input : { protocol: "cbor", action: cborOp, input: input.ok };
  }
  const call = queryCall(req, "monitoring");
  if (!call) return undefined;
  if ("badType" in call) return { bad: `Unsupported content type ${call.badType}` };
  return { protocol: "query", action: call.action, input: call.params };
}

/** The body, uncompressed (PutMetricData's gzip) and decoded; `bad` when it is neither. */
function decode(
  req: WireRequest,
  parse: (bytes: Buffer) => unknown,
): { ok: Input } | { bad: string } {
  try {
    const raw = req.raw ?? Buffer.from(req.body);
    const bytes = /gzip/.test(String(req.headers["content-encoding"] ?? ""))
      ? gunzipSync(raw)
      : raw;
    const value = parse(bytes);
    if (!value || typeof value !== "object" || Array.isArray(value))
      return { bad: "the body is not an object" };
    return { ok: value as Input };
  } catch (e) {
    return { bad: `the body cannot be read: ${(e as Error).message}` };
  }
}

/** `value` with its timestamps as `stamp` writes them (JSON: epoch seconds; CBOR: tag 1). */
function withStamps(value: unknown, stamp: (d: Date) => unknown): unknown {
  if (value instanceof Date) return stamp(value);
  if (Array.isArray(value)) return value.map((v) => withStamps(v, stamp));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withStamps(v, stamp)]));
  return value;
}

function answer(protocol: Protocol, action: string, result: object, id: string): WireResponse {
  const headers = { [RESOURCE_HEADER]: action, "x-amzn-requestid": id };
  if (protocol === "json")
    return {
      status: 200,
      headers: { ...headers, "content-type": "application/x-amz-json-1.0" },
      body: JSON.stringify(withStamps(result, (d) => d.getTime() / 1000)),
    };
  if (protocol === "cbor")
    return {
      status: 200,
      headers: { ...headers, "content-type": "application/cbor", "smithy-protocol": "rpc-v2-cbor" },
      bytes: cbor.serialize(withStamps(result, dateToTag)),
    };
  const inner = `<${action}Result>${toXml(result as XmlValue, "member")}</${action}Result>`;
  return xmlResponse(
    200,
    `<${action}Response xmlns="${CLOUDWATCH_NS}">${inner}<ResponseMetadata><RequestId>${id}</RequestId></ResponseMetadata></${action}Response>`,
    action,
  );
}

function failure(protocol: Protocol, e: AwsApiError, resource: string, id: string): WireResponse {
  if (protocol === "query")
    return xmlResponse(
      e.status,
      queryErrorXml({ status: e.status, code: e.code, message: e.message }, id, CLOUDWATCH_NS),
      resource,
    );
  const fault = e.status >= 500 ? "Receiver" : "Sender";
  const headers = {
    [RESOURCE_HEADER]: resource,
    "x-amzn-requestid": id,
    "x-amzn-query-error": `${e.code};${fault}`,
  };
  const body = {
    __type: `com.amazonaws.cloudwatch#${SHAPES[e.code] ?? e.code}`,
    message: e.message,
  };
  return protocol === "json"
    ? {
        status: e.status,
        headers: { ...headers, "content-type": "application/x-amz-json-1.0" },
        body: JSON.stringify(body),
      }
    : {
        status: e.status,
        headers: {
          ...headers,
          "content-type": "application/cbor",
          "smithy-protocol": "rpc-v2-cbor",
        },
        bytes: cbor.serialize(body),
      };
}

export class CloudWatchFace implements Face {
  readonly name = "cloudwatch";
  /** Answer the next N requests with CloudWatch's throttling error (tests of the SDK's retries). */
  throttleNext = 0;
  /** Alarms a DescribeAlarms page holds at most, whatever MaxRecords asks (tests of paging). */
  maxPage = 100;
  #requestNo = 0;

  constructor(private readonly cloudWatch: SandboxCloudWatchApi) {}

  async handle(req: WireRequest): Promise<WireResponse | undefined> {
    const call = recognise(req);
    if (!call) return undefined;
    const id = `cw-${++this.#requestNo}`;
    const protocol: Protocol = "bad" in call ? "query" : call.protocol;
    if ("bad" in call)
      return failure(
        protocol,
        new AwsApiError("InvalidParameterValue", call.bad),
        "BadRequest",
        id,
      );
    const { action, input } = call;
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return failure(protocol, new AwsApiError("Throttling", "Rate exceeded"), action, id);
    }
    const act = Object.hasOwn(CLOUDWATCH_ACTIONS, action) ? CLOUDWATCH_ACTIONS[action] : undefined;
    if (!act) {
      const e =
        protocol === "query"
          ? new AwsApiError(
              "InvalidAction",
              `The action ${action || "(none)"} is not valid for this web service.`,
            )
          : new AwsApiError("UnknownOperationException", `Unknown operation ${action}`);
      return failure(protocol, e, action || "InvalidAction", id);
    }
    try {
      return answer(protocol, action, await act(this.cloudWatch, input, this.maxPage), id);
    } catch (e) {
      if (e instanceof NetworkError) throw e; // the server's answer never arrives
      if (!(e instanceof AwsApiError))
        return failure(
          protocol,
          new AwsApiError("InternalServiceError", (e as Error).message, 500),
          action,
          id,
        );
      const code = e.code === "ThrottlingException" ? "Throttling" : e.code;
      return failure(protocol, new AwsApiError(code, e.message, e.status), action, id);
    }
  }
}
