// Part 2, over the wire: the plan of a generated cluster as a user's run makes it against a real
// cluster, with the sandbox in a process of its own behind its HTTP faces (`sandbox serve`:
// Kubernetes over TLS, EKS, Auto Scaling and EC2) and noderoll in this one, reading through its
// real adapters (connectLive: raw HTTP and JSON for Kubernetes, the AWS SDK for AWS). Unlike the
// in-process row, noderoll's heap holds only noderoll's objects, as on a runner, and every
// byte it reads is parsed from a response; this process's peak memory is noderoll's alone.
//
// noderoll's own read time is the CPU time of its main thread while the read runs: all of its
// work (receiving, parsing, building its snapshot, the collector's pauses) happens there, and
// what is left of the read's wall time is waiting — on the server, which here shares the
// machine's two cores with noderoll (its main thread's CPU time is reported, and every thread's
// of both processes). Against a real API server that wait is the server's and the network's.
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { connectLive } from "../../src/adapters/connect.js";
import { loadPolicy } from "../../src/policy/index.js";
import { resilient } from "../../src/ports/index.js";
import { generatePolicyYaml, generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { serveSandbox } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { generatedCluster } from "./cluster.js";
import { Phases, planInPhases, processCpuMs, threadCpuMs } from "./phases.js";
import { requestsSince, type Requests } from "./requests.js";

export interface WirePlanFigures {
  nodes: number;
  pods: number;
  nodesToReplace: number;
  /** Generating and building the sandbox world, in the server's process. */
  buildMs: number;
  /** Reading live state through the real adapters: wall time, the server's work included. */
  readMs: number;
  /** Of readMs, the server's main-thread CPU time (the API server's share). */
  serverMs: number;
  /** Of readMs, noderoll's main-thread CPU time (parsing, building its snapshot, its GC). */
  readCpuMs: number;
  /** Planning: noderoll's compute alone. */
  computeMs: number;
  /** CPU time of every thread (V8's collector's helpers too), during the read: noderoll's, the server's. */
  readProcessCpuMs: { noderoll: number; server: number };
  /** readCpuMs + computeMs: noderoll's own time. */
  noderollMs: number;
  /** The same, of every run made of this size, in the order they ran (where several were). */
  noderollMsRuns?: number[];
  gcMs: { read: number; compute: number };
  /** This process's: noderoll's alone. */
  peakRssMiB: number;
  heapLimitMiB: number;
  /** Of the server's process (the sandbox world and its serving). */
  serverPeakRssMiB: number;
  requests: Requests;
}

interface ServerUsage {
  cpuMs: number;
  processCpuMs: number;
  peakRssMiB: number;
  calls: [string, number][];
}

type FromServer =
  | { ready: { env: Record<string, string>; buildMs: number; pods: number } }
  | { usage: ServerUsage };

/** The server's side, in its own process: build the world, serve it, answer for its usage. */
export async function servePlanWorld(nodes: number, kubeconfigPath: string): Promise<void> {
  const t = performance.now();
  const world = new World(generateScenario(generatedCluster(nodes)));
  const buildMs = Math.round(performance.now() - t);
  // Time stands still: a plan's read waits on nothing, and no timer may run between pages.
  const server = await serveSandbox(world, { speed: 0, instant: false, kubeconfigPath });
  const send = (m: FromServer) => process.send?.(m);
  process.on("message", (m: string) => {
    if (m === "usage")
      send({
        usage: {
          cpuMs: threadCpuMs(),
          processCpuMs: processCpuMs(),
          peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
          calls: [...world.calls],
        },
      });
    if (m === "close") void server.close().then(() => process.exit(0));
  });
  send({ ready: { env: server.env, buildMs, pods: world.kube.pods.size } });
}

/** The next message of `child` that has `key`. */
function next<K extends string>(
  child: ChildProcess,
  key: K,
): Promise<Extract<FromServer, Record<K, unknown>>[K]> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromServer) => {
      if (!(key in m)) return;
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve((m as unknown as Record<K, never>)[key]);
    };
    const onExit = (code: number | null) => reject(new Error(`sandbox server exited (${code})`));
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

/** The server's usage now (asked after the listener is on, so the answer is not missed). */
function usage(child: ChildProcess): Promise<ServerUsage> {
  const answer = next(child, "usage");
  child.send("usage");
  return answer;
}

export async function measurePlanWire(nodes: number): Promise<WirePlanFigures> {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-bench-wire-"));
  const kubeconfig = join(dir, "kubeconfig");
  const child = fork(process.argv[1] as string, ["serve-plan", String(nodes), kubeconfig], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    execArgv: [],
  });
  try {
    const ready = await next(child, "ready");
    Object.assign(process.env, ready.env);
    return {
      ...(await planOverWire(nodes, child, kubeconfig)),
      buildMs: ready.buildMs,
      pods: ready.pods,
    };
  } finally {
    child.send("close");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function planOverWire(
  nodes: number,
  server: ChildProcess,
  kubeconfig: string,
): Promise<Omit<WirePlanFigures, "buildMs" | "pods">> {
  const r = loadPolicy(generatePolicyYaml(generatedCluster(nodes)), "generated.yaml");
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  const policy = r.policy;
  const live = await connectLive({
    clusterName: policy.cluster.name,
    region: policy.cluster.region,
    kubeconfig,
  });
  const phases = new Phases();
  const ports = {
    cloud: resilient(live.cloud, live.clock),
    cluster: resilient(live.cluster, live.clock),
    clock: live.clock,
  };
  const before = await usage(server);
  let plan;
  try {
    plan = await planInPhases(phases, policy, ports);
  } finally {
    live.close();
  }
  const after = await usage(server);
  await phases.stop();
  const serverMs = after.cpuMs - before.cpuMs;
  return {
    nodes,
    nodesToReplace: plan.summary.nodesToReplace,
    readMs: Math.round(phases.wall.read),
    serverMs: Math.round(serverMs),
    readCpuMs: Math.round(phases.threadCpu.read),
    computeMs: Math.round(phases.wall.compute),
    readProcessCpuMs: {
      noderoll: Math.round(phases.processCpu.read),
      server: Math.round(after.processCpuMs - before.processCpuMs),
    },
    noderollMs: Math.round(phases.threadCpu.read + phases.wall.compute),
    gcMs: { read: phases.gcIn("read"), compute: phases.gcIn("compute") },
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapLimitMiB: Math.round(getHeapStatistics().heap_size_limit / 1024 / 1024),
    serverPeakRssMiB: after.peakRssMiB,
    requests: requestsSince(new Map(after.calls), new Map(before.calls)),
  };
}
