// What the Auto Scaling and EC2 faces share: recognising a query-protocol request for a service
// (POST / with a form body, signed for that service), reading its parameters, and turning the
// port's errors into the service's error document.
import { AwsApiError } from "../../ports/errors.js";
import { parseQueryParams, signingService, type QueryValue } from "./aws-query.js";
import { RESOURCE_HEADER, type WireRequest, type WireResponse } from "./http.js";

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
