// `noderoll abort --rollback` from a second process while `noderoll apply` rolls in another, both
// the bundled command line against `sandbox serve` (issue 47): the roll stops at its next node
// boundary, ends aborted (exit 1), and takes the group back to the launch template version it ran
// before — recorded on the cluster when the roll began — with nothing of noderoll's left. No
// wall-clock time is asserted: bounds only tell a hang from a run.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEASE_NAMESPACE, leaseName } from "../../src/roll/lease.js";
import { requestOf } from "../../src/roll/lease-request.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { cliAsync, type Ran } from "../helpers/cli-async.js";

const NODES = 6;
const dir = mkdtempSync(join(tmpdir(), "noderoll-abort-"));
const policy = join(dir, "policy.yaml");
const kubeconfig = join(dir, "kubeconfig");
// `interval` is waited in real time by the command line: the roll is still going when the abort
// is seen (within a renewal, 30 s).
writeFileSync(
  policy,
  `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: aborting }
cluster: { name: aborting, region: eu-west-1 }
defaults: { postDrainDelay: 0s, interval: 10s, validation: { count: 1 } }
groups:
  - { name: work, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }
`,
);

const world = World.fromYaml(`apiVersion: noderoll.io/v1
kind: SandboxScenario
metadata: { name: aborting }
seed: 4
cluster: { name: aborting, version: "1.33" }
zones: [eu-west-1a, eu-west-1b]
nodeGroups:
  - name: work
    type: self-managed
    size: { min: 0, max: ${NODES * 2}, desired: ${NODES} }
    launchTemplate: { versions: 2, use: $Latest }
    instances: [{ version: 1, count: ${NODES} }]
workloads:
  - { kind: Deployment, name: web, replicas: 3, pdb: { minAvailable: 2 } }
`);

let server: SandboxServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await serveSandbox(world, { kubeconfigPath: kubeconfig });
  const { KUBECONFIG: _k, ...rest } = server.env;
  env = rest;
});
afterAll(() => server?.close());

const cli = (args: string[], started?: (text: string) => boolean, onStart?: () => void) =>
  cliAsync({ cwd: dir, env }, args, started, onStart);
const connect = ["--policy", policy, "--kubeconfig", kubeconfig];
const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";

describe("noderoll abort --rollback from a second process, against sandbox serve", () => {
  it("stops the roll, ends it aborted, and returns the group to what it ran before", async () => {
    const events = join(dir, "events.jsonl");
    let aborted: Promise<Ran> | undefined;
    const applied = await cli(
      ["apply", ...connect, "--events", events],
      (text) => text.includes('"type":"instance.terminate"'),
      () => (aborted = cli(["abort", ...connect, "--rollback", "--reason", "p99 doubled"])),
    );
    const abort = await aborted!;
    expect(abort.code, abort.stdout + abort.stderr).toBe(0);
    expect(abort.stdout).toMatch(
      /^an abort with rollback requested by \S+ at \S+ \(reason: p99 doubled\)/,
    );
    expect(abort.stdout).toContain("then rolls the groups back to what they ran before");

    const seen = applied.stdout + applied.stderr;
    expect(applied.code, seen).toBe(1);
    expect(lastLine(applied.stdout)).toMatch(
      /^failure: Aborted: aborted by \S+ at \S+ \(reason: p99 doubled\); .* Rolled back: work on what it ran before\.$/,
    );
    expect(world.instances("work").map((i) => i.ltVersion)).toEqual(Array(NODES).fill(1));
    expect(world.nodes("work").filter((n) => !n.deleted && n.unschedulable)).toEqual([]);
    const lease = await world.cluster.getLease(LEASE_NAMESPACE, leaseName("aborting"));
    expect(requestOf(lease)).toBeUndefined();
  }, 900_000);
});
