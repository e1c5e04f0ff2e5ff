// A warm pool read through the product's AWS adapter (the SDK's DescribeAutoScalingGroups and
// DescribeWarmPool, query protocol and XML) from `sandbox serve`, every page of it: what the plan
// of a group with a warm pool rests on (test/roll/warm-pool.test.ts rolls one in-process).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCloud } from "../../src/adapters/aws/cloud.js";
import type { Cloud } from "../../src/ports/index.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import type { World } from "../../src/sandbox/world/world.js";
import { selfManagedWorld } from "../roll/scenarios.js";

let world: World;
let server: SandboxServer;
let cloud: Cloud;

beforeAll(async () => {
  // More instances than one page of DescribeWarmPool (50), so that the adapter pages.
  world = selfManagedWorld([
    { name: "w", nodes: 2, warmPool: { size: 61, version: 1 } },
    { name: "plain", nodes: 1 },
  ]);
  const dir = mkdtempSync(join(tmpdir(), "noderoll-warm-"));
  server = await serveSandbox(world, {
    speed: 0,
    instant: false,
    kubeconfigPath: join(dir, "kubeconfig"),
  });
  for (const [k, v] of Object.entries(server.env))
    if (k.startsWith("AWS_ENDPOINT_URL_")) process.env[k] = v;
  cloud = awsCloud({ region: "eu-west-1", credentials: async () => DEFAULT_CREDENTIALS });
});
afterAll(() => server?.close());

describe("a warm pool over the wire", () => {
  it("shows on its group, and not on a group without one", async () => {
    const groups = await cloud.autoScaling.describeAutoScalingGroups({
      AutoScalingGroupNames: ["w", "plain"],
    });
    const w = groups.find((g) => g.AutoScalingGroupName === "w");
    const plain = groups.find((g) => g.AutoScalingGroupName === "plain");
    expect(w).toMatchObject({
      WarmPoolConfiguration: { MinSize: 61, PoolState: "Stopped" },
      WarmPoolSize: 61,
    });
    // The pool's instances are never members.
    expect(w?.Instances).toHaveLength(2);
    expect(plain?.WarmPoolConfiguration).toBeUndefined();
    expect(plain?.WarmPoolSize).toBeUndefined();
  });

  it("lists every instance of the pool, across pages, with the template each came from", async () => {
    const warm = await cloud.autoScaling.describeWarmPool({ AutoScalingGroupName: "w" });
    expect(warm).toHaveLength(61);
    expect(new Set(warm.map((i) => i.InstanceId)).size).toBe(61);
    expect(warm[0]).toMatchObject({
      LifecycleState: "Warmed:Stopped",
      LaunchTemplate: { Version: "1", LaunchTemplateId: expect.stringMatching(/^lt-/) },
    });
    expect(await cloud.autoScaling.describeWarmPool({ AutoScalingGroupName: "plain" })).toEqual([]);
  });
});
