// The latest EKS AMI release per Kubernetes version, read from the public SSM parameters over
// the wire: the product's adapter (awsCloud, what connectLive builds: GetParameters in batches
// of at most 10 names), the real @aws-sdk/client-ssm and the aws CLI against `sandbox serve`,
// and `noderoll plan` of a managed group whose target says `releaseVersion: latest`.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetParametersCommand, SSMClient } from "@aws-sdk/client-ssm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCloud } from "../../src/adapters/aws/cloud.js";
import {
  AwsApiError,
  describeFailure,
  resilient,
  systemClock,
  type Cloud,
} from "../../src/ports/index.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import type { SsmFace } from "../../src/sandbox/wire/ssm-face.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import { World } from "../../src/sandbox/world/world.js";
import { ROOT } from "../helpers/cli.js";
import { available, AWS, awsCli } from "./clients.js";

const hasAws = await available(AWS);
const credentials = async () => DEFAULT_CREDENTIALS;
const dir = mkdtempSync(join(tmpdir(), "noderoll-ssm-"));
const RELEASE =
  "/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/standard/recommended/release_version";

let server: SandboxServer;
let cloud: Cloud;

beforeAll(async () => {
  // The demo's releases: "1.32": [1.32.3-20250519, 1.32.5-20250715],
  // "1.33": [1.33.1-20250715, 1.33.4-20250904]; the last of each list is the latest.
  server = await serveSandbox(World.demo(), {
    speed: 0,
    instant: false,
    kubeconfigPath: join(dir, "kubeconfig"),
  });
  process.env.AWS_ENDPOINT_URL_SSM = server.env.AWS_ENDPOINT_URL_SSM;
  cloud = awsCloud({ region: "eu-west-1", credentials });
});
afterAll(() => server?.close());

// The served faces hold the SSM face (serve.ts's makeFaces); SandboxServer's type does not name it
// yet (serve.ts is at its line limit).
const ssmFace = () => (server.faces as typeof server.faces & { ssm: SsmFace }).ssm;
const ssmCalls = () => server.log.entries.filter((e) => e.face === "ssm");

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

describe("the latest EKS AMI releases through the adapter", () => {
  it("is one of the variables serve prints", () => {
    expect(server.env.AWS_ENDPOINT_URL_SSM).toBe(server.url);
    expect(server.describe()).toContain(`export AWS_ENDPOINT_URL_SSM=${server.url}`);
  });

  it("answers the last release of each version asked for; an unknown version is absent", async () => {
    expect(await cloud.eks.latestReleaseVersions!(["1.33", "1.32", "1.99"])).toEqual({
      "1.33": "1.33.4-20250904",
      "1.32": "1.32.5-20250715",
    });
  });

  it("asks GetParameters for at most 10 names a call", async () => {
    const before = ssmCalls().length;
    const versions = Array.from({ length: 12 }, (_, i) => `1.${22 + i}`); // 1.22 … 1.33
    expect(await cloud.eks.latestReleaseVersions!(versions)).toEqual({
      "1.32": "1.32.5-20250715",
      "1.33": "1.33.4-20250904",
    });
    expect(
      ssmCalls()
        .slice(before)
        .map((e) => [e.resource, e.status]),
    ).toEqual([
      ["GetParameters", 200],
      ["GetParameters", 200],
    ]);
  });

  it("asks nothing for no versions", async () => {
    const before = ssmCalls().length;
    expect(await cloud.eks.latestReleaseVersions!([])).toEqual({});
    expect(ssmCalls().length).toBe(before);
  });

  it("names ssm:GetParameters and the parameters when the role may not read them", async () => {
    ssmFace().denied = true;
    try {
      const e = await rejection(resilient(cloud, systemClock).eks.latestReleaseVersions!(["1.33"]));
      expect(e).toBeInstanceOf(AwsApiError);
      expect((e as AwsApiError).code).toBe("AccessDeniedException");
      expect(describeFailure(e)).toMatch(
        /^SSM GetParameters failed: AccessDeniedException: .*the role needs ssm:GetParameters on arn:aws:ssm:\*::parameter\/aws\/service\/eks\/\*/,
      );
    } finally {
      ssmFace().denied = false;
    }
  });
});

describe("the SSM face to other clients", () => {
  it("answers the real SDK's GetParameters, listing unknown names as InvalidParameters", async () => {
    const client = new SSMClient({ region: "eu-west-1", credentials });
    const unknown = RELEASE.replace("1.33", "1.99");
    const r = await client.send(new GetParametersCommand({ Names: [RELEASE, unknown] }));
    expect(r.Parameters).toMatchObject([
      {
        Name: RELEASE,
        Type: "String",
        Value: "1.33.4-20250904",
        ARN: `arn:aws:ssm:eu-west-1::parameter${RELEASE}`,
      },
    ]);
    expect(r.InvalidParameters).toEqual([unknown]);
    const tooMany = Array.from({ length: 11 }, (_, i) => RELEASE.replace("1.33", `1.${20 + i}`));
    const e = await rejection(client.send(new GetParametersCommand({ Names: tooMany })));
    expect((e as Error).name).toBe("ValidationException");
  });

  it.skipIf(!hasAws)("answers aws ssm get-parameters", async () => {
    const aws = awsCli(dir, () => server.url);
    const r = (await aws("ssm", "get-parameters", "--names", RELEASE.replace("1.33", "1.32"))) as {
      Parameters: { Value: string }[];
    };
    expect(r.Parameters.map((p) => p.Value)).toEqual(["1.32.5-20250715"]);
  });
});

function plan(policy: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const file = join(dir, `policy-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, policy);
  const args = ["plan", "--policy", file, "--kubeconfig", join(dir, "kubeconfig")];
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, "dist/cli.js"), ...args, "--detailed-exitcode"],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...server.env },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("noderoll plan of `releaseVersion: latest` against sandbox serve", () => {
  const demo = readFileSync(join(ROOT, "policies/demo.yaml"), "utf8");

  it("shows the concrete latest release the SSM parameter names", async () => {
    expect(demo).toContain("releaseVersion: latest");
    const r = await plan(demo);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(2);
    expect(r.stdout).toContain("release 1.32.3-20250519 → 1.33.4-20250904 (6)");
    expect(r.stdout).not.toContain("is not known here");
  });

  it("fails naming ssm:GetParameters when the role may not read the parameter", async () => {
    ssmFace().denied = true;
    try {
      const r = await plan(demo);
      expect(r.status).toBe(1);
      expect(r.stdout + r.stderr).toContain("ssm:GetParameters");
      // A policy that names its releases needs no SSM: the plan is made without it.
      const named = await plan(
        demo.replace("releaseVersion: latest", "releaseVersion: 1.33.4-20250904"),
      );
      expect(named.stderr).toBe("");
      expect(named.status).toBe(2);
      expect(named.stdout).toContain("1.33.4-20250904");
    } finally {
      ssmFace().denied = false;
    }
  });
});
