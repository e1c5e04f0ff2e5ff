// CloudWatch alarms over the wire: the real @aws-sdk/client-cloudwatch (awsJson1_0, and Smithy
// RPC v2 CBOR when asked for), the product's adapter (awsCloud: batches of 100 names, every page)
// and the aws CLI (Debian's v2 speaks the query protocol; a v1 on PATH speaks JSON) against
// `sandbox serve`, on a world whose alarm follows a bad release.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CloudWatchClient,
  DescribeAlarmsCommand,
  PutMetricAlarmCommand,
  SetAlarmStateCommand,
} from "@aws-sdk/client-cloudwatch";
import { AwsSmithyRpcV2CborProtocol } from "@aws-sdk/core/protocols";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCloud, portError } from "../../src/adapters/aws/cloud.js";
import { AwsApiError, type Cloud } from "../../src/ports/index.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import { World } from "../../src/sandbox/world/world.js";
import { badReleaseScenario } from "../sandbox/helpers.js";
import { AWS, run } from "./clients.js";

let world: World;
let server: SandboxServer;
let client: CloudWatchClient;
let cloud: Cloud;
const credentials = async () => DEFAULT_CREDENTIALS;
const dir = mkdtempSync(join(tmpdir(), "noderoll-cloudwatch-"));

beforeAll(async () => {
  world = World.from(
    badReleaseScenario(
      "alarms",
      { effect: "errors" },
      { alarms: [{ name: "web-5xx", follows: "badRelease" }, { name: "pager" }] },
    ),
  );
  // Time stands still unless a test moves it (world.advance), so the answers are exact.
  server = await serveSandbox(world, { speed: 0, instant: false });
  process.env.AWS_ENDPOINT_URL_CLOUDWATCH = server.env.AWS_ENDPOINT_URL_CLOUDWATCH;
  client = new CloudWatchClient({ region: "eu-west-1", credentials });
  cloud = awsCloud({ region: "eu-west-1", credentials });
});
afterAll(() => server?.close());

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

const describeOne = async (c: CloudWatchClient, name: string) =>
  (await c.send(new DescribeAlarmsCommand({ AlarmNames: [name] }))).MetricAlarms?.[0];

/** A workload pod on a node launched from the bad release (template version 2), in-process. */
async function badPodRuns(): Promise<string> {
  const before = new Set(world.kube.nodes.keys());
  await world.cloud.autoScaling.updateAutoScalingGroup({
    AutoScalingGroupName: "nodes",
    LaunchTemplate: { LaunchTemplateName: "nodes", Version: "2" },
    DesiredCapacity: 3,
  });
  const fresh = () => world.kube.nodeList().find((n) => !before.has(n.name) && n.ready);
  await world.until(() => fresh() !== undefined, 600_000);
  for (const n of world.kube.nodeList())
    if (n !== fresh()) await world.cluster.patchNode(n.name, { unschedulable: true });
  const [victim] = [...world.workload("web").pods];
  await world.cluster.deletePod("default", victim!.name, { gracePeriodSeconds: 0 });
  const web = world.workload("web");
  await world.until(() => [...web.pods].some((p) => p.nodeName === fresh()!.name && p.startedAt));
  return fresh()!.name;
}

