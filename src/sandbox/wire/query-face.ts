// What the Auto Scaling and EC2 faces share: recognising a query-protocol request for a service
// (POST / with a form body, signed for that service), reading its parameters, and turning the
// port's errors into the service's error document.
import { AwsApiError, NetworkError } from "../../ports/errors.js";
import {
  parseQueryParams,
  signingService,
  type QueryValue,
  type XmlValue,
} from "./query-protocol.js";
import { RESOURCE_HEADER, type Face, type WireRequest, type WireResponse } from "./http-server.js";

export type Params = Record<string, QueryValue>;

/** The request's parameters if it is a query-protocol call signed for `service`. */
export function queryCall(
  req: WireRequest,
  service: string,
): { action: string; params: Params } | { badType: string } | undefined {
  if (req.path !== "/" || req.method !== "POST") return undefined;
  if (signingService(req.headers, req.query) !== service) return undefined;
  const type = String(req.headers["content-type"] ?? "");
  if (!/application\/x-www-form-urlencoded/.test(type)) return { badType: type || "(none)" };
  const params = parseQueryParams(new URLSearchParams(req.body));
  return { action: typeof params.Action === "string" ? params.Action : "", params };
}

export function xmlResponse(status: number, body: string, resource: string): WireResponse {
  return { status, headers: { "content-type": "text/xml", [RESOURCE_HEADER]: resource }, body };
}

export function str(p: Params, key: string): string | undefined {
  const v = p[key];
  return typeof v === "string" ? v : undefined;
}

export function need(p: Params, key: string): string {
  const v = str(p, key);
  if (v === undefined)
    throw new AwsApiError(
      "ValidationError",
      `1 validation error detected: Value null at '${key}' failed to satisfy constraint: Member must not be null`,
    );
  return v;
}

export function num(p: Params, key: string): number | undefined {
  const v = str(p, key);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n))
    throw new AwsApiError("ValidationError", `Value ${v} for ${key} is not a number`);
  return n;
}

export function bool(p: Params, key: string): boolean | undefined {
  const v = str(p, key);
  return v === undefined ? undefined : v === "true";
}

export function list(p: Params, key: string): string[] | undefined {
  const v = p[key];
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string");
}

export function objects(p: Params, key: string): Params[] {
  const v = p[key];
  return Array.isArray(v)
    ? (v.filter((x) => x && typeof x === "object" && !Array.isArray(x)) as Params[])
    : [];
}

/** Offset paging with an opaque NextToken. */
export function pageOf<T>(
  items: T[],
  token: string | undefined,
  max: number,
): { page: T[]; next?: string } {
  const offset = token ? Number(Buffer.from(token, "base64url").toString()) || 0 : 0;
  const page = items.slice(offset, offset + max);
  return offset + max < items.length
    ? { page, next: Buffer.from(String(offset + max)).toString("base64url") }
    : { page };
}

/** What differs between the query-protocol services: naming, error documents, answers. */
export interface QueryDialect {
  service: string;
  idPrefix: string;
  badTypeMessage: (type: string) => string;
  /** The service's own throttling error (for `throttleNext` and for the port's ThrottlingException). */
  throttling: (message?: string) => AwsApiError;
  errorXml: (e: AwsApiError, requestId: string) => string;
  /** The whole success document for an action's result (null: an action without one). */
  answerXml: (action: string, result: XmlValue | null, requestId: string) => string;
}

/**
 * The query-protocol face loop both services share: recognise the call, throttle on demand,
 * run the action, and answer in the service's shape — a sandbox fault included.
 */
export abstract class QueryFace implements Face {
  abstract readonly name: string;
  /** Answer the next N requests with the service's throttling error (tests of the SDK's retries). */
  throttleNext = 0;
  #requestNo = 0;

  protected abstract readonly dialect: QueryDialect;
  /** The action's result; null for actions without one; undefined = unknown action. */
  protected abstract run(action: string, params: Params): Promise<XmlValue | null | undefined>;

  async handle(req: WireRequest): Promise<WireResponse | undefined> {
    const d = this.dialect;
    const call = queryCall(req, d.service);
    if (!call) return undefined;
    const id = `${d.idPrefix}-${++this.#requestNo}`;
    const fail = (e: AwsApiError, resource: string) =>
      xmlResponse(e.status, d.errorXml(e, id), resource);
    if ("badType" in call)
      return fail(
        new AwsApiError("InvalidParameterValue", d.badTypeMessage(call.badType)),
        "BadRequest",
      );
    const { action, params } = call;
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return fail(d.throttling(), action);
    }
    try {
      const result = await this.run(action, params);
      if (result === undefined) {
        return fail(
          new AwsApiError(
            "InvalidAction",
            `The action ${action || "(none)"} is not valid for this web service.`,
          ),
          action || "InvalidAction",
        );
      }
      return xmlResponse(200, d.answerXml(action, result, id), action);
    } catch (e) {
      if (e instanceof NetworkError) throw e; // the server's answer never arrives
      if (!(e instanceof AwsApiError))
        return fail(new AwsApiError("InternalFailure", (e as Error).message, 500), action);
      return fail(e.code === "ThrottlingException" ? d.throttling(e.message) : e, action);
    }
  }
}
