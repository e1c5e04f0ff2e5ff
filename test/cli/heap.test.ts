// A large sandbox world gets the heap it needs: the command line runs itself again with a
// higher limit (src/cli/heap.ts). The rule on its own, then the command line as a person runs it:
// the same plan and exit code as without the relaunch, a Ctrl-C that reaches the roll once, and
// a world too large for the old limit that only runs because of it.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { heapFor, scenarioFileOf } from "../../src/cli/heap.js";
import { scenarioScale } from "../../src/sandbox/scenarios/scale.js";
import { generatePolicyYaml, generateScenarioYaml } from "../../src/sandbox/scenarios/generate.js";
import { ROOT, runCli } from "../helpers/cli.js";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

describe("the heap a world is given", () => {
  const limit = 4288 * MIB; // Node 24's default on a machine of 16 GB or more

  it("is left alone for worlds that fill a third of it or less", () => {
    expect(heapFor({ nodes: 20_000, pods: 600_000 }, limit, 16 * GIB)).toBeUndefined();
    expect(heapFor({ nodes: 40_000, pods: 1_200_000 }, limit, 16 * GIB)).toBeUndefined();
  });

  it("is raised to two and a half times the world, within three quarters of the memory", () => {
    const big = { nodes: 100_000, pods: 3_000_000 };
    expect(heapFor(big, limit, 24 * GIB)).toEqual({ fromMiB: 4288, toMiB: 8106 });
    // A 16 GB runner: the same; an 8 GB one: three quarters of it.
    expect(heapFor(big, limit, 16 * GIB)?.toMiB).toBe(8106);
    expect(heapFor(big, limit, 8 * GIB)?.toMiB).toBe(6144);
    // Not for a quarter more or less: a second process is not worth it.
    expect(heapFor(big, limit, 6 * GIB)).toBeUndefined();
  });

  it("is not raised where it already was (NODE_OPTIONS, --max-old-space-size)", () => {
    expect(heapFor({ nodes: 100_000, pods: 3_000_000 }, 12 * GIB, 24 * GIB)).toBeUndefined();
  });
});

describe("the size of a scenario, read ahead", () => {
  it("counts each group's desired nodes and each workload's replicas, a DaemonSet per node", () => {
    const json = generateScenarioYaml({ nodes: 300, groups: 4, podsPerNode: 30, seed: 1 });
    expect(json.startsWith("#")).toBe(true);
    const scale = scenarioScale(json);
    expect(scale?.nodes).toBe(300);
    // The generator aims at 30 pods a node; the DaemonSet's count as one a node.
    expect(scale?.pods).toBeGreaterThan(300 * 25);
    const yaml = [
      "apiVersion: noderoll.io/v1",
      "kind: SandboxScenario",
      "nodeGroups:",
      "  - { name: a, size: { min: 1, max: 9, desired: 3 } }",
      "  - { name: b, size: { min: 1, max: 9, desired: 4 } }",
      "workloads:",
      "  - { kind: Deployment, name: web, replicas: 10 }",
      "  - { kind: Pod, name: lone }",
      "  - { kind: DaemonSet, name: agent }",
    ].join("\n");
    expect(scenarioScale(yaml)).toEqual({ nodes: 7, pods: 10 + 1 + 7 });
  });

  it("says nothing of text it cannot read, and never throws", () => {
    for (const text of ["", "{", "[1,2]", "null", "a: [", "# only a comment\n", "\u0000\u0001"])
      expect(() => scenarioScale(text)).not.toThrow();
    expect(scenarioScale("{")).toBeUndefined();
    expect(scenarioScale("[1,2]")).toBeUndefined();
    // Hostile values count as nothing rather than as a huge or negative world.
    const hostile = JSON.stringify({
      nodeGroups: [{ size: { desired: -5 } }, { size: { desired: "9e9" } }, null, 3],
      workloads: [{ replicas: -1 }, { replicas: Infinity }, "x", { kind: "DaemonSet" }],
    });
    expect(scenarioScale(hostile)).toEqual({ nodes: 0, pods: 1 + 1 + 0 });
  });
});

