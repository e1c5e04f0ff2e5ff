// One retry layer for a Kubernetes 429 (issue 45). The adapter's own retries
// (src/adapters/kubernetes/retry.ts) are for a server's 5xx only: a 429 goes up at once with its
// Retry-After, and src/ports/resilient.ts waits it out — so a throttling API server sees as many
// requests as resilient.ts allows (ATTEMPTS.throttle), not that many times the adapter's. The
// attempts an answer took go up with the error; a connection's failure keeps its own count; a
// budget's refusal of an eviction and the several-budgets 500 are answers, not retried.
import { createServer, type Server } from "node:http";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { withKubeRetry } from "../../src/adapters/kubernetes/retry.js";
import {
  ApiCallError,
  ATTEMPTS,
  callOf,
  KubeApiError,
  NetworkError,
  resilient,
  type Clock,
} from "../../src/ports/index.js";

const failing = (code: number, message = "failed") => Object.assign(new Error(message), { code });

describe("withKubeRetry", () => {
  it("hands a 429 up at once, with the one attempt it took", async () => {
    const waits: number[] = [];
    let calls = 0;
    const throttled = failing(429, "too many requests");
    const e = await withKubeRetry(
      async () => {
        calls++;
        throw throttled;
      },
      { sleep: async (ms) => void waits.push(ms) },
    ).catch((x: unknown) => x);
    expect(e).toBe(throttled);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
    expect(e).toMatchObject({ attempts: 1 });
  });

  it("backs off from a server's 5xx and passes the attempts it made up with the error", async () => {
    const waits: number[] = [];
    let calls = 0;
    const e = await withKubeRetry(
      async () => {
        calls++;
        throw failing([503, 500, 504, 429][calls - 1]!);
      },
      { sleep: async (ms) => void waits.push(ms) },
    ).catch((x: unknown) => x);
    expect(calls).toBe(4);
    expect(waits).toEqual([500, 1000, 2000]);
    expect(e).toMatchObject({ code: 429, attempts: 4 });
  });

  it("answers a budget's refusal of an eviction and the several-budgets 500 at once", async () => {
    const waits: number[] = [];
    const refusal = Object.assign(failing(429), { budget: true });
    const several = failing(500, "This pod has more than one PodDisruptionBudget");
    for (const answer of [refusal, several]) {
      const e = await withKubeRetry(
        async () => {
          throw answer;
        },
        { sleep: async (ms) => void waits.push(ms) },
        true,
      ).catch((x: unknown) => x);
      expect(e).toBe(answer);
    }
    expect(waits).toEqual([]);
  });

  it("leaves a connection's failure its own count of attempts, so that a read is still repeated above", async () => {
    let calls = 0;
    const reset = new NetworkError("ECONNRESET", "read ECONNRESET");
    const e = await withKubeRetry(
      async () => {
        if (++calls === 1) throw failing(503);
        throw reset;
      },
      { sleep: async () => undefined },
    ).catch((x: unknown) => x);
    expect(calls).toBe(2);
    expect(e).toBe(reset);
    expect(reset.attempts).toBe(1);
  });
});

describe("the Kubernetes adapter under the ports' retries, over HTTP", () => {
  let server: Server;
  let port = 0;
  /** What the server answers next, in turn; then 200 with an empty node list. */
  let answers: { status: number; retryAfter?: string }[] = [];
  let always: { status: number; retryAfter?: string } | undefined;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      const a = always ?? answers.shift();
      if (a) {
        res
          .writeHead(a.status, {
            "content-type": "application/json",
            ...(a.retryAfter !== undefined && { "retry-after": a.retryAfter }),
          })
          .end(`{"kind":"Status","status":"Failure","code":${a.status}}`);
        return;
      }
      res
        .writeHead(200, { "content-type": "application/json" })
        .end('{"kind":"NodeList","metadata":{},"items":[]}');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** The adapter (its own waits in `adapter`) under resilient.ts (its waits in `ports`). */
  function ports() {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromClusterAndUser(
      { name: "c", server: `http://127.0.0.1:${port}`, skipTLSVerify: true },
      { name: "u", token: "t" },
    );
    const waits = { adapter: [] as number[], ports: [] as number[] };
    const http = new KubeHttp({
      kubeConfig,
      retry: { sleep: async (ms) => void waits.adapter.push(ms) },
    });
    const clock: Clock = { now: () => new Date(), sleep: async (ms) => void waits.ports.push(ms) };
    return { cluster: resilient(kubernetesCluster(http), clock), http, waits };
  }

  it("waits out each 429's Retry-After once, in resilient.ts, and the adapter not at all", async () => {
    const { cluster, http, waits } = ports();
    answers = [
      { status: 429, retryAfter: "3" },
      { status: 429, retryAfter: "5" },
    ];
    requests = 0;
    expect(await cluster.listNodes()).toMatchObject({ items: [] });
    expect(requests).toBe(3);
    expect(waits).toEqual({ adapter: [], ports: [3_000, 5_000] });
    http.close();
  });

  it("asks a server that keeps throttling ATTEMPTS.throttle times in all, not that many times eight", async () => {
    const { cluster, http, waits } = ports();
    always = { status: 429, retryAfter: "0" };
    requests = 0;
    try {
      const e = await cluster.listNodes().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiCallError);
      expect((e as ApiCallError).cause).toBeInstanceOf(KubeApiError);
      expect(requests).toBe(ATTEMPTS.throttle);
      expect(callOf(e)?.attempts).toBe(ATTEMPTS.throttle);
      expect(waits.adapter).toEqual([]);
      expect(waits.ports).toHaveLength(ATTEMPTS.throttle - 1);
    } finally {
      always = undefined;
      http.close();
    }
  });

  it("backs off from a 503 in the adapter, where the ports do not retry it", async () => {
    const { cluster, http, waits } = ports();
    answers = [{ status: 503 }, { status: 503 }];
    requests = 0;
    expect(await cluster.listNodes()).toMatchObject({ items: [] });
    expect(requests).toBe(3);
    expect(waits).toEqual({ adapter: [500, 1_000], ports: [] });
    http.close();
  });
});
