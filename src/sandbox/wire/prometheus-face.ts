// The Prometheus face: the HTTP API's instant queries (`GET` or form `POST`
// `/api/v1/query?query=...`, https://prometheus.io/docs/prometheus/latest/querying/api/) under
// `/prometheus` — the address a gate is given is `<serve url>/prometheus` — answered by the
// world's own Prometheus (sim/prometheus.ts) at its virtual time: `{"status": "success", "data":
// {"resultType", "result"}}`, or `{"status": "error", "errorType": "bad_data", "error"}` with HTTP
// 400 for a query the sandbox does not evaluate. For an account, `/prometheus` is the first
// cluster's and `/prometheus/<cluster>` each cluster's. `throttleNext` and `unavailableNext` make
// the next answers a 429 or a 503 with a Retry-After, for tests of a client's patience.
import type { SandboxMetrics } from "../ports/metrics-face.js";
import { PromQueryError } from "../sim/prometheus.js";
import { json, type Face, type WireRequest, type WireResponse } from "./http-server.js";

/** Where the face answers: the address to give a gate is the server's URL and this. */
export const PROMETHEUS_PATH = "/prometheus";

const QUERY = new RegExp(`^${PROMETHEUS_PATH}(?:/([^/]+))?/api/v1/query$`);

const RESOURCE = "prometheus/query";

function error(status: number, errorType: string, text: string, extra = {}): WireResponse {
  return json(status, { status: "error", errorType, error: text }, RESOURCE, extra);
}

export class PrometheusFace implements Face {
  readonly name = "prometheus";
  /** Answer the next N queries 429 Too Many Requests, with `retryAfterSeconds`. */
  throttleNext = 0;
  /** Answer the next N queries 503 Service Unavailable, with `retryAfterSeconds`. */
  unavailableNext = 0;
  retryAfterSeconds = 1;

  /** `clusters`: each cluster's Prometheus by its name, the first the default. */
  constructor(private readonly clusters: ReadonlyMap<string, SandboxMetrics>) {}

  handle(req: WireRequest): WireResponse | undefined {
    if (req.path !== PROMETHEUS_PATH && !req.path.startsWith(`${PROMETHEUS_PATH}/`))
      return undefined;
    const match = QUERY.exec(req.path);
    const name = match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
    const metrics = name === undefined ? [...this.clusters.values()][0] : this.clusters.get(name);
    if (!match || !metrics)
      return {
        status: 404,
        headers: { "content-type": "text/plain" },
        body: "404 page not found\n",
      };
    if (req.method !== "GET" && req.method !== "POST")
      return error(405, "bad_data", `method ${req.method} not allowed`);
    const params = new URLSearchParams(req.query);
    if (req.method === "POST" && /x-www-form-urlencoded/.test(req.headers["content-type"] ?? ""))
      for (const [k, v] of new URLSearchParams(req.body)) params.append(k, v);
    const busy = this.#busy();
    if (busy) return busy;
    const query = params.get("query");
    if (query === null || query.trim() === "")
      return error(400, "bad_data", 'invalid parameter "query": no expression found in input');
    if (params.has("time"))
      return error(
        400,
        "bad_data",
        'invalid parameter "time": the sandbox evaluates at its own current time only',
      );
    try {
      return json(200, { status: "success", data: metrics.query(query) }, RESOURCE);
    } catch (e) {
      if (e instanceof PromQueryError) return error(400, e.errorType, e.message);
      return error(500, "internal", (e as Error).message);
    }
  }

  #busy(): WireResponse | undefined {
    const retry = { "retry-after": String(this.retryAfterSeconds) };
    if (this.throttleNext > 0) {
      this.throttleNext--;
      return error(429, "unavailable", "too many requests", retry);
    }
    if (this.unavailableNext > 0) {
      this.unavailableNext--;
      return error(503, "unavailable", "the sandbox's Prometheus is unavailable", retry);
    }
    return undefined;
  }
}
