// Whatever a client sends, the server answers in the shape of the real service — a Kubernetes
// Status, an EKS error with x-amzn-errortype, an Auto Scaling or EC2 error document — and
// keeps serving.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TOKEN } from "../../src/sandbox/wire/kubernetes-face.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";

let world: World;
let server: SandboxServer;
beforeAll(async () => {
  world = World.demo();
  server = await serveSandbox(world, { speed: 0, instant: false });
});
afterAll(() => server?.close());

const auth = { authorization: `Bearer ${SANDBOX_TOKEN}` };
const signed = (service: string) => ({
  authorization: `AWS4-HMAC-SHA256 Credential=AKIASANDBOXNODEROLL1/20260105/eu-west-1/${service}/aws4_request, SignedHeaders=host, Signature=0`,
});

async function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const res = await fetch(server.url + path, {
    method,
    headers,
    ...(body !== undefined && { body }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

async function kube(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const r = await send(method, path, { ...auth, ...headers }, body);
  const status = JSON.parse(r.text) as {
    kind: string;
    code: number;
    reason: string;
    message: string;
  };
  expect(status.kind).toBe("Status");
  expect(status.code).toBe(r.status);
  return status;
}

describe("bad requests to the Kubernetes face", () => {
  const node = () => world.kube.nodeList()[0]!.name;
  const pod = () => [...world.kube.pods.values()][0]!;

  it("unknown paths and resources are 404 Status", async () => {
    expect(await kube("GET", "/api/v1/widgets")).toMatchObject({ reason: "NotFound" });
    expect(await kube("GET", "/apis/nope.example.com/v1/things")).toMatchObject({
      reason: "NotFound",
    });
    expect(await kube("GET", "/no/such/path")).toMatchObject({ reason: "NotFound" });
    expect(await kube("GET", "/api/v1/namespaces/default/nodes")).toMatchObject({
      reason: "NotFound",
    });
    expect(await kube("GET", "/api/v1/pods/some-pod")).toMatchObject({ reason: "NotFound" });
    expect(await kube("GET", "/api/v1/namespaces/default/pods/nope")).toMatchObject({
      reason: "NotFound",
      message: 'pods "nope" not found',
    });
  });

  it("a missing or malformed token is 401 Status", async () => {
    const none = await send("GET", "/api/v1/nodes");
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text)).toMatchObject({
      kind: "Status",
      reason: "Unauthorized",
      code: 401,
    });
    expect(
      (await send("GET", "/api/v1/nodes", { authorization: "Bearer k8s-aws-v1.bm9wZQ" })).status,
    ).toBe(401);
    expect((await send("GET", "/api/v1/nodes", { authorization: "Basic eDp5" })).status).toBe(401);
    expect((await send("GET", "/version")).status).toBe(200);
  });

  it("a malformed body is 400, a wrong content type 415, a wrong method 405", async () => {
    const p = pod();
    const evict = `/api/v1/namespaces/${p.namespace}/pods/${p.name}/eviction`;
    expect(
      await kube("POST", evict, { "content-type": "application/json" }, "{not json"),
    ).toMatchObject({ code: 400, reason: "BadRequest" });
    expect(await kube("POST", evict, { "content-type": "text/plain" }, "{}")).toMatchObject({
      code: 415,
      reason: "UnsupportedMediaType",
    });
    expect(
      await kube(
        "PATCH",
        `/api/v1/nodes/${node()}`,
        { "content-type": "application/apply-patch+yaml" },
        "spec: {}",
      ),
    ).toMatchObject({ code: 415 });
    expect(
      await kube(
        "PATCH",
        `/api/v1/nodes/${node()}`,
        { "content-type": "application/merge-patch+json" },
        "[1,",
      ),
    ).toMatchObject({ code: 400 });
    expect(
      await kube(
        "PATCH",
        `/api/v1/nodes/${node()}`,
        { "content-type": "application/json-patch+json" },
        '[{"op":"replace","path":"/metadata/nope/x","value":1}]',
      ),
    ).toMatchObject({ code: 422 });
    expect(
      await kube("POST", "/api/v1/nodes", { "content-type": "application/json" }, "{}"),
    ).toMatchObject({ code: 405 });
    expect(
      await kube(
        "POST",
        "/apis/coordination.k8s.io/v1/namespaces/default/leases",
        { "content-type": "application/json" },
        '{"spec":{}}',
      ),
    ).toMatchObject({ code: 422, reason: "Invalid" });
  });

  it("a bad selector or continue token is 400", async () => {
    expect(
      await kube("GET", "/api/v1/pods?labelSelector=" + encodeURIComponent("a in (b")),
    ).toMatchObject({ code: 400 });
    expect(await kube("GET", "/api/v1/pods?fieldSelector=spec.hostIP%3Dx")).toMatchObject({
      code: 400,
    });
    expect(await kube("GET", "/api/v1/nodes?limit=2&continue=garbage")).toMatchObject({
      code: 400,
    });
    expect(await kube("GET", "/api/v1/nodes?watch=1&resourceVersion=abc")).toMatchObject({
      code: 400,
    });
  });
});

describe("bad requests to the AWS faces", () => {
  it("EKS: unknown operation, malformed JSON, wrong content type — with x-amzn-errortype", async () => {
    const unknown = await send("GET", "/clusters/demo/widgets");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-amzn-errortype")).toBe("UnknownOperationException");
    const path = "/clusters/demo/node-groups/system/update-version";
    const bad = await send("POST", path, { "content-type": "application/json" }, "{nope");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("x-amzn-errortype")).toBe("SerializationException");
    expect(JSON.parse(bad.text)).toEqual({ message: expect.any(String) });
    const type = await send("POST", path, { "content-type": "text/plain" }, "{}");
    expect(type.status).toBe(415);
    const missing = await send("GET", "/clusters/demo/node-groups/nope");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-amzn-errortype")).toBe("ResourceNotFoundException");
  });

  it("Auto Scaling: unknown action, wrong content type, missing parameter — as error documents", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded", ...signed("autoscaling") };
    const unknown = await send("POST", "/", form, "Action=LaunchRockets&Version=2011-01-01");
    expect(unknown.status).toBe(400);
    expect(unknown.text).toMatch(
      /^<ErrorResponse xmlns="http:\/\/autoscaling\.amazonaws\.com\/doc\/2011-01-01\/"><Error><Type>Sender<\/Type><Code>InvalidAction<\/Code>/,
    );
    const json = await send(
      "POST",
      "/",
      { ...signed("autoscaling"), "content-type": "application/json" },
      "{}",
    );
    expect(json.status).toBe(400);
    expect(json.text).toMatch(/<Code>InvalidParameterValue<\/Code>/);
    const missing = await send(
      "POST",
      "/",
      form,
      "Action=SetDesiredCapacity&Version=2011-01-01&DesiredCapacity=1",
    );
    expect(missing.text).toMatch(/<Code>ValidationError<\/Code>/);
  });

  it("EC2: unknown action and a missing parameter — as EC2's Response/Errors document", async () => {
    const form = { "content-type": "application/x-www-form-urlencoded", ...signed("ec2") };
    const unknown = await send("POST", "/", form, "Action=LaunchRockets&Version=2016-11-15");
    expect(unknown.status).toBe(400);
    expect(unknown.text).toMatch(/<Response><Errors><Error><Code>InvalidAction<\/Code>/);
    const missing = await send(
      "POST",
      "/",
      form,
      "Action=DescribeLaunchTemplateVersions&Version=2016-11-15",
    );
    expect(missing.text).toMatch(/<Code>MissingParameter<\/Code>/);
  });

  it("keeps serving after all of that", async () => {
    const v = await send("GET", "/version");
    expect(v.status).toBe(200);
    expect(JSON.parse(v.text)).toMatchObject({ major: "1", minor: "33" });
    expect(server.log.entries.every((e) => e.status !== 500)).toBe(true);
  });
});
