// The bundled CLI (dist/cli.js) rolling a cluster through a loopback proxy that resets and
// stalls a share of its connections to `sandbox serve` — the node watch and AWS calls among
// them, for certain. The roll completes, or fails naming what failed and is run again as a
// person would, within a bounded time; SIGTERM ends a run within the bound; and the cluster is
// left consistent: the invariants held throughout, and a next run converges with nothing of
// noderoll's left behind. Bounds on wall-clock time here only tell a hang from a run.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { loadPolicy, type Policy } from "../../src/policy/index.js";
import { EventLog, type RollEvent } from "../../src/ports/index.js";
import { SANDBOX_TOKEN } from "../../src/sandbox/wire/kubernetes-face.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import { World } from "../../src/sandbox/world/world.js";
import { ROOT } from "../helpers/cli.js";
import { Invariants } from "../roll/invariants.js";
import { leftovers, NAMED } from "../roll/hostile.js";
import { startChaosProxy, type ChaosProxy } from "./chaos-proxy.js";

const POLICY = `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: hostile }
cluster: { name: hostile, region: eu-west-1 }
defaults: { postDrainDelay: 0s, interval: 0s, validation: { count: 1 } }
order: [sys, work]
groups:
  - name: sys
    target: { kubernetesVersion: "1.33", releaseVersion: "1.33.1-20250715" }
  - name: work
    target: { launchTemplateVersion: $Latest }
    rollingUpdate: { maxSurge: 1, maxUnavailable: 1 }
`;

const world = () =>
  World.from({
    apiVersion: "noderoll.io/v1",
    kind: "SandboxScenario",
    metadata: { name: "hostile" },
    seed: 5,
    cluster: { name: "hostile", version: "1.33" },
    releases: { "1.32": ["1.32.3-20250519"], "1.33": ["1.33.1-20250715"] },
    zones: ["eu-west-1a", "eu-west-1b"],
    nodeGroups: [
      {
        name: "sys",
        type: "managed",
        version: "1.32",
        releaseVersion: "1.32.3-20250519",
        zones: ["eu-west-1a"],
        size: { min: 1, max: 6, desired: 2 },
        capacity: { cpu: 8, memory: "32Gi", pods: 60 },
      },
      {
        name: "work",
        type: "self-managed",
        size: { min: 1, max: 9, desired: 3 },
        capacity: { cpu: 8, memory: "32Gi", pods: 60 },
        launchTemplate: { versions: 2, use: "$Latest" },
        instances: [{ version: 1, count: 3 }],
      },
    ],
    workloads: [
      { kind: "Deployment", name: "web", replicas: 3, pdb: { minAvailable: 2 } },
      { kind: "DaemonSet", name: "agent", namespace: "kube-system" },
    ],
  });

/** A hang, not a slow run: far above a roll through the proxy on a busy 2-core machine. */
const HANG_MS = 480_000;
/** SIGTERM must end a run well within this (the CLI promises 30 s). */
const STOP_BOUND_MS = 90_000;

const policyOf = (): Policy => {
  const r = loadPolicy(POLICY, "hostile.yaml");
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("; "));
  return r.policy;
};

interface Rig {
  world: World;
  server: SandboxServer;
  proxy: ChaosProxy;
  dir: string;
  invariants: Invariants;
  stopChecks: () => void;
}

let rig: Rig | undefined;
afterEach(async () => {
  rig?.stopChecks();
  await rig?.proxy.close();
  await rig?.server.close();
  rig = undefined;
});

/** A world served through a chaotic proxy, its invariants checked at every node change. */
async function setup(chaos: { reset: number; stall: number; seed: number }): Promise<Rig> {
  const w = world();
  const { plan } = await w.run(observeAndPlan(policyOf(), "hostile.yaml", w));
  const invariants = new Invariants(w, plan, { order: ["sys", "work"] });
  const check = () =>
    invariants.check({ t: w.clock.iso(), type: "note", message: "tick" } as RollEvent);
  const watcher = { filter: () => true, stream: { push: check } };
  w.kube.addNodeWatcher(watcher);
  const timer = setInterval(check, 250);
  const server = await serveSandbox(w, { speed: 1 });
  const proxy = await startChaosProxy(server.port, {
    ...chaos,
    rules: [
      { match: /^GET \/api\/v1\/nodes\?[^ ]*watch=1/, fate: "stall" },
      { match: /Action=DescribeAutoScalingGroups/, fate: "stall" },
      { match: /Action=DescribeAutoScalingGroups/, fate: "reset-after" },
      { match: /^GET \/clusters\/hostile\/node-groups\/sys /, fate: "reset-before" },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), "noderoll-hostile-"));
  writeFileSync(join(dir, "policy.yaml"), POLICY);
  writeFileSync(
    join(dir, "kubeconfig"),
    [
      "apiVersion: v1",
      "kind: Config",
      `clusters: [{ name: c, cluster: { server: "${proxy.url}", insecure-skip-tls-verify: true } }]`,
      `users: [{ name: u, user: { token: ${SANDBOX_TOKEN} } }]`,
      "contexts: [{ name: x, context: { cluster: c, user: u } }]",
      "current-context: x",
      "",
    ].join("\n"),
  );
  return {
    world: w,
    server,
    proxy,
    dir,
    invariants,
    stopChecks: () => {
      clearInterval(timer);
      w.kube.removeNodeWatcher(watcher);
    },
  };
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `noderoll apply` as a user runs it against the proxy; `onStart` may signal the child. */
function applyCli(r: Rig, events: string, signalWhen?: (text: string) => boolean): Promise<Ran> {
  const env = {
    PATH: process.env.PATH,
    HOME: r.dir,
    AWS_ACCESS_KEY_ID: DEFAULT_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: DEFAULT_CREDENTIALS.secretAccessKey,
    AWS_REGION: "eu-west-1",
    AWS_ENDPOINT_URL_EKS: r.proxy.url,
    AWS_ENDPOINT_URL_AUTO_SCALING: r.proxy.url,
    AWS_ENDPOINT_URL_EC2: r.proxy.url,
    AWS_CONFIG_FILE: join(r.dir, "aws-config"),
    AWS_SHARED_CREDENTIALS_FILE: join(r.dir, "aws-credentials"),
  };
  const args = [join(ROOT, "dist/cli.js"), "apply", "--policy", join(r.dir, "policy.yaml")];
  args.push("--kubeconfig", join(r.dir, "kubeconfig"), "--events", events, "--lock-wait", "5m");
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd: r.dir, env });
    let stdout = "";
    let stderr = "";
    let signalled = 0;
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const watch = setInterval(() => {
      const text = existsSync(events) ? readFileSync(events, "utf8") : "";
      if (!signalled && signalWhen?.(text)) {
        signalled = performance.now();
        child.kill("SIGTERM");
      }
    }, 200);
    const hang = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
    child.on("close", (status) => {
      clearInterval(watch);
      clearTimeout(hang);
      const end = performance.now();
      resolve({ status, stdout, stderr, ms: end - (signalled || start) });
    });
  });
}