describe("which commands build a world from a file", () => {
  it("plan and apply with --sandbox FILE, sandbox serve with --scenario FILE", () => {
    expect(scenarioFileOf("plan", ["--policy", "p.yaml", "--sandbox", "s.json"])).toBe("s.json");
    expect(scenarioFileOf("plan", ["--sandbox=s.json", "--policy", "p.yaml"])).toBe("s.json");
    expect(scenarioFileOf("apply", ["--sandbox", "s.json", "--force"])).toBe("s.json");
    expect(scenarioFileOf("sandbox", ["serve", "--scenario", "s.json"])).toBe("s.json");
  });

  it("not the built-in demo, a live cluster, or any other command", () => {
    expect(scenarioFileOf("plan", ["--policy", "p.yaml", "--sandbox", "demo"])).toBeUndefined();
    expect(scenarioFileOf("plan", ["--policy", "p.yaml"])).toBeUndefined();
    expect(scenarioFileOf("sandbox", ["serve"])).toBeUndefined();
    expect(scenarioFileOf("sandbox", ["generate", "--scenario", "s.json"])).toBeUndefined();
    expect(scenarioFileOf("validate", ["--sandbox", "s.json"])).toBeUndefined();
    expect(scenarioFileOf(undefined, [])).toBeUndefined();
  });
});

/**
 * A world of 120,000 pods and a policy for it. Run under `--max-old-space-size=40` (a heap limit
 * of about 230 MiB with the young generation), it fills more than a third of the limit, so the
 * command line raises it; without the raise, its ~100 MB do not fit the 40 MB of old space.
 */
function bigWorld(): { scenario: string; policy: string } {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-heap-"));
  const opts = { nodes: 4000, groups: 16, podsPerNode: 30, seed: 3 };
  const scenario = join(dir, "scenario.json");
  const policy = join(dir, "policy.yaml");
  writeFileSync(scenario, generateScenarioYaml(opts));
  writeFileSync(policy, generatePolicyYaml(opts));
  return { scenario, policy };
}

const SMALL_HEAP = ["--max-old-space-size=40"];

function runSmallHeap(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return runCli(args, { env, node: SMALL_HEAP });
}

describe("the command line on a world its heap is too small for", () => {
  const world = bigWorld();
  const plan = ["plan", "--policy", world.policy, "--sandbox", world.scenario];

  it("runs again with a raised limit and prints the same plan, with the same exit code", () => {
    const raised = runSmallHeap([...plan, "--detailed-exitcode"]);
    expect(raised.stderr).toMatch(
      /^noderoll: a sandbox world of 1\d\d,\d{3} pods: running again with --max-old-space-size=\d+ \(the heap limit was 2\d\d MiB\)\n/,
    );
    expect(raised.status).toBe(2); // changes to make
    const plain = runCli([...plan, "--detailed-exitcode"]);
    expect(plain.stderr).not.toContain("running again");
    expect(plain.status).toBe(2);
    expect(raised.stdout).toBe(plain.stdout);
    expect(raised.stdout).toMatch(/^Plan: 16 groups to roll \(4000 nodes\)/m);
  });

  it("without the raise (as in the child, which never raises again), runs out of memory", () => {
    const r = runSmallHeap(plan, { ...process.env, NODEROLL_HEAP_RAISED: "1" });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/heap out of memory/i);
    expect(r.stderr).not.toContain("running again");
  });

  it("a Ctrl-C reaches the relaunched roll once: it stops cleanly, exit 3", async () => {
    // The test's child leads a process group, as a shell's foreground job does; the signal goes
    // to the whole group, as a terminal's Ctrl-C does.
    const child = spawn(
      process.execPath,
      [
        ...SMALL_HEAP,
        `${ROOT}dist/cli.js`,
        "apply",
        "--policy",
        world.policy,
        "--sandbox",
        world.scenario,
      ],
      { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    let sent = false;
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const status = await new Promise<number | null>((resolve) => {
      // Once the roll has begun (its first node line), Ctrl-C.
      const watch = setInterval(() => {
        if (!sent && /cordoned /.test(stdout)) {
          sent = true;
          process.kill(-(child.pid as number), "SIGINT");
        }
      }, 50);
      child.on("close", (code) => {
        clearInterval(watch);
        resolve(code);
      });
    });
    expect(sent).toBe(true);
    expect(stderr).toContain("running again with --max-old-space-size=");
    expect(stderr).toContain("SIGINT: stopping now");
    expect(stderr).not.toContain("SIGINT again");
    expect(status).toBe(3);
  });
});
