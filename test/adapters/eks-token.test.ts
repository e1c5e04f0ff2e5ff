// The EKS token path end to end: a token made from AWS credentials is accepted by the
// sandbox's check (which re-signs it as STS would), for the right cluster only, and refreshed
// before its 15 minutes run out. The presigned URL itself is answered by the STS face.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEksToken, EksTokenSource, TOKEN_PREFIX } from "../../src/adapters/aws/eks-token.js";
import { startWireServer, type WireServer } from "../../src/sandbox/wire/http-server.js";
import { DEFAULT_CREDENTIALS, StsFace, verifyEksToken } from "../../src/sandbox/wire/sts-face.js";

let server: WireServer;
beforeAll(async () => {
  server = await startWireServer([new StsFace()]);
});
afterAll(() => server.close());

const at = new Date("2026-11-21T12:00:00Z");
const options = () => ({
  clusterName: "demo",
  region: "eu-west-1",
  credentials: DEFAULT_CREDENTIALS,
  stsEndpoint: server.url,
});

describe("EKS token", () => {
  it("is a base64url presigned GetCallerIdentity URL that signs the cluster name", async () => {
    const token = await createEksToken(options(), at);
    expect(token.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(token).not.toMatch(/[+/=]/);
    const url = new URL(Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url").toString());
    expect(url.searchParams.get("Action")).toBe("GetCallerIdentity");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host;x-k8s-aws-id");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("60");
    expect(token).not.toContain(DEFAULT_CREDENTIALS.secretAccessKey);
  });

  it("is accepted for its cluster, and refused for another, when expired, or when tampered with", async () => {
    const token = await createEksToken(options(), at);
    expect(await verifyEksToken(token, "demo", [DEFAULT_CREDENTIALS], at)).toEqual({
      ok: true,
      arn: DEFAULT_CREDENTIALS.arn,
    });
    expect(await verifyEksToken(token, "prod", [DEFAULT_CREDENTIALS], at)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/signature does not match/),
    });
    expect(
      await verifyEksToken(
        token,
        "demo",
        [DEFAULT_CREDENTIALS],
        new Date(at.getTime() + 16 * 60_000),
      ),
    ).toEqual({ ok: false, reason: "token expired" });
    const other = { ...DEFAULT_CREDENTIALS, secretAccessKey: "another-secret" };
    expect(
      await verifyEksToken(
        await createEksToken({ ...options(), credentials: other }, at),
        "demo",
        [DEFAULT_CREDENTIALS],
        at,
      ),
    ).toMatchObject({ ok: false });
    expect(
      await verifyEksToken("k8s-aws-v1.bm9wZQ", "demo", [DEFAULT_CREDENTIALS], at),
    ).toMatchObject({ ok: false });
    expect(await verifyEksToken("Bearer x", "demo", [DEFAULT_CREDENTIALS], at)).toMatchObject({
      ok: false,
    });
  });

  it("is cached, and made anew before 15 minutes have passed", async () => {
    let now = at;
    const source = new EksTokenSource({ ...options(), now: () => now });
    const first = await source.token();
    now = new Date(at.getTime() + 13 * 60_000);
    expect(await source.token()).toBe(first);
    now = new Date(at.getTime() + 14 * 60_000);
    const second = await source.token();
    expect(second).not.toBe(first);
    expect(
      await verifyEksToken(
        second,
        "demo",
        [DEFAULT_CREDENTIALS],
        new Date(at.getTime() + 28 * 60_000),
      ),
    ).toMatchObject({ ok: true });
  });

  it("names the STS host of the cluster's partition, never an AWS_ENDPOINT_URL_STS override", async () => {
    const host = async (region: string) => {
      const token = await createEksToken({ ...options(), region, stsEndpoint: undefined }, at);
      return new URL(Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url").toString()).host;
    };
    const saved = process.env.AWS_ENDPOINT_URL_STS;
    process.env.AWS_ENDPOINT_URL_STS = "http://127.0.0.1:1";
    try {
      expect(await host("eu-west-1")).toBe("sts.eu-west-1.amazonaws.com");
      expect(await host("cn-north-1")).toBe("sts.cn-north-1.amazonaws.com.cn");
      expect(await host("us-gov-west-1")).toBe("sts.us-gov-west-1.amazonaws.com");
      expect(await host("us-iso-east-1")).toBe("sts.us-iso-east-1.c2s.ic.gov");
    } finally {
      if (saved === undefined) delete process.env.AWS_ENDPOINT_URL_STS;
      else process.env.AWS_ENDPOINT_URL_STS = saved;
    }
    // Each is what the authenticator (and the sandbox's check) accepts; another host is not.
    const cn = await createEksToken(
      { ...options(), region: "cn-north-1", stsEndpoint: undefined },
      at,
    );
    expect(await verifyEksToken(cn, "demo", [DEFAULT_CREDENTIALS], at)).toMatchObject({ ok: true });
    const elsewhere = await createEksToken(
      { ...options(), stsEndpoint: "https://sts.example.com" },
      at,
    );
    expect(await verifyEksToken(elsewhere, "demo", [DEFAULT_CREDENTIALS], at)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not an STS endpoint/),
    });
  });

  it("points at a URL the STS face answers with the caller's identity", async () => {
    const token = await createEksToken(options(), new Date());
    const url = Buffer.from(token.slice(TOKEN_PREFIX.length), "base64url").toString();
    const res = await fetch(url, { headers: { "x-k8s-aws-id": "demo" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`<Arn>${DEFAULT_CREDENTIALS.arn}</Arn>`);
  });
});