/** Off the wire: the next run converges, in the world's virtual time, leaving nothing behind. */
async function convergesAfter(r: Rig): Promise<string[]> {
  r.stopChecks();
  await r.proxy.close();
  await r.server.close();
  const w = r.world;
  const policy = policyOf();
  const log = new EventLog(w.clock);
  log.on(r.invariants.check);
  const result = await w.run(
    planAndApply(policy, "hostile.yaml", w, log, { runId: "next" }),
    48 * 3600_000,
  );
  await w.advance(10 * 60_000);
  const again = await w.run(observeAndPlan(policy, "hostile.yaml", w));
  return [
    ...(result.result === "success" ? [] : [`next run: ${result.message}`]),
    ...leftovers(w),
    ...(again.plan.summary.nodesToReplace > 0 ? ["nodes still to replace"] : []),
  ];
}

/** The run's last word, not the read-progress lines a log shows every 30 s. */
const lastLine = (text: string) =>
  text
    .trim()
    .split("\n")
    .filter((l) => l.trim() !== "" && !/^reading live state · /.test(l))
    .at(-1) ?? "";

describe("the bundled CLI through a network that resets and stalls", () => {
  it("completes the roll (rerun after a named failure), with the invariants held", async () => {
    rig = await setup({ seed: 7, reset: 0.08, stall: 0.03 });
    const outcomes: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const ran = await applyCli(rig, join(rig.dir, `events-${n}.jsonl`));
      outcomes.push(`${ran.status}: ${lastLine(ran.stdout + "\n" + ran.stderr)}`);
      expect(ran.ms).toBeLessThan(HANG_MS);
      if (ran.status === 0) break;
      // Failed: only clearly, naming what failed (or a lock still held by a killed run).
      expect(ran.status).toBe(1);
      expect(lastLine(ran.stdout + "\n" + ran.stderr)).toMatch(
        new RegExp(`(${NAMED.source})|LockHeld`),
      );
    }
    expect(outcomes.at(-1), outcomes.join("\n")).toMatch(/^0: success: 2 groups rolled/);
    expect(rig.invariants.violations).toEqual([]);
    // The network misbehaved, and in the ways that matter.
    expect(rig.proxy.counts["reset-before"] + rig.proxy.counts["reset-after"]).toBeGreaterThan(1);
    expect(rig.proxy.counts.stall).toBeGreaterThan(1);
    expect(rig.proxy.caught).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^stall: GET \/api\/v1\/nodes\?.*watch=1/),
        "stall: Action=DescribeAutoScalingGroups",
        "reset-after: Action=DescribeAutoScalingGroups",
      ]),
    );
    expect(await convergesAfter(rig)).toEqual([]);
  });

  it("SIGTERM ends a run within the bound, leaving a cluster the next run finishes", async () => {
    rig = await setup({ seed: 11, reset: 0.05, stall: 0.05 });
    const ran = await applyCli(rig, join(rig.dir, "events.jsonl"), (text) =>
      /"type":"(node\.cordon|eks\.update)"/.test(text),
    );
    const seen = `stdout:\n${ran.stdout}\nstderr:\n${ran.stderr}\nproxy: ${JSON.stringify(rig.proxy.counts)} ${rig.proxy.caught.join("; ")}`;
    expect(ran.stderr, seen).toMatch(/SIGTERM: stopping now/);
    expect(ran.status).toBe(3);
    expect(ran.ms).toBeLessThan(STOP_BOUND_MS);
    expect(lastLine(ran.stdout)).toMatch(/^cancelled: .*Run apply again to continue/);
    expect(rig.invariants.violations).toEqual([]);
    expect(await convergesAfter(rig)).toEqual([]);
  });
});
