// A large sandbox world gets the heap it needs: the command line runs itself again with a
// higher limit (src/cli/heap.ts). The rule on its own, then the command line as a person runs it:
// the same plan and exit code as without the relaunch, a world too large for the old limit that
// only runs because of it, a Ctrl-C that reaches the roll once, and a child that does not outlive
// a parent killed outright.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { heapFor, HeapTooSmall, relaunch } from "../../src/cli/heap.js";
import { scenarioScale, uncheckedScale } from "../../src/sandbox/scenarios/scale.js";
import { scenarioJson } from "../../src/sandbox/scenarios/schema.js";
import {
  generatePolicyYaml,
  generateScenario,
  generateScenarioYaml,
} from "../../src/sandbox/scenarios/generate.js";
import { World } from "../../src/sandbox/world/world.js";
import { ROOT, runCli } from "../helpers/cli.js";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

describe("the heap a world is given", () => {
  const limit = 4288 * MIB; // Node 24's default on a machine of 16 GB or more
  const big = { nodes: 100_000, pods: 3_000_000 };

  it("is left alone for worlds that fill a third of it or less", () => {
    expect(heapFor({ nodes: 20_000, pods: 600_000 }, 1, limit, 16 * GIB)).toBeUndefined();
    expect(heapFor({ nodes: 40_000, pods: 1_200_000 }, 1, limit, 16 * GIB)).toBeUndefined();
  });

  it("is raised to two and a half times the world, within three quarters of the memory", () => {
    expect(heapFor(big, 1, limit, 24 * GIB)).toEqual({ fromMiB: 4288, toMiB: 8106 });
    // A 16 GB runner: the same; an 8 GB one: three quarters of it.
    expect(heapFor(big, 1, limit, 16 * GIB)?.toMiB).toBe(8106);
    expect(heapFor(big, 1, limit, 8 * GIB)?.toMiB).toBe(6144);
    // Not for a quarter more or less: a second process is not worth it.
    expect(heapFor(big, 1, limit, 6 * GIB)).toBeUndefined();
  });

  it("counts a rehearsal's twin as a second world", () => {
    const half = { nodes: 40_000, pods: 1_200_000 };
    expect(heapFor(half, 1, limit, 24 * GIB)).toBeUndefined();
    expect(heapFor(half, 2, limit, 24 * GIB)?.toMiB).toBeGreaterThan(6000);
  });

  it("is not raised where it already was (NODE_OPTIONS, --max-old-space-size)", () => {
    expect(heapFor(big, 1, 12 * GIB, 24 * GIB)).toBeUndefined();
  });
});

describe("the size of a scenario", () => {
  it("counts each group's desired nodes, each workload's replicas, a DaemonSet's per node", () => {
    const scale = scenarioScale(generateScenario({ nodes: 300, groups: 4, podsPerNode: 30 }));
    const world = new World(generateScenario({ nodes: 300, groups: 4, podsPerNode: 30 }));
    expect(scale).toEqual({ nodes: world.kube.nodes.size, pods: world.kube.pods.size });
    const yaml = [
      "apiVersion: noderoll.io/v1",
      "kind: SandboxScenario",
      "metadata: { name: t }",
      "cluster: { name: c, version: '1.33' }",
      "zones: [a]",
      "releases: { '1.33': [r1] }",
      "nodeGroups:",
      "  - { name: a, type: managed, version: '1.33', releaseVersion: r1, size: { min: 1, max: 9, desired: 3 } }",
      "  - { name: b, type: self-managed, version: '1.33', size: { min: 1, max: 9, desired: 4 } }",
      "workloads:",
      "  - { kind: Deployment, name: web, replicas: 10 }",
      "  - { kind: Pod, name: lone, replicas: 5 }",
      "  - { kind: DaemonSet, name: agent }",
    ].join("\n");
    const scenario = World.scenarioOf(yaml, "t.yaml");
    // A bare Pod is one pod whatever its replicas say (the world makes one).
    expect(scenarioScale(scenario)).toEqual({ nodes: 7, pods: 10 + 1 + 7 });
    const built = new World(scenario);
    expect(built.kube.pods.size).toBe(10 + 1 + 7);
  });

  it("is the same read from a JSON scenario before it is checked, defaults included", () => {
    const opts = { nodes: 300, groups: 4, podsPerNode: 30 };
    const text = generateScenarioYaml(opts);
    expect(uncheckedScale(scenarioJson(text))).toEqual(scenarioScale(generateScenario(opts)));
    const raw = {
      nodeGroups: [{ size: { desired: 3 } }, { size: { desired: 4 } }],
      workloads: [
        { kind: "Deployment", name: "web", replicas: 10 },
        { kind: "Deployment", name: "one" }, // replicas: 1 unless it says
        { kind: "Pod", name: "lone", replicas: 5 },
        { kind: "DaemonSet", name: "agent" },
      ],
    };
    expect(uncheckedScale(raw)).toEqual({ nodes: 7, pods: 10 + 1 + 1 + 7 });
    expect(uncheckedScale({ nodeGroups: raw.nodeGroups })).toEqual({ nodes: 7, pods: 0 });
  });

  it("is not guessed from a value that is not a scenario's shape where the count reads it", () => {
    const group = { size: { desired: 3 } };
    const notShaped: unknown[] = [
      undefined,
      null,
      [],
      "scenario",
      {},
      { nodeGroups: "a" },
      { nodeGroups: [group], workloads: {} },
      { nodeGroups: [null] },
      { nodeGroups: [{}] },
      { nodeGroups: [{ size: { desired: "3" } }] },
      { nodeGroups: [{ size: { desired: -1 } }] },
      { nodeGroups: [{ size: { desired: 1.5 } }] },
      { nodeGroups: [group], workloads: [null] },
      { nodeGroups: [group], workloads: [{ name: "web" }] },
      { nodeGroups: [group], workloads: [{ kind: "Deployment", replicas: "2" }] },
      { nodeGroups: [group], workloads: [{ kind: "Deployment", replicas: -2 }] },
    ];
    for (const value of notShaped)
      expect(uncheckedScale(value), JSON.stringify(value)).toBe(undefined);
  });
});

