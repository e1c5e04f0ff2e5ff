// A Retry-After header, in both forms RFC 9110 (section 10.2.3) gives it: a number of seconds or
// an HTTP-date (src/ports/errors.ts, retryAfterSeconds). A date is counted from the same answer's
// Date header, so a clock here that is an hour off the server's waits what the server asked;
// then the Kubernetes adapter as it meets one over HTTP, a list (waited out by the ports' one
// retry layer, resilient.ts) and a watch, from a server whose clock is an hour ahead.
import { createServer, type Server } from "node:http";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { KubeApiError, resilient, retryAfterSeconds } from "../../src/ports/index.js";

const NOW = Date.UTC(2026, 10, 25, 8, 0, 0);
const http = (ms: number) => new Date(ms).toUTCString();
const HOUR = 3_600_000;

describe("a Retry-After header", () => {
  it("as seconds: a whole number, as written", () => {
    expect(retryAfterSeconds("7", undefined, NOW)).toBe(7);
    expect(retryAfterSeconds(" 120 ", undefined, NOW)).toBe(120);
    expect(retryAfterSeconds("0", undefined, NOW)).toBe(0);
    expect(retryAfterSeconds(5, undefined, NOW)).toBe(5);
    expect(retryAfterSeconds(["3", "9"], undefined, NOW)).toBe(3);
  });

  it("as a date: counted from the answer's Date header, whatever the clock here says", () => {
    const server = NOW + HOUR; // the server's clock is an hour ahead of this one
    expect(retryAfterSeconds(http(server + 7_000), http(server), NOW)).toBe(7);
    expect(retryAfterSeconds(http(server + 7_000), http(server), NOW + 2 * HOUR)).toBe(7);
    // No Date header (or one that is not a date): from this clock.
    expect(retryAfterSeconds(http(NOW + 30_000), undefined, NOW)).toBe(30);
    expect(retryAfterSeconds(http(NOW + 30_000), "yesterday", NOW)).toBe(30);
    // A date already past is no wait; the other date forms HTTP allows are read too.
    expect(retryAfterSeconds(http(NOW - 60_000), http(NOW), NOW)).toBe(0);
    expect(retryAfterSeconds("Wednesday, 25-Nov-26 08:00:09 GMT", http(NOW), 0)).toBe(9);
    expect(retryAfterSeconds("Wed Nov 25 08:00:09 2026", http(NOW), 0)).toBe(9);
  });

  it("as a date: in GMT, whatever this machine's time zone (asctime's form names none)", () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ["America/New_York", "Asia/Kolkata", "UTC"]) {
        process.env.TZ = tz;
        expect(retryAfterSeconds("Wed Nov 25 08:00:09 2026", http(NOW), 0), tz).toBe(9);
        expect(retryAfterSeconds(http(NOW + 9_000), "Wed Nov 25 08:00:00 2026", 0), tz).toBe(9);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("as anything else: none at all", () => {
    for (const bad of [undefined, "", "  ", "soon", "1.5", "-3", "+3", "3s", "0x10", "1e3", []])
      expect(retryAfterSeconds(bad, http(NOW), NOW), String(bad)).toBeUndefined();
  });
});

describe("the Kubernetes adapter and a Retry-After date", () => {
  /** The server's clock, ahead of this machine's by an hour. */
  const serverNow = () => Date.now() + HOUR;
  let server: Server;
  let port = 0;
  let refusals = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      const now = serverNow();
      const date = { date: http(now), "content-type": "application/json" };
      if (refusals > 0) {
        refusals--;
        // Seconds in the body as well would hide the header: the body names none.
        res
          .writeHead(429, { ...date, "retry-after": http(now + 7_000) })
          .end('{"kind":"Status","status":"Failure","reason":"TooManyRequests","code":429}');
        return;
      }
      res.writeHead(200, date).end('{"kind":"NodeList","metadata":{},"items":[]}');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  function client(waits: number[]): KubeHttp {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromClusterAndUser(
      { name: "c", server: `http://127.0.0.1:${port}`, skipTLSVerify: true },
      { name: "u", token: "t" },
    );
    return new KubeHttp({ kubeConfig, retry: { sleep: async (ms) => void waits.push(ms) } });
  }

  it("waits the seconds the server asked for before it lists again, not its clock's hour", async () => {
    const adapterWaits: number[] = [];
    const waits: number[] = [];
    const kube = client(adapterWaits);
    const clock = { now: () => new Date(), sleep: async (ms: number) => void waits.push(ms) };
    refusals = 1;
    expect(await resilient(kubernetesCluster(kube), clock).listNodes()).toMatchObject({
      items: [],
    });
    // Whole seconds between two header dates: 7 s, or 8 where the second turned in between.
    expect(waits).toHaveLength(1);
    expect([7_000, 8_000]).toContain(waits[0]);
    expect(adapterWaits).toEqual([]);
    kube.close();
  });

  it("gives a refused watch the same seconds, for the roll's backoff", async () => {
    const kube = client([]);
    refusals = 1;
    const e = await (async () => {
      for await (const ev of kubernetesCluster(kube).watchNodes()) return ev;
    })().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KubeApiError);
    expect([7, 8]).toContain((e as KubeApiError).retryAfterSeconds);
    kube.close();
  });
});
