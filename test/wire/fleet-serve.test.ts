// A fleet against `sandbox serve` (issue 49): the example fleet's five clusters served from one
// fleet scenario file (policies/sandbox/fleet.yaml), each its own Kubernetes API and EKS
// cluster on one virtual clock, reached by `noderoll fleet` as live clusters are — each
// policy's cluster found through EKS, an EKS token, the latest AMI release read from SSM. The
// fleet's state is only what the served clusters record between two separate processes.
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAccount } from "../../src/cli/sandbox-world.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { cliAsync } from "../helpers/cli-async.js";
import { ROOT } from "../helpers/cli.js";

let server: SandboxServer;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), "noderoll-fleet-serve-"));

beforeAll(async () => {
  cpSync(join(ROOT, "policies"), join(dir, "policies"), { recursive: true });
  // The command line waits in real time: shorter waits keep a served roll quick.
  for (const f of readdirSync(join(dir, "policies/fleet")).filter((x) => x !== "eks.yaml")) {
    const file = join(dir, "policies/fleet", f);
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        "  maxSurge: 1\n",
        "  maxSurge: 1\n  postDrainDelay: 0s\n  interval: 0s\n  validation: { count: 1 }\n",
      ),
    );
  }
  server = await serveSandbox(loadAccount([join(ROOT, "policies/sandbox/fleet.yaml")]));
  const { KUBECONFIG: _k, ...rest } = server.env;
  env = rest;
});
afterAll(() => server?.close());

const fleet = (...args: string[]) =>
  cliAsync({ cwd: dir, env }, ["fleet", ...args, "--fleet", "policies/fleet/eks.yaml"]);

describe("noderoll fleet against sandbox serve", () => {
  it("plans every served cluster, rolls the one a matrix job is for, and the next process sees it", async () => {
    const before = await fleet("plan", "--format", "json");
    expect(before.code, before.stderr).toBe(0);
    const plan = JSON.parse(before.stdout) as { due: { cluster: string }[]; pinned: unknown };
    expect(plan.due.map((d) => d.cluster)).toEqual(["dev-eu", "dev-us"]);
    expect(plan.pinned).toBeNull();

    // A matrix job for dev-eu: the whole fleet read, that cluster rolled, latest pinned via SSM.
    const job = await fleet("apply", "--only", "policies/fleet/dev-eu.yaml");
    expect(job.code, job.stderr).toBe(0);
    expect(job.stdout).toContain("dev-eu: success: 2 groups rolled");
    expect(job.stdout).not.toContain("dev-us: rolling");

    const after = await fleet("plan");
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain(
      "pinned to Kubernetes 1.33, release 1.33.4-20250904, launch templates' $Latest at ami-0a1b2c3d4e5f60002 for every stage",
    );
    expect(after.stdout).toMatch(
      /^ {2}dev-eu \(.*\) runs dev-eu-system 1\.33\.4-20250904; dev-eu-workers launch template 2: done /m,
    );
    expect(after.stdout.trimEnd().split("\n").at(-1)).toBe("The next run starts dev-us.");
  }, 300_000);

  it("pause on every cluster holds the next run; resume releases it", async () => {
    const paused = await fleet("pause", "--reason", "incident 42");
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.stdout.trim().split("\n")).toHaveLength(5);
    const held = await fleet("apply");
    expect(held.code, held.stderr).toBe(0);
    expect(held.stdout).not.toMatch(/: rolling /);
    expect(held.stdout).toMatch(
      /^Paused by .* incident 42; no cluster starts until `noderoll fleet resume`\.$/m,
    );
    expect((await fleet("resume")).code).toBe(0);
    const plan = await fleet("plan");
    expect(plan.stdout).not.toContain("Paused");
  }, 300_000);
});
