// A live run's clock (src/adapters/server-clock.ts): this machine's, or the API server's where
// they differ by SKEW_TOLERANCE_MS or more. The server's time is read from its answers' Date
// headers (src/adapters/kubernetes/http.ts) and moved on by the monotonic clock.
import { createServer, type Server } from "node:http";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { serverAlignedClock, SKEW_TOLERANCE_MS } from "../../src/adapters/server-clock.js";
import { systemClock, type Clock } from "../../src/ports/index.js";

/** What the server's Date header says: the wall's time plus this, or nothing, or garbage. */
let date: number | "none" | "garbage" = 0;
/** The body's type: the API server's JSON, or a proxy's error page. */
let type = "application/json";
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    if (date === "none") res.sendDate = false;
    const headers: Record<string, string> = { "content-type": type };
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

afterEach(() => {
  vi.useRealTimers();
  type = "application/json";
});

/** The server's time less the wall's, as the client reads it now. */
const skewOf = (http: KubeHttp) => http.serverNowMs()! - Date.now();

describe("the API server's clock", () => {
  it("is read from an answer's Date header, to within the second and a half the header allows", async () => {
    const http = client();
    expect(http.serverNowMs()).toBeUndefined();
    date = 10 * 60_000;
    await kubernetesCluster(http).listNodes();
    expect(Math.abs(skewOf(http) - date)).toBeLessThanOrEqual(1_500);
    const clock = serverAlignedClock(systemClock, () => http.serverNowMs());
    expect(Math.abs(clock.now().getTime() - Date.now() - date)).toBeLessThanOrEqual(1_500);
    http.close();
  });

  it("keeps its first reading, moved on by the monotonic clock alone: later answers, a server's clock set back an hour among them, do not step it", async () => {
    const http = client();
    date = 10 * 60_000;
    await kubernetesCluster(http).listNodes();
    const before = { server: http.serverNowMs()!, mono: performance.now() };
    for (const later of [10 * 60_000 + 1_000, -60 * 60_000]) {
      date = later;
      await kubernetesCluster(http).listNodes();
      const moved = http.serverNowMs()! - before.server - (performance.now() - before.mono);
      expect(Math.abs(moved), String(later)).toBeLessThan(250);
    }
    http.close();
  });

  it("is not moved when this machine's clock is set (NTP): it runs on the monotonic clock, and the run keeps to it", async () => {
    const http = client();
    date = 10 * 60_000;
    await kubernetesCluster(http).listNodes();
    const server = http.serverNowMs()!;
    const clock = serverAlignedClock(systemClock, () => http.serverNowMs());
    expect(Math.abs(clock.now().getTime() - server)).toBeLessThan(1_000);
    // This machine's clock is set to the server's, then an hour back: neither moves the run's.
    vi.useFakeTimers({ toFake: ["Date"] });
    for (const set of [server, server - 3_600_000]) {
      vi.setSystemTime(set);
      expect(Math.abs(http.serverNowMs()! - server)).toBeLessThan(1_000);
      expect(Math.abs(clock.now().getTime() - server)).toBeLessThan(1_000);
    }
    http.close();
  });

  it("is unknown without a Date header, with one that is not a date, or from a page that is not the API server's JSON", async () => {
    for (const [d, t] of [
      ["none", "application/json"],
      ["garbage", "application/json"],
      [10 * 60_000, "text/html"],
    ] as const) {
      const http = client();
      date = d;
      type = t;
      await kubernetesCluster(http)
        .listNodes()
        .catch(() => undefined);
      expect(http.serverNowMs(), `${d} ${t}`).toBeUndefined();
      http.close();
    }
  });
});

describe("serverAlignedClock", () => {
  it("is this machine's time unless the server's is SKEW_TOLERANCE_MS or more away, either way", () => {
    const at = (offset: number | undefined) => {
      const server = offset === undefined ? undefined : AT.getTime() + offset;
      return (
        serverAlignedClock(fixed, () => server)
          .now()
          .getTime() - AT.getTime()
      );
    };
    expect(at(undefined)).toBe(0);
    expect(at(SKEW_TOLERANCE_MS - 1)).toBe(0);
    expect(at(-(SKEW_TOLERANCE_MS - 1))).toBe(0);
    expect(at(SKEW_TOLERANCE_MS)).toBe(SKEW_TOLERANCE_MS);
    expect(at(-SKEW_TOLERANCE_MS)).toBe(-SKEW_TOLERANCE_MS);
    expect(at(-300 * 86_400_000)).toBe(-300 * 86_400_000);
  });

  it("decides which once, when the server's time is first known: a difference drifting across the tolerance does not flip it", () => {
    let offset: number | undefined;
    const clock = serverAlignedClock(fixed, () =>
      offset === undefined ? undefined : AT.getTime() + offset,
    );
    expect(clock.now().getTime()).toBe(AT.getTime());
    offset = SKEW_TOLERANCE_MS - 1;
    expect(clock.now().getTime()).toBe(AT.getTime());
    offset = SKEW_TOLERANCE_MS + 1;
    expect(clock.now().getTime()).toBe(AT.getTime());
    const other = serverAlignedClock(fixed, () => AT.getTime() + offset!);
    expect(other.now().getTime()).toBe(AT.getTime() + SKEW_TOLERANCE_MS + 1);
    offset = SKEW_TOLERANCE_MS - 1;
    expect(other.now().getTime()).toBe(AT.getTime() + SKEW_TOLERANCE_MS - 1);
  });

  it("leaves lengths of time alone: its waits and monotonic time are the machine's", async () => {
    const slept: number[] = [];
    const base: Clock = { ...fixed, sleep: async (ms) => void slept.push(ms) };
    const clock = serverAlignedClock(base, () => AT.getTime() + 3_600_000);
    await clock.sleep(1_500);
    expect(slept).toEqual([1_500]);
    expect(clock.monotonic?.()).toBe(42);
  });
});