describe("CloudWatch through the SDK (awsJson1_0)", () => {
  it("is one of the variables serve prints", () => {
    expect(server.env.AWS_ENDPOINT_URL_CLOUDWATCH).toBe(server.url);
    expect(server.describe()).toContain(`export AWS_ENDPOINT_URL_CLOUDWATCH=${server.url}`);
  });

  it("DescribeAlarms: the scenario's alarms, OK at the start, unknown names absent", async () => {
    const r = await client.send(
      new DescribeAlarmsCommand({ AlarmNames: ["web-5xx", "nope", "pager"] }),
    );
    expect(r.MetricAlarms?.map((a) => [a.AlarmName, a.StateValue])).toEqual([
      ["pager", "OK"],
      ["web-5xx", "OK"],
    ]);
    const [, followed] = r.MetricAlarms!;
    expect(followed!.StateUpdatedTimestamp).toEqual(world.clock.now());
    expect(followed!.AlarmArn).toBe("arn:aws:cloudwatch:eu-west-1:123456789012:alarm:web-5xx");
    expect(server.log.entries.at(-1)).toMatchObject({ face: "cloudwatch", status: 200 });
  });

  it("PutMetricAlarm makes one (INSUFFICIENT_DATA); SetAlarmState sets it; unknown: ResourceNotFound 404", async () => {
    await client.send(
      new PutMetricAlarmCommand({
        AlarmName: "latency",
        MetricName: "Latency",
        Namespace: "App",
        Statistic: "Average",
        Period: 60,
        EvaluationPeriods: 2,
        Threshold: 0.5,
        ComparisonOperator: "GreaterThanThreshold",
        Dimensions: [{ Name: "Service", Value: "web" }],
      }),
    );
    expect(await describeOne(client, "latency")).toMatchObject({
      StateValue: "INSUFFICIENT_DATA",
      StateReason: "Unchecked: Initial alarm creation",
      Threshold: 0.5,
      EvaluationPeriods: 2,
      Dimensions: [{ Name: "Service", Value: "web" }],
    });
    await client.send(
      new SetAlarmStateCommand({ AlarmName: "latency", StateValue: "ALARM", StateReason: "drill" }),
    );
    expect(await describeOne(client, "latency")).toMatchObject({
      StateValue: "ALARM",
      StateReason: "drill",
    });
    const e = (await rejection(
      client.send(
        new SetAlarmStateCommand({ AlarmName: "nope", StateValue: "ALARM", StateReason: "x" }),
      ),
    )) as { name: string; $metadata: { httpStatusCode: number } };
    expect(e.name).toBe("ResourceNotFound");
    expect(e.$metadata.httpStatusCode).toBe(404);
    const mapped = portError(e);
    expect(mapped).toBeInstanceOf(AwsApiError);
    expect(mapped).toMatchObject({ code: "ResourceNotFound", status: 404 });
    const bad = (await rejection(
      client.send(
        new PutMetricAlarmCommand({
          AlarmName: "x",
          EvaluationPeriods: 1,
          ComparisonOperator: "Sideways" as never,
        }),
      ),
    )) as Error;
    expect(portError(bad)).toMatchObject({ code: "InvalidParameterValue", status: 400 });
  });

  it("is throttled as CloudWatch throttles (Throttling), and the SDK retries", async () => {
    server.faces.cloudWatch.throttleNext = 1;
    const before = server.log.entries.length;
    expect((await describeOne(client, "pager"))?.StateValue).toBe("OK");
    expect(server.log.entries.slice(before).map((e) => e.status)).toEqual([400, 200]);
  });
});

describe("the adapter (awsCloud's cloudWatch)", () => {
  it("asks in batches of 100 names, reads every page, and asks nothing for no names", async () => {
    const names = Array.from({ length: 230 }, (_, i) => `batch-${String(i).padStart(3, "0")}`);
    for (const AlarmName of names)
      await world.cloud.cloudWatch.putMetricAlarm({
        AlarmName,
        EvaluationPeriods: 1,
        ComparisonOperator: "GreaterThanThreshold",
      });
    server.faces.cloudWatch.maxPage = 7;
    try {
      const before = server.log.entries.length;
      const alarms = await cloud.cloudWatch.describeAlarms({ AlarmNames: [...names, "missing"] });
      expect(alarms.map((a) => a.AlarmName)).toEqual(names);
      expect(alarms.every((a) => a.StateValue === "INSUFFICIENT_DATA")).toBe(true);
      expect(alarms[0]!.StateUpdatedTimestamp).toBeInstanceOf(Date);
      // 100 names: 15 pages of 7; 100 more: 15; the last 31 (one missing): 5.
      const calls = server.log.entries.slice(before).filter((e) => e.resource === "DescribeAlarms");
      expect(calls).toHaveLength(35);
      const none = server.log.entries.length;
      expect(await cloud.cloudWatch.describeAlarms({ AlarmNames: [] })).toEqual([]);
      expect(server.log.entries.length).toBe(none);
    } finally {
      server.faces.cloudWatch.maxPage = 100;
    }
  });

  it("sees the alarm that follows the bad release go ALARM, and back OK", async () => {
    const node = await badPodRuns();
    const [fired] = await cloud.cloudWatch.describeAlarms({ AlarmNames: ["web-5xx"] });
    expect(fired).toMatchObject({ AlarmName: "web-5xx", StateValue: "ALARM" });
    expect(fired!.StateReason).toContain(`runs on node ${node}`);
    expect(fired!.StateUpdatedTimestamp).toEqual(world.clock.now());
    // Muted by hand over the wire: it holds while nothing changes.
    await client.send(
      new SetAlarmStateCommand({ AlarmName: "web-5xx", StateValue: "OK", StateReason: "muted" }),
    );
    await world.advance(600_000);
    expect(await describeOne(client, "web-5xx")).toMatchObject({
      StateValue: "OK",
      StateReason: "muted",
    });
  });
});

