// The Metrics port (src/ports/signals.ts) on the Prometheus HTTP API: an instant query is
// `GET <address>/api/v1/query?query=...`, answered with
// `{"status": "success", "data": {"resultType": ..., "result": ...}}`, or with `"status": "error"`
// and an `errorType` and `error` (https://prometheus.io/docs/prometheus/latest/querying/api/).
// A gate compares one number, so the answer is reduced to one: a scalar, or a vector with exactly
// one sample; no sample, several, or a value that is no number (NaN, ±Inf) is `empty`, with why.
//
// Every call has a deadline (TIMEOUT_MS) and ends when the adapters are closed (`signal`). A
// server that asks to come back later — 429, or a 503 with a Retry-After (RFC 9110, sections
// 15.5.20 and 10.2.3; Prometheus itself answers 503 when a query times out or is aborted) — is
// a PrometheusApiError of status 429 with the seconds it asked for: the ports' own mark of a
// throttled call, which the one retry layer (src/ports/resilient.ts) waits out. Every other error
// answer is a PrometheusApiError of its own status, a connection that breaks or a deadline that
// passes a NetworkError, as the other adapters' are.
import {
  asNetworkError,
  KubeApiError,
  NetworkError,
  retryAfterSeconds,
} from "../../ports/errors.js";
import type { Metrics, QueryValue } from "../../ports/signals.js";

/** How long one query may take, its whole answer read. */
export const TIMEOUT_MS = 10_000;

export interface PrometheusOptions {
  /** Ends every request in flight (the adapters are closed). */
  signal?: AbortSignal;
  /** Per request; TIMEOUT_MS by default. */
  timeoutMs?: number;
  /** Headers every request carries (an Authorization for a hosted Prometheus). */
  headers?: Record<string, string>;
}

/**
 * An error answer of the Prometheus API: its HTTP status, errorType (`bad_data`, `execution`,
 * `timeout`, `canceled`, `internal`, `unavailable`) and error text. It takes the shape of the
 * ports' HTTP-status error (KubeApiError: status, reason, Retry-After) so that resilient.ts
 * waits out a "come back later" as it does the API server's; `httpStatus` is what the server
 * said, which for a 503 asking to come back later differs from `status` (429).
 */
export class PrometheusApiError extends KubeApiError {
  override name = "PrometheusApiError";
  constructor(
    readonly httpStatus: number,
    readonly errorType: string,
    message: string,
    retryAfter?: number,
  ) {
    const later = httpStatus === 429 || (httpStatus === 503 && retryAfter !== undefined);
    super(later ? 429 : httpStatus, errorType, message, retryAfter);
  }
}

interface Answer {
  status?: string;
  errorType?: string;
  error?: string;
  data?: { resultType?: string; result?: unknown };
}

/** `[time, "value"]`: a sample as the API writes it (the value a string: "NaN", "+Inf"). */
type Sample = [number, string];

/** The sample's value, or why it is none a gate can compare. */
function valueOf(sample: Sample | undefined): QueryValue {
  const text = sample?.[1];
  const value = Number(text);
  if (typeof text !== "string" || text.trim() === "" || Number.isNaN(value))
    return { kind: "empty", why: `the value is ${text === undefined ? "missing" : text}` };
  if (!Number.isFinite(value)) return { kind: "empty", why: `the value is ${text}` };
  return { kind: "value", value };
}

/** A success answer's data as one value, or why there is none. */
export function queryValue(data: Answer["data"]): QueryValue {
  const result = data?.result;
  switch (data?.resultType) {
    case "scalar":
      return valueOf(result as Sample);
    case "vector": {
      const samples = Array.isArray(result) ? (result as { value?: Sample }[]) : [];
      if (samples.length === 0) return { kind: "empty", why: "no series" };
      if (samples.length > 1)
        return { kind: "empty", why: `${samples.length} series: a gate needs one number` };
      return valueOf(samples[0]?.value);
    }
    case "matrix":
      return { kind: "empty", why: "a range vector (matrix): a gate needs one number" };
    default:
      return { kind: "empty", why: `a result of type ${data?.resultType ?? "(none)"}` };
  }
}

/** The query's URL: `address` may carry a path prefix (`http://host/prometheus`). */
export function queryUrl(address: string, query: string): string {
  const url = new URL(`${address.replace(/\/+$/, "")}/api/v1/query`);
  url.searchParams.set("query", query);
  return url.toString();
}

/** The answer's JSON, or undefined when its body is not JSON (a proxy's HTML page). */
function parse(text: string): Answer | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" ? (v as Answer) : undefined;
  } catch {
    return undefined;
  }
}

/** What came back, as a value or a PrometheusApiError. */
function answered(res: Response, text: string, address: string): QueryValue {
  const body = parse(text);
  if (res.ok && body?.status === "success") return queryValue(body.data);
  const retryAfter = retryAfterSeconds(
    res.headers.get("retry-after") ?? undefined,
    res.headers.get("date") ?? undefined,
    Date.now(),
  );
  const errorType = body?.errorType ?? (res.ok ? "bad_response" : `HTTP ${res.status}`);
  const error =
    body?.error ??
    (body ? `status ${String(body.status)}` : `not a Prometheus answer: ${text.slice(0, 200)}`);
  throw new PrometheusApiError(
    res.status,
    errorType,
    `Prometheus at ${address} answered ${res.status} ${errorType}: ${error}`,
    retryAfter,
  );
}

/** A failure with no answer, as the ports name it; an abort by `signal` stays an abort. */
function failure(e: unknown, signal: AbortSignal | undefined, timeoutMs: number): unknown {
  if (signal?.aborted) return e;
  const err = e as { name?: string; cause?: unknown };
  if (err?.name === "TimeoutError")
    return new NetworkError("ETIMEDOUT", `no answer from Prometheus within ${timeoutMs / 1000} s`);
  return asNetworkError(err?.cause) ?? asNetworkError(e) ?? e;
}

/** The Metrics port on the Prometheus HTTP API. */
export function prometheusMetrics(options: PrometheusOptions = {}): Metrics {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  return {
    async instantQuery({ address, query }) {
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
      try {
        const res = await fetch(queryUrl(address, query), {
          headers: { accept: "application/json", ...options.headers },
          signal,
        });
        return answered(res, await res.text(), address);
      } catch (e) {
        if (e instanceof PrometheusApiError) throw e;
        throw failure(e, options.signal, timeoutMs);
      }
    },
  };
}
