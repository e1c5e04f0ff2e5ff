// A live run's clock (src/adapters/server-clock.ts): this machine's, moved by the API server's
// where they differ by SKEW_TOLERANCE_MS or more, the server's read from the Date header of the
// first answer (src/adapters/kubernetes/http.ts) and kept.
import { createServer, type Server } from "node:http";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { serverAlignedClock, SKEW_TOLERANCE_MS } from "../../src/adapters/server-clock.js";
import { systemClock, type Clock } from "../../src/ports/index.js";

/** What the server's Date header says: the wall's time plus this, or nothing, or garbage. */
let date: number | "none" | "garbage" = 0;
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    if (date === "none") res.sendDate = false;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (typeof date === "number") headers.date = new Date(Date.now() + date).toUTCString();
    if (date === "garbage") headers.date = "yesterday, about noon";
    res.writeHead(200, headers).end('{"kind":"NodeList","metadata":{},"items":[]}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function client(): KubeHttp {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser(
    { name: "c", server: `http://127.0.0.1:${port}`, skipTLSVerify: true },
    { name: "u", token: "t" },
  );
  return new KubeHttp({ kubeConfig, retry: { sleep: async () => undefined } });
}

const AT = new Date("2026-03-01T12:00:00.000Z");
const fixed: Clock = { now: () => AT, sleep: async () => undefined, monotonic: () => 42 };

describe("the API server's clock", () => {
  it("is read from the first answer's Date header and kept: a later answer does not move it", async () => {
    const http = client();
    expect(http.serverClockOffsetMs).toBeUndefined();
    date = 10 * 60_000;
    await kubernetesCluster(http).listNodes();
    // Whole seconds in the header, half a second added: within a second and a half of the truth.
    expect(Math.abs(http.serverClockOffsetMs! - date)).toBeLessThanOrEqual(1_500);
    const clock = serverAlignedClock(systemClock, () => http.serverClockOffsetMs);
    expect(Math.abs(clock.now().getTime() - Date.now() - date)).toBeLessThanOrEqual(1_500);
    const first = http.serverClockOffsetMs;
    date = -60 * 60_000;
    await kubernetesCluster(http).listNodes();
    expect(http.serverClockOffsetMs).toBe(first);
    http.close();
  });

  it("is unknown without a Date header, or with one that is not a date", async () => {
    for (const d of ["none", "garbage"] as const) {
      const http = client();
      date = d;
      await kubernetesCluster(http).listNodes();
      expect(http.serverClockOffsetMs, d).toBeUndefined();
      http.close();
    }
  });
});

describe("serverAlignedClock", () => {
  it("moves this machine's time by the server's offset only from SKEW_TOLERANCE_MS on, either way", () => {
    const at = (offset: number | undefined) =>
      serverAlignedClock(fixed, () => offset)
        .now()
        .getTime() - AT.getTime();
    expect(at(undefined)).toBe(0);
    expect(at(SKEW_TOLERANCE_MS - 1)).toBe(0);
    expect(at(-(SKEW_TOLERANCE_MS - 1))).toBe(0);
    expect(at(SKEW_TOLERANCE_MS)).toBe(SKEW_TOLERANCE_MS);
    expect(at(-SKEW_TOLERANCE_MS)).toBe(-SKEW_TOLERANCE_MS);
    expect(at(-300 * 86_400_000)).toBe(-300 * 86_400_000);
  });

  it("leaves lengths of time alone: its waits and monotonic time are the machine's", async () => {
    const slept: number[] = [];
    const base: Clock = { ...fixed, sleep: async (ms) => void slept.push(ms) };
    const clock = serverAlignedClock(base, () => 3_600_000);
    await clock.sleep(1_500);
    expect(slept).toEqual([1_500]);
    expect(clock.monotonic?.()).toBe(42);
  });
});
