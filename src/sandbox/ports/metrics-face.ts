// The Metrics port (src/ports/signals.ts) served by the world's own Prometheus
// (sim/prometheus.ts), whatever address a gate names: in-process the world is the one
// Prometheus there is (on the wire, `sandbox serve` answers at <url>/prometheus). The answer is
// reduced to one value as the real adapter reduces the HTTP API's (src/adapters/metrics/
// prometheus.ts); a query the sandbox does not evaluate is refused as Prometheus refuses one it
// cannot parse: HTTP 400, errorType bad_data — a KubeApiError of that status and reason, the
// shape the adapter's PrometheusApiError has. Each query counts as `prometheus.query` in
// `world.calls`.
import { KubeApiError } from "../../ports/errors.js";
import type { Metrics, QueryValue } from "../../ports/signals.js";
import { PromQueryError, type PromData, type PrometheusSim } from "../sim/prometheus.js";

/** The answer's data as one value, or why there is none (as the adapter reduces it). */
export function promValue(data: PromData): QueryValue {
  if (data.resultType === "vector" && data.result.length !== 1)
    return data.result.length === 0
      ? { kind: "empty", why: "no series" }
      : { kind: "empty", why: `${data.result.length} series: a gate needs one number` };
  const text = data.resultType === "scalar" ? data.result[1] : data.result[0]!.value[1];
  const value = Number(text);
  return Number.isFinite(value) && !/nan/i.test(text)
    ? { kind: "value", value }
    : { kind: "empty", why: `the value is ${text}` };
}

export class SandboxMetrics implements Metrics {
  constructor(
    private readonly prometheus: PrometheusSim,
    private readonly calls: Map<string, number>,
  ) {}

  /** The HTTP API's answer's data (the wire face's); throws PromQueryError as `query` does. */
  query(query: string): PromData {
    this.calls.set("prometheus.query", (this.calls.get("prometheus.query") ?? 0) + 1);
    return this.prometheus.query(query);
  }

  async instantQuery(input: { address: string; query: string }): Promise<QueryValue> {
    try {
      return promValue(this.query(input.query));
    } catch (e) {
      if (e instanceof PromQueryError)
        throw new KubeApiError(400, e.errorType, `Prometheus answered 400 bad_data: ${e.message}`);
      throw e;
    }
  }
}
