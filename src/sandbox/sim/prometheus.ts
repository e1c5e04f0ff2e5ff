// The world's Prometheus: instant queries evaluated against the simulated cluster at the virtual
// time, answered in the HTTP API's shape (https://prometheus.io/docs/prometheus/latest/querying/api/):
// `{resultType: "scalar" | "vector", result}`, a sample's value a string ("0.001", "NaN", "+Inf").
//
// It is no PromQL engine. It understands a small grammar (docs/sandbox.md, "Prometheus"), and
// refuses anything else as Prometheus refuses a query it cannot parse — errorType `bad_data` —
// rather than answer a number it did not compute:
// - a number literal: a scalar; `vector(<number>)`: one sample without labels;
// - the workloads' error ratio (sim/bad-release.ts), one sample without labels: `sandbox:error_ratio`,
//   or a ratio of `http_requests_total` with a 5xx matcher (`code=~"5.."`, `status="5xx"`, ...)
//   over anything (`sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[5m]))`);
//   no sample when no workload pod serves (no requests: Prometheus would find no series);
// - `kube_node_info`, as kube-state-metrics exports it, with equality matchers only: one sample
//   (1) per node, labelled `node`, `kubelet_version` and `provider_id`.
import type { Node } from "../../ports/cluster.js";
import type { BadReleases } from "./bad-release.js";

/** A sample as the API writes it: seconds since the epoch, and the value as text. */
export type PromSample = [number, string];

export type PromData =
  | { resultType: "scalar"; result: PromSample }
  | { resultType: "vector"; result: { metric: Record<string, string>; value: PromSample }[] };

/** A query the sandbox does not evaluate (errorType bad_data, HTTP 400, as Prometheus says). */
export class PromQueryError extends Error {
  override name = "PromQueryError";
  readonly errorType = "bad_data";
}

export interface PrometheusView {
  nowMs: () => number;
  badReleases: BadReleases;
  /** The nodes as the API shows them (their labels for kube_node_info). */
  nodes: () => Node[];
}

/** A float as Prometheus writes one (Go's strconv 'f' format, and its words for the others). */
export function promNumber(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

const NUMBER = String.raw`[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|Inf|NaN)`;
const LITERAL = new RegExp(`^${NUMBER}$`, "i");
const VECTOR = new RegExp(`^vector\\s*\\(\\s*(${NUMBER})\\s*\\)$`, "i");
/** A 5xx matcher on a status label: code=~"5..", status="5xx", status_code=~"5\\d\\d", ... */
const FIVE_XX =
  /http_requests_total\s*\{[^}]*\b(?:code|status|status_code|response_code)\s*=~?\s*"5(?:\.\.|\.\*|xx|\\\\?d\\\\?d|\[0-9\]\[0-9\])"/;
const NODE_INFO = /^kube_node_info\s*(?:\{([^}]*)\})?$/;
const MATCHER = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"([^"]*)"\s*$/;

const literal = (text: string): number =>
  /inf/i.test(text) ? (text.startsWith("-") ? -Infinity : Infinity) : Number(text);

export class PrometheusSim {
  constructor(private readonly view: PrometheusView) {}

  /** Evaluate `query` now; throws PromQueryError for what the grammar above does not hold. */
  query(query: string): PromData {
    const q = query.trim();
    const t = this.view.nowMs() / 1000;
    const one = (v: number | undefined): PromData => ({
      resultType: "vector",
      result: v === undefined ? [] : [{ metric: {}, value: [t, promNumber(v)] }],
    });
    if (LITERAL.test(q)) return { resultType: "scalar", result: [t, promNumber(literal(q))] };
    const vector = VECTOR.exec(q);
    if (vector) return one(literal(vector[1] as string));
    if (/^sandbox:error_ratio\s*(?:\{\s*\})?$/.test(q))
      return one(this.view.badReleases.errorRatio());
    if (FIVE_XX.test(q)) {
      if (!q.includes("/"))
        throw new PromQueryError(
          `the sandbox answers http_requests_total with a 5xx matcher only as a ratio (errors / all), not "${q}"`,
        );
      return one(this.view.badReleases.errorRatio());
    }
    const info = NODE_INFO.exec(q);
    if (info) return { resultType: "vector", result: this.#nodeInfo(info[1] ?? "", t) };
    throw new PromQueryError(
      `the sandbox's Prometheus does not evaluate "${q}": it answers a number, vector(<number>), sandbox:error_ratio, a ratio of http_requests_total with a 5xx matcher, and kube_node_info{label="value"} (docs/sandbox.md)`,
    );
  }

  #nodeInfo(matchers: string, t: number) {
    const wanted = matchers
      .split(",")
      .filter((m) => m.trim() !== "")
      .map((m) => {
        const hit = MATCHER.exec(m);
        if (!hit)
          throw new PromQueryError(
            `the sandbox's kube_node_info takes equality matchers only (label="value"), not ${m.trim()}`,
          );
        return [hit[1] as string, hit[2] as string] as const;
      });
    return this.view
      .nodes()
      .map((n) => ({
        __name__: "kube_node_info",
        node: n.metadata.name,
        kubelet_version: n.status.nodeInfo?.kubeletVersion ?? "",
        provider_id: n.spec.providerID ?? "",
      }))
      .filter((labels) => wanted.every(([k, v]) => (labels as Record<string, string>)[k] === v))
      .map((metric) => ({ metric, value: [t, "1"] as PromSample }));
  }
}
