// `noderoll plan` as a user runs it against a live cluster — the bundled CLI in a child
// process, the AWS SDK and the Kubernetes adapter reaching `sandbox serve` through the standard
// endpoint variables and a kubeconfig — while the server throttles: reads only, every
// cluster-wide list paginated, 429s waited out.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isMutating } from "../../src/sandbox/wire/http-server.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { ROOT } from "../helpers/cli.js";

let server: SandboxServer;
let world: World;
beforeAll(async () => {
  world = World.demo();
  server = await serveSandbox(world, {
    kubeconfigPath: join(mkdtempSync(join(tmpdir(), "noderoll-plan-")), "kubeconfig"),
  });
});
afterAll(() => server.close());

function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "dist/cli.js"), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...server.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("noderoll plan against sandbox serve", () => {
  it("plans the demo with reads only, paginated cluster-wide lists, and throttling honoured", async () => {
    server.faces.kubernetes.throttleNext = 3;
    const before = server.log.entries.length;
    const r = await cli([
      "plan",
      "--policy",
      "policies/demo.yaml",
      "--kubeconfig",
      server.env.KUBECONFIG as string,
      "--detailed-exitcode",
    ]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("Plan: 3 groups to roll (17 nodes), 0 config changes, 0 blocked.");
    expect(r.status).toBe(2);
    const entries = server.log.entries.slice(before);
    expect(entries.filter((e) => e.status === 429).length).toBe(3);
    expect(server.log.mutating().filter((e) => entries.includes(e))).toEqual([]);
    const clusterWideLists = entries.filter(
      (e) =>
        e.face === "kubernetes" &&
        e.method === "GET" &&
        /^\/api\/v1\/(nodes|pods)$/.test(e.path) &&
        !/(^|&)watch=/.test(e.query),
    );
    expect(clusterWideLists.length).toBeGreaterThan(0);
    expect(
      clusterWideLists.filter(
        (e) => !/(^|&)limit=\d+/.test(e.query) && !/fieldSelector=spec\.nodeName/.test(e.query),
      ),
    ).toEqual([]);
    // 17 nodes to replace of 17: fewer requests in pages of the cluster's pods than a list per
    // node (src/plan/read.ts, readPath), and the owners listed in pages too, not one GET each.
    const podLists = clusterWideLists.filter((e) => e.path === "/api/v1/pods");
    expect(podLists.length).toBeGreaterThan(0);
    expect(podLists.length).toBeLessThan(17);
    expect(podLists.filter((e) => /fieldSelector/.test(e.query))).toEqual([]);
    const owners = entries.filter((e) => e.face === "kubernetes" && /^\/apis\/apps\//.test(e.path));
    expect(owners.length).toBeGreaterThan(0);
    expect(
      owners.filter(
        (e) => !/^\/apis\/apps\/v1\/[a-z]+$/.test(e.path) || !/(^|&)limit=500/.test(e.query),
      ),
    ).toEqual([]);
  });
});

describe("noderoll plan reads the API server's clock", () => {
  it("compares the server's timestamps with the server's time, months from the wall's here: no node is older than maxNodeAge for it", async () => {
    // The world's time is its scenario's (January 2026), sent in every Kubernetes answer's Date
    // header; the wall's is today's. Read against the wall, every node was ~300 days old.
    const dir = mkdtempSync(join(tmpdir(), "noderoll-age-"));
    const policy = join(dir, "policy.yaml");
    const demo = readFileSync(join(ROOT, "policies/demo.yaml"), "utf8");
    writeFileSync(policy, demo.replace(/^defaults:\n/m, "defaults:\n  maxNodeAge: 30d\n"));
    const kubeconfig = server.env.KUBECONFIG as string;
    const before = world.clock.nowMs();
    const r = await cli([
      "plan",
      "--policy",
      policy,
      "--kubeconfig",
      kubeconfig,
      "--format",
      "json",
    ]);
    expect(r.stderr).toBe("");
    const plan = JSON.parse(r.stdout) as {
      takenAt: string;
      groups: { replacements: { reasons: { kind: string }[] }[] }[];
    };
    const reasons = plan.groups.flatMap((g) => g.replacements.flatMap((x) => x.reasons));
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.filter((x) => x.kind === "max-node-age")).toEqual([]);
    // Taken at the world's time (to the second the header gives): between the world's time before
    // the run and after it (when idle, the served world moves on to its next timer at once).
    const takenAt = Date.parse(plan.takenAt);
    expect(takenAt).toBeGreaterThanOrEqual(before - 5_000);
    expect(takenAt).toBeLessThanOrEqual(world.clock.nowMs() + 5_000);
    expect(Math.abs(Date.parse(plan.takenAt) - Date.now())).toBeGreaterThan(86_400_000);
  });
});

describe("noderoll plan --rehearse against sandbox serve", () => {
  it("rehearses on a twin in the process: reads only, not one mutating request to the cluster", async () => {
    const before = server.log.entries.length;
    const live = () => [...world.ec2.instances.values()].map((i) => `${i.id}:${i.state}`).sort();
    const instancesBefore = live();
    const r = await cli([
      "plan",
      "--policy",
      "policies/demo.yaml",
      "--kubeconfig",
      server.env.KUBECONFIG as string,
      "--rehearse",
      "--format",
      "json",
    ]);
    expect(r.status, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      rehearsal: { result: string; groups: { group: string }[]; workloads: { name: string }[] };
    };
    expect(plan.rehearsal.result).toBe("success");
    expect(plan.rehearsal.groups.map((g) => g.group)).toEqual(["system", "ingress", "workers"]);
    expect(plan.rehearsal.workloads.map((w) => w.name)).toContain("legacy");
    const entries = server.log.entries.slice(before);
    // The rehearsal's own read reached the server: every pod and budget, cluster-wide.
    const reads = entries.map((e) => `${e.method} ${e.path}`);
    expect(reads).toContain("GET /api/v1/pods");
    expect(reads).toContain("GET /apis/policy/v1/poddisruptionbudgets");
    // Counted on the wire, every face: not one request that could change anything. (The rule
    // that counts them does see an eviction, a cordon or a scale-up as mutating.)
    expect(entries.filter(isMutating)).toEqual([]);
    for (const write of [
      { method: "POST", resource: "pods/eviction" },
      { method: "PATCH", resource: "nodes" },
      { method: "POST", resource: "SetDesiredCapacity" },
      { method: "POST", resource: "UpdateNodegroupVersion" },
    ])
      expect(isMutating(write)).toBe(true);
    // The twin's roll made hundreds of requests; none of them left the process, and the live
    // cluster is as it was.
    expect(entries.length).toBeLessThan(100);
    expect(live()).toEqual(instancesBefore);
  });
});
