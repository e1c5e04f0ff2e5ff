// The Prometheus adapter (src/adapters/metrics/prometheus.ts) against the Prometheus API that
// `sandbox serve` answers at <url>/prometheus: one value, no series, several, a value that is no
// number, an error answer, a server asking to come back later (429, 503 with Retry-After) as the
// ports' one retry layer waits it out; and against servers of its own, what no Prometheus answers
// well: silence (its deadline), a page that is not JSON, a refused connection, a closed adapter.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PrometheusApiError,
  prometheusMetrics,
  queryUrl,
} from "../../src/adapters/metrics/prometheus.js";
import {
  ApiCallError,
  NetworkError,
  resilient,
  systemClock,
  type Metrics,
  type RetryInfo,
} from "../../src/ports/index.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { badReleaseScenario } from "../sandbox/helpers.js";

let world: World;
let server: SandboxServer;
let address: string;
const metrics = prometheusMetrics();

beforeAll(async () => {
  world = World.from(badReleaseScenario("prom", { effect: "errors", errorRatio: 0.5 }));
  server = await serveSandbox(world, { speed: 0, instant: false });
  address = server.endpoints.prometheus;
});
afterAll(() => server?.close());

const query = (q: string, m: Metrics = metrics) => m.instantQuery({ address, query: q });
const RATIO =
  'sum(rate(http_requests_total{status=~"5.."}[1m])) / sum(rate(http_requests_total[1m]))';

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

/** A loopback server answering every request with `answer` (or never, when it returns nothing). */
async function fake(answer: (res: import("node:http").ServerResponse) => void): Promise<Server> {
  const s = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return s;
}
const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
const closeAll = (s: Server) =>
  new Promise<void>((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  });

describe("the Prometheus adapter against sandbox serve", () => {
  it("is told the address with its path prefix", () => {
    expect(address).toBe(`${server.url}/prometheus`);
    expect(queryUrl(`${address}/`, "a b")).toBe(`${server.url}/prometheus/api/v1/query?query=a+b`);
  });

  it("one value: a scalar, a one-sample vector, the workloads' error ratio", async () => {
    expect(await query("0.25")).toEqual({ kind: "value", value: 0.25 });
    expect(await query("vector(42)")).toEqual({ kind: "value", value: 42 });
    expect(await query(RATIO)).toEqual({ kind: "value", value: 0.001 });
    expect(server.log.entries.at(-1)).toMatchObject({
      face: "prometheus",
      method: "GET",
      path: "/prometheus/api/v1/query",
      status: 200,
    });
    expect(world.calls.get("prometheus.query")).toBe(3);
  });

  it("the error ratio rises with the share of workload pods on the bad release", async () => {
    const before = new Set(world.kube.nodes.keys());
    await world.cloud.autoScaling.updateAutoScalingGroup({
      AutoScalingGroupName: "nodes",
      LaunchTemplate: { LaunchTemplateName: "nodes", Version: "2" },
      DesiredCapacity: 3,
    });
    const bad = () => world.kube.nodeList().find((n) => !before.has(n.name) && n.ready);
    await world.until(() => bad() !== undefined, 600_000);
    for (const n of world.kube.nodeList())
      if (n !== bad()) await world.cluster.patchNode(n.name, { unschedulable: true });
    const web = world.workload("web");
    await world.cluster.deletePod("default", [...web.pods][0]!.name, { gracePeriodSeconds: 0 });
    await world.until(() => [...web.pods].some((p) => p.nodeName === bad()!.name && p.startedAt));
    // One of two web pods on the bad release: (0.001 + 0.5) / 2.
    expect(await query(RATIO)).toEqual({ kind: "value", value: (0.001 + 0.5) / 2 });
    expect(await query("sandbox:error_ratio")).toEqual({ kind: "value", value: 0.2505 });
  });

  it("no series, several, a value that is no number: empty, with why", async () => {
    expect(await query('kube_node_info{node="nowhere"}')).toEqual({
      kind: "empty",
      why: "no series",
    });
    const nodes = world.kube.nodeList().length;
    expect(await query("kube_node_info")).toEqual({
      kind: "empty",
      why: `${nodes} series: a gate needs one number`,
    });
    expect(await query("NaN")).toEqual({ kind: "empty", why: "the value is NaN" });
    expect(await query("vector(-Inf)")).toEqual({ kind: "empty", why: "the value is -Inf" });
  });

  it("an error answer: its errorType and text, HTTP 400, not retried", async () => {
    const e = await rejection(query("rate(up[5m])"));
    expect(e).toBeInstanceOf(PrometheusApiError);
    expect(e).toMatchObject({ status: 400, httpStatus: 400, errorType: "bad_data" });
    expect((e as Error).message).toContain(`Prometheus at ${address} answered 400 bad_data`);
    expect((e as Error).message).toContain('does not evaluate "rate(up[5m])"');
    const retried: RetryInfo[] = [];
    const patient = resilient(metrics, systemClock, { onRetry: (i) => retried.push(i) });
    const again = await rejection(query("rate(up[5m])", patient));
    expect(again).toBeInstanceOf(PrometheusApiError);
    expect(retried).toEqual([]);
  });

  it("429 and 503 with Retry-After: a throttled call, waited out by resilient()", async () => {
    server.faces.prometheus.throttleNext = 1;
    const throttled = await rejection(query("1"));
    expect(throttled).toMatchObject({ status: 429, httpStatus: 429, retryAfterSeconds: 1 });
    server.faces.prometheus.unavailableNext = 1;
    const unavailable = await rejection(query("1"));
    expect(unavailable).toMatchObject({ status: 429, httpStatus: 503, retryAfterSeconds: 1 });
    server.faces.prometheus.retryAfterSeconds = 0;
    try {
      server.faces.prometheus.throttleNext = 1;
      server.faces.prometheus.unavailableNext = 1;
      const retried: RetryInfo[] = [];
      const patient = resilient(metrics, systemClock, { onRetry: (i) => retried.push(i) });
      expect(await query("2", patient)).toEqual({ kind: "value", value: 2 });
      expect(retried.map((r) => [r.api, r.call, r.why, r.waitMs])).toEqual([
        ["Prometheus", "GET /api/v1/query", "throttled", 0],
        ["Prometheus", "GET /api/v1/query", "throttled", 0],
      ]);
    } finally {
      server.faces.prometheus.retryAfterSeconds = 1;
    }
  });
});