describe("the relaunch itself", () => {
  const e = new HeapTooSmall({ fromMiB: 100, toMiB: 300 }, 1);

  it("passes the child's exit code on", async () => {
    expect(await relaunch(e, ["-e", "process.exit(7)"])).toBe(7);
  });

  it("a child aborted (as V8 aborts out of memory) is exit 134 here, not a second abort", async () => {
    expect(await relaunch(e, ["-e", "process.abort()"])).toBe(134);
  });

  it("gives the child the raised limit and never raises again in it", async () => {
    // 300 MiB of old space and the young generation: well under Node's default (2 GiB or more).
    const script =
      "const limit = require('node:v8').getHeapStatistics().heap_size_limit / 1048576; process.exit(limit > 300 && limit < 1000 && process.env.NODEROLL_HEAP_RAISED === '1' ? 0 : 9)";
    expect(await relaunch(e, ["-e", script])).toBe(0);
  });
});

/**
 * A world of 150,000 pods and a policy for it. Run under `--max-old-space-size=40` (a heap limit
 * of about 230 MiB on Node 24, the young generation included), it fills more than a third of the
 * limit, so the command line raises it (to ~430 MiB, well past the 1.25x a raise must be worth);
 * without the raise, its ~130 MB do not fit the 40 MB of old space.
 */
