// Health gates over the wire (issue 47): the bundled command line (dist/cli.js) rolls a group of
// `sandbox serve` whose new launch template version is a bad release, reading a CloudWatch alarm
// through the real @aws-sdk/client-cloudwatch (AWS_ENDPOINT_URL_CLOUDWATCH) and a Prometheus
// threshold through its HTTP API (<serve>/prometheus). Each halts the roll in the wave the release
// shows in: exit 1 naming the gate, no cordon after the verdict, most of the group untouched.
// No wall-clock time is asserted: bounds only tell a hang from a run.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { cliAsync } from "../helpers/cli-async.js";

const NODES = 6;

function world(name: string): World {
  return World.fromYaml(`apiVersion: noderoll.io/v1
kind: SandboxScenario
metadata: { name: ${name} }
seed: 4
cluster: { name: ${name}, version: "1.33" }
zones: [eu-west-1a, eu-west-1b]
nodeGroups:
  - name: work
    type: self-managed
    size: { min: 0, max: ${NODES * 2}, desired: ${NODES} }
    launchTemplate: { versions: 2, use: $Latest }
    instances: [{ version: 1, count: ${NODES} }]
workloads:
  - { kind: Deployment, name: web, replicas: 12, pdb: { minAvailable: 6 } }
faults:
  badRelease: [{ group: work, launchTemplateVersion: 2, effect: errors, errorRatio: 0.3 }]
alarms: [{ name: web-5xx, follows: badRelease }]
`);
}

let server: SandboxServer | undefined;
afterEach(() => server?.close());

/** Roll `work` with `gates` over the wire; the run's result, events and world. */
async function rollOverWire(name: string, gates: (prometheus: string) => string) {
  const w = world(name);
  const dir = mkdtempSync(join(tmpdir(), "noderoll-gates-"));
  const kubeconfig = join(dir, "kubeconfig");
  server = await serveSandbox(w, { kubeconfigPath: kubeconfig });
  const { KUBECONFIG: _k, ...env } = server.env;
  const policy = join(dir, "policy.yaml");
  writeFileSync(
    policy,
    `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: ${name} }
cluster: { name: ${name}, region: eu-west-1 }
defaults: { postDrainDelay: 0s, interval: 5s, validation: { count: 1 } }
groups:
  - name: work
    rollingUpdate:
      maxSurge: 0
      maxUnavailable: 2
      gates: { ${gates(server.endpoints.prometheus as string)} }
`,
  );
  const events = join(dir, "events.jsonl");
  const ran = await cliAsync({ cwd: dir, env }, [
    "apply",
    "--policy",
    policy,
    "--kubeconfig",
    kubeconfig,
    "--events",
    events,
  ]);
  const log = readFileSync(events, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; t: string; verdict?: string; gate?: string });
  return { ran, log, w };
}

/** Halted in the wave the release showed in: no cordon after the failing verdict. */
function haltedInWave(log: { type: string; t: string; verdict?: string }[]) {
  const failed = log.find((e) => e.type === "gate.verdict" && e.verdict === "fail");
  expect(failed).toBeDefined();
  const cordons = log.filter((e) => e.type === "node.cordon");
  expect(cordons.every((c) => Date.parse(c.t) < Date.parse(failed!.t))).toBe(true);
  expect(cordons.length).toBeLessThan(NODES);
}

describe("gates over the wire, the command line against sandbox serve", () => {
  it("halts on a CloudWatch alarm read with the real CloudWatch client", async () => {
    const { ran, log, w } = await rollOverWire("alarmed", () => "bake: 40s, alarms: [web-5xx]");
    const seen = ran.stdout + ran.stderr;
    expect(ran.code, seen).toBe(1);
    expect(seen).toMatch(/failure: GateFailed: work: gate alarm\/web-5xx failed — ALARM/);
    haltedInWave(log);
    expect(w.calls.get("cloudwatch.describeAlarms") ?? 0).toBeGreaterThan(0);
    expect(w.nodes("work").filter((n) => !n.deleted && n.unschedulable)).toEqual([]);
  }, 600_000);

  it("halts on a Prometheus threshold read through its HTTP API", async () => {
    const { ran, log, w } = await rollOverWire(
      "measured",
      (prometheus) =>
        `bake: 40s, prometheus: [{ name: error-rate, address: "${prometheus}", query: "sandbox:error_ratio", failAbove: 0.01 }]`,
    );
    const seen = ran.stdout + ran.stderr;
    expect(ran.code, seen).toBe(1);
    expect(seen).toMatch(
      /failure: GateFailed: work: gate prometheus\/error-rate failed — 0\.\d+: sandbox:error_ratio = 0\.\d+, above 0\.01/,
    );
    haltedInWave(log);
    expect(w.calls.get("prometheus.query") ?? 0).toBeGreaterThan(0);
  }, 600_000);
});