describe("the Prometheus adapter against what no Prometheus answers well", () => {
  it("silence: a NetworkError (ETIMEDOUT) at its deadline, retried by resilient() as a read", async () => {
    const silent = await fake(() => undefined);
    try {
      const quick = prometheusMetrics({ timeoutMs: 200 });
      const e = await rejection(quick.instantQuery({ address: urlOf(silent), query: "1" }));
      expect(e).toBeInstanceOf(NetworkError);
      expect(e).toMatchObject({ code: "ETIMEDOUT" });
      // Its backoffs not waited out: the retries are what is counted.
      const waits: number[] = [];
      const clock = { now: () => new Date(), sleep: async (ms: number) => void waits.push(ms) };
      const patient = resilient(quick, clock);
      const given = await rejection(patient.instantQuery({ address: urlOf(silent), query: "1" }));
      expect(given).toBeInstanceOf(ApiCallError);
      expect((given as ApiCallError).info).toMatchObject({ api: "Prometheus", attempts: 6 });
      expect(waits).toHaveLength(5);
    } finally {
      await closeAll(silent);
    }
  }, 20_000);

  it("a page that is not JSON (a proxy's 502): an error with the status and what came", async () => {
    const proxy = await fake((res) => res.writeHead(502).end("<html>Bad Gateway</html>"));
    try {
      const e = await rejection(metrics.instantQuery({ address: urlOf(proxy), query: "1" }));
      expect(e).toMatchObject({ status: 502, errorType: "HTTP 502" });
      expect((e as Error).message).toContain("not a Prometheus answer: <html>Bad Gateway</html>");
    } finally {
      await closeAll(proxy);
    }
  });

  it("a refused connection: a NetworkError that was never sent; a closed adapter: an abort", async () => {
    const gone = await fake(() => undefined);
    const url = urlOf(gone);
    await closeAll(gone);
    const refused = await rejection(metrics.instantQuery({ address: url, query: "1" }));
    expect(refused).toBeInstanceOf(NetworkError);
    expect(refused).toMatchObject({ code: "ECONNREFUSED", sent: false });
    const silent = await fake(() => undefined);
    try {
      const closed = new AbortController();
      const live = prometheusMetrics({ signal: closed.signal });
      const pending = rejection(live.instantQuery({ address: urlOf(silent), query: "1" }));
      closed.abort();
      expect(await pending).toMatchObject({ name: "AbortError" });
    } finally {
      await closeAll(silent);
    }
  });
});