describe("CloudWatch in Smithy RPC v2 CBOR", () => {
  it("answers a client that speaks it: alarms, timestamps, and errors", async () => {
    const cbor = new CloudWatchClient({
      region: "eu-west-1",
      credentials,
      protocol: AwsSmithyRpcV2CborProtocol,
    });
    const before = server.log.entries.length;
    const pager = await describeOne(cbor, "pager");
    expect(pager).toMatchObject({ AlarmName: "pager", StateValue: "OK" });
    expect(pager!.StateUpdatedTimestamp).toBeInstanceOf(Date);
    expect(server.log.entries[before]?.path).toBe(
      "/service/GraniteServiceVersion20100801/operation/DescribeAlarms",
    );
    await cbor.send(
      new SetAlarmStateCommand({ AlarmName: "pager", StateValue: "ALARM", StateReason: "cbor" }),
    );
    expect((await describeOne(client, "pager"))?.StateReason).toBe("cbor");
    const e = (await rejection(
      cbor.send(new SetAlarmStateCommand({ AlarmName: "no", StateValue: "OK", StateReason: "x" })),
    )) as { name: string };
    expect(e.name).toBe("ResourceNotFound");
  });
});

/** Each aws CLI here: Debian's v2 (query protocol), and a different `aws` on PATH (v1: JSON). */
const clis = await Promise.all(
  [...new Set([AWS, "aws"])].map(async (bin) => {
    const r = await run(bin, ["--version"]);
    return { bin, version: r.code === 0 ? (r.stdout || r.stderr).trim() : undefined };
  }),
);
const found = clis.filter((c) => c.version);
if (found.length === 0) console.warn("no aws CLI on PATH: skipping the aws CLI CloudWatch tests");

describe.skipIf(found.length === 0)("the aws CLI", () => {
  const cli =
    (bin: string) =>
    async (...args: string[]) => {
      const env = {
        PATH: process.env.PATH,
        HOME: dir,
        AWS_ACCESS_KEY_ID: DEFAULT_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: DEFAULT_CREDENTIALS.secretAccessKey,
        AWS_DEFAULT_REGION: "eu-west-1",
        AWS_CONFIG_FILE: join(dir, "config"),
        AWS_SHARED_CREDENTIALS_FILE: join(dir, "credentials"),
        AWS_PAGER: "",
        AWS_MAX_ATTEMPTS: "1",
      };
      return run(bin, [...args, "--endpoint-url", server.url, "--output", "json"], env);
    };

  it.each(found)(
    "$version: set-alarm-state fires an alarm by hand, describe-alarms shows it",
    async ({ bin }) => {
      const aws = cli(bin);
      const name = `cli-${found.findIndex((c) => c.bin === bin)}`;
      await world.cloud.cloudWatch.putMetricAlarm({
        AlarmName: name,
        EvaluationPeriods: 1,
        ComparisonOperator: "GreaterThanThreshold",
      });
      const set = await aws(
        "cloudwatch",
        "set-alarm-state",
        "--alarm-name",
        name,
        "--state-value",
        "ALARM",
        "--state-reason",
        "fired by hand",
      );
      expect(set.code, set.stderr).toBe(0);
      const described = await aws("cloudwatch", "describe-alarms", "--alarm-names", name, "nope");
      expect(described.code, described.stderr).toBe(0);
      const { MetricAlarms } = JSON.parse(described.stdout) as {
        MetricAlarms: { AlarmName: string; StateValue: string; StateReason: string }[];
      };
      expect(MetricAlarms).toEqual([
        expect.objectContaining({
          AlarmName: name,
          StateValue: "ALARM",
          StateReason: "fired by hand",
        }),
      ]);
      const unknown = await aws(
        "cloudwatch",
        "set-alarm-state",
        "--alarm-name",
        "nope",
        "--state-value",
        "OK",
        "--state-reason",
        "x",
      );
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain("ResourceNotFound");
    },
  );
});
