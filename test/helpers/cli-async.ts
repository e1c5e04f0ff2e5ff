// The bundled command line (dist/cli.js) run asynchronously, as a user runs it against
// `sandbox serve` answering in the test's own process: `onEvent` is called once the run's event
// log (its --events file) first shows what `started` looks for — to act from a second process
// mid-roll. A hang, not a slow run, on a busy 2-core machine ends it.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { ROOT } from "./cli.js";

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const HANG_MS = 400_000;

export function cliAsync(
  o: { cwd: string; env: Record<string, string> },
  args: string[],
  started?: (eventLog: string) => boolean,
  onStart?: () => void,
): Promise<Ran> {
  return new Promise<Ran>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "dist/cli.js"), ...args], {
      cwd: o.cwd,
      env: { PATH: process.env.PATH, HOME: o.cwd, ...o.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const events = args[args.indexOf("--events") + 1] ?? "";
    let fired = false;
    const watch = setInterval(() => {
      const text = started && existsSync(events) ? readFileSync(events, "utf8") : "";
      if (!fired && started?.(text)) {
        fired = true;
        onStart?.();
      }
    }, 200);
    const hang = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
    child.on("close", (code) => {
      clearInterval(watch);
      clearTimeout(hang);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A cluster of one self-managed group `work` of `nodes` nodes on launch template version 1 (2 is
 * the target), served by `sandbox serve`, and a policy for it in a directory of its own whose
 * `interval` (waited in real time by the command line) keeps a roll going long enough for a
 * second process to act within a renewal (30 s). `start()` serves it; `cli` runs the command line
 * against it; `connect` are the flags that reach it.
 */
export function servedGroup(name: string, nodes: number) {
  const dir = mkdtempSync(join(tmpdir(), `noderoll-${name}-`));
  const policy = join(dir, "policy.yaml");
  const kubeconfig = join(dir, "kubeconfig");
  writeFileSync(
    policy,
    `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: ${name} }
cluster: { name: ${name}, region: eu-west-1 }
defaults: { postDrainDelay: 0s, interval: 10s, validation: { count: 1 } }
groups:
  - { name: work, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }
`,
  );
  const world = World.fromYaml(`apiVersion: noderoll.io/v1
kind: SandboxScenario
metadata: { name: ${name} }
seed: 4
cluster: { name: ${name}, version: "1.33" }
zones: [eu-west-1a, eu-west-1b]
nodeGroups:
  - name: work
    type: self-managed
    size: { min: 0, max: ${nodes * 2}, desired: ${nodes} }
    launchTemplate: { versions: 2, use: $Latest }
    instances: [{ version: 1, count: ${nodes} }]
workloads:
  - { kind: Deployment, name: web, replicas: 3, pdb: { minAvailable: 2 } }
`);
  let server: SandboxServer | undefined;
  let env: Record<string, string> = {};
  return {
    dir,
    policy,
    world,
    connect: ["--policy", policy, "--kubeconfig", kubeconfig],
    async start() {
      server = await serveSandbox(world, { kubeconfigPath: kubeconfig });
      const { KUBECONFIG: _k, ...rest } = server.env;
      env = rest;
    },
    close: () => server?.close(),
    cli: (args: string[], started?: (text: string) => boolean, onStart?: () => void) =>
      cliAsync({ cwd: dir, env }, args, started, onStart),
  };
}
