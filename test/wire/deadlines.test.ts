// The adapters against a server that accepts connections and never answers: every request ends
// by its deadline as a NetworkError (the AWS SDK's own default is to wait forever), and closing
// the adapters ends what is still in flight at once.
import { writeFileSync, mkdtempSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCloud } from "../../src/adapters/aws/cloud.js";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { NetworkError } from "../../src/ports/index.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";

let hole: Server;
let port = 0;
/** Answers with headers and the start of a body, then nothing more. */
let half: Server;
let halfPort = 0;
const sockets = new Set<Socket>();
const dir = mkdtempSync(join(tmpdir(), "noderoll-deadlines-"));

beforeAll(async () => {
  // Accepts, reads, never writes a byte.
  hole = createServer((s) => {
    sockets.add(s);
    s.on("error", () => undefined);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => hole.listen(0, "127.0.0.1", r));
  port = (hole.address() as { port: number }).port;
  half = createServer((s) => {
    sockets.add(s);
    s.on("error", () => undefined);
    s.on("close", () => sockets.delete(s));
    s.once("data", () =>
      s.write(
        "HTTP/1.1 200 OK\r\ncontent-type: text/xml\r\ncontent-length: 4096\r\n\r\n<DescribeAutoScalingGroupsResponse>",
      ),
    );
  });
  await new Promise<void>((r) => half.listen(0, "127.0.0.1", r));
  halfPort = (half.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => hole.close(() => r()));
  await new Promise<void>((r) => half.close(() => r()));
});

/** Only a bound for "does not hang", far above the deadlines under test. */
const HANG_MS = 120_000;

async function timed<T>(p: Promise<T>): Promise<{ error: unknown; ms: number }> {
  const start = performance.now();
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - start };
}

function kubeconfig(): KubeConfig {
  const file = join(dir, "kubeconfig");
  writeFileSync(
    file,
    [
      "apiVersion: v1",
      "kind: Config",
      "clusters: [{ name: c, cluster: { server: 'https://127.0.0.1:" +
        port +
        "', insecure-skip-tls-verify: true } }]",
      "users: [{ name: u, user: { token: t } }]",
      "contexts: [{ name: x, context: { cluster: c, user: u } }]",
      "current-context: x",
      "",
    ].join("\n"),
  );
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
}

describe("requests into a dead connection", () => {
  it.each([
    ["no answer at all", () => port],
    ["an answer that stalls after its headers", () => halfPort],
  ])(
    "AWS, %s: ends by its deadline, after the SDK's own attempts, as a NetworkError",
    async (_, at) => {
      const saved = process.env.AWS_ENDPOINT_URL_AUTO_SCALING;
      process.env.AWS_ENDPOINT_URL_AUTO_SCALING = `http://127.0.0.1:${at()}`;
      try {
        const cloud = awsCloud({
          region: "eu-west-1",
          credentials: async () => DEFAULT_CREDENTIALS,
          requestTimeoutMs: 1500,
          maxAttempts: 2,
        });
        const { error, ms } = await timed(
          cloud.autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: ["w"] }),
        );
        expect(error).toBeInstanceOf(NetworkError);
        expect(error).toMatchObject({ code: "ETIMEDOUT", attempts: 2 });
        expect(ms).toBeLessThan(HANG_MS);
      } finally {
        if (saved === undefined) delete process.env.AWS_ENDPOINT_URL_AUTO_SCALING;
        else process.env.AWS_ENDPOINT_URL_AUTO_SCALING = saved;
      }
    },
  );

  it("Kubernetes: ends by the request timeout as a NetworkError", async () => {
    const http = new KubeHttp({
      kubeConfig: kubeconfig(),
      retry: { sleep: async () => undefined },
      requestTimeoutMs: 1500,
    });
    const { error, ms } = await timed(kubernetesCluster(http).listNodes());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "ETIMEDOUT" });
    expect(ms).toBeLessThan(HANG_MS);
    http.close();
  });

  it("Kubernetes: closing the client ends requests and watches in flight at once", async () => {
    const http = new KubeHttp({
      kubeConfig: kubeconfig(),
      retry: { sleep: async () => undefined },
      requestTimeoutMs: 600_000,
    });
    const cluster = kubernetesCluster(http);
    const read = timed(cluster.getNode("n"));
    const watch = timed(
      (async () => {
        for await (const _ of cluster.watchNodes({ timeoutSeconds: 600 })) break;
      })(),
    );
    await new Promise((r) => setTimeout(r, 200));
    http.close();
    for (const r of [await read, await watch]) {
      expect(r.error).toBeInstanceOf(NetworkError);
      expect(r.ms).toBeLessThan(HANG_MS);
    }
  });
});