const dir = mkdtempSync(join(tmpdir(), "noderoll-heap-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const opts = { nodes: 5000, groups: 20, podsPerNode: 30, seed: 3 };
const scenarioFile = join(dir, "scenario.json");
const policyFile = join(dir, "policy.yaml");
writeFileSync(scenarioFile, generateScenarioYaml(opts));
writeFileSync(policyFile, generatePolicyYaml(opts));

const SMALL_HEAP = ["--max-old-space-size=40"];
const RELAUNCHED =
  /^noderoll: a sandbox world of 1\d\d,\d{3} pods: running again with --max-old-space-size=\d+ \(the heap limit was \d+ MiB\)\n/;

describe("the command line on a world its heap is too small for", () => {
  const plan = ["plan", "--policy", policyFile, "--sandbox", scenarioFile];

  it("runs again with a raised limit and prints the same plan, with the same exit code", () => {
    const raised = runCli([...plan, "--detailed-exitcode"], { node: SMALL_HEAP });
    expect(raised.stderr).toMatch(RELAUNCHED);
    expect(raised.status).toBe(2); // changes to make
    const plain = runCli([...plan, "--detailed-exitcode"]);
    expect(plain.stderr).not.toContain("running again");
    expect(plain.status).toBe(2);
    expect(raised.stdout).toBe(plain.stdout);
    expect(raised.stdout).toMatch(/^Plan: 20 groups to roll \(5000 nodes\)/m);
    // Nothing else printed twice: the same stderr once the relaunch's line and the reading's
    // heartbeats (every few seconds, however long the read takes) are left out.
    const rest = (text: string) =>
      text
        .split("\n")
        .filter((l) => !/^noderoll: a sandbox world|^reading live state/.test(l))
        .join("\n");
    expect(rest(raised.stderr)).toBe(rest(plain.stderr));
  });

  it("without the raise (as in the child, which never raises again), runs out of memory", () => {
    const r = runCli(plan, {
      node: SMALL_HEAP,
      env: { ...process.env, NODEROLL_HEAP_RAISED: "1" },
    });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/heap out of memory/i);
    expect(r.stderr).not.toContain("running again");
  });

  it("a JSON scenario too large for the heap is checked once, by the child: its errors as without the raise", () => {
    const value = scenarioJson(readFileSync(scenarioFile, "utf8")) as { zones: string[] };
    value.zones = []; // the schema asks for one at least
    const invalid = join(dir, "invalid.json");
    writeFileSync(invalid, JSON.stringify(value, null, 2));
    const args = ["plan", "--policy", policyFile, "--sandbox", invalid];
    const raised = runCli(args, { node: SMALL_HEAP });
    // Checked in a first process that never raises, with Node's default heap: a scenario that
    // is not valid goes the YAML path, to say where (its tree does not fit 40 MB either).
    const plain = runCli(args, { env: { ...process.env, NODEROLL_HEAP_RAISED: "1" } });
    expect(raised.stderr).toMatch(RELAUNCHED);
    expect(plain.stderr).toMatch(/invalid\.json:\d+:\d+/);
    expect(raised.stderr.replace(RELAUNCHED, "")).toBe(plain.stderr);
    expect(raised.status).toBe(plain.status);
    expect(plain.status).not.toBe(0);
  });

  it("usage errors are reported before any world is read, by the first process", () => {
    const r = runCli(["plan", "--sandbox", scenarioFile], { node: SMALL_HEAP });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^noderoll: --policy FILE is required\n/);
    expect(r.stderr).not.toContain("running again");
  });
});

/** `apply` on the big world, relaunched, in a process group of its own (a shell's job). */
function startApply() {
  const child = spawn(
    process.execPath,
    [
      ...SMALL_HEAP,
      `${ROOT}dist/cli.js`,
      "apply",
      "--policy",
      policyFile,
      "--sandbox",
      scenarioFile,
    ],
    { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out.stderr += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  /** Resolves once the roll has begun (its first node line); rejects if the run ends first. */
  const rolling = new Promise<void>((resolve, reject) => {
    const watch = setInterval(() => {
      if (!/cordoned /.test(out.stdout)) return;
      clearInterval(watch);
      resolve();
    }, 50);
    void closed.then(() => {
      clearInterval(watch);
      reject(new Error(`the run ended before rolling:\n${out.stderr}`));
    });
  });
  /** Whatever is left of the job, parent and relaunched child, is killed (a failed test's). */
  const kill = () => {
    const pid = child.pid as number;
    const orphans = childrenOf(pid);
    for (const target of [-pid, ...orphans]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // gone already
      }
    }
  };
  return { child, out, closed, rolling, kill };
}

/** The processes whose parent is `pid` (Linux: from /proc, as `ps` may not be installed). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The process runs (a zombie, exited but not yet reaped by whoever adopted it, does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("signals and the relaunched roll", () => {
  it("a Ctrl-C to the job reaches the roll once: it stops cleanly, exit 3", async () => {
    const run = startApply();
    try {
      await run.rolling;
      // A terminal's Ctrl-C goes to the whole foreground process group.
      process.kill(-(run.child.pid as number), "SIGINT");
      expect(await run.closed).toBe(3);
      expect(run.out.stderr).toMatch(RELAUNCHED);
      expect(run.out.stderr).toContain("SIGINT: stopping now");
      expect(run.out.stderr).not.toContain("SIGINT again");
    } finally {
      run.kill();
    }
  });

  it("a parent killed outright leaves no roll running: the child stops as on SIGTERM", async () => {
    const run = startApply();
    try {
      await run.rolling;
      const parent = run.child.pid as number;
      const relaunched = childrenOf(parent)[0] ?? 0;
      expect(relaunched).toBeGreaterThan(0);
      process.kill(parent, "SIGKILL");
      // The child holds the pipes too: they close when it has stopped on its own.
      await run.closed;
      while (alive(relaunched)) await new Promise((r) => setTimeout(r, 200));
      expect(run.out.stderr).toContain("the first process is gone: stopping now");
      expect(run.out.stderr).not.toContain("again: exiting now");
    } finally {
      run.kill();
    }
  });
});
