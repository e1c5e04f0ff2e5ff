// Part 2 of the bench: plan a generated cluster through the sandbox's ports, in a process of its
// own (with Node's default heap: nothing raised), so each size's peak memory is its own. Read
// and compute are timed apart the way the Planner runs them (observe, a draft plan, the pods of
// the nodes to replace, the plan); the time spent inside the sandbox's port faces serving the
// reads (the API server's work) is measured too, and garbage collection per phase.
import { getHeapStatistics } from "node:v8";
import { loadPolicy } from "../../src/policy/index.js";
import { resilient } from "../../src/ports/index.js";
import { generatePolicyYaml, generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { World } from "../../src/sandbox/world/world.js";
import { generatedCluster } from "./cluster.js";
import { Phases, planInPhases } from "./phases.js";
import { requestsSince, type Requests } from "./requests.js";

export interface PlanFigures {
  nodes: number;
  pods: number;
  groups: number;
  pdbs: number;
  nodesToReplace: number;
  /** Generating and building the sandbox world. */
  buildMs: number;
  /** Reading live state through the ports, the sandbox's serving included. */
  readMs: number;
  /** Of readMs, inside the sandbox's port faces (the API server's share). */
  sandboxServeMs: number;
  /** Planning: noderoll's compute alone. */
  computeMs: number;
  gcMs: { build: number; read: number; compute: number };
  peakRssMiB: number;
  heapLimitMiB: number;
  requests: Requests;
  /** Read − sandboxServeMs + compute, of this run (the median one, where several were made). */
  noderollMs?: number;
  /** The same, of every run made of this size and heap, in the order they ran. */
  noderollMsRuns?: number[];
}

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** The same object, its methods' synchronous time (all of a sandbox face's work) added up. */
function timed<T extends object>(target: T, clock: { ms: number }): T {
  return new Proxy(target, {
    get(obj, key) {
      const value = Reflect.get(obj, key) as unknown;
      if (typeof value === "function")
        return (...args: unknown[]) => {
          const t = performance.now();
          try {
            return (value as (...a: unknown[]) => unknown).apply(obj, args);
          } finally {
            clock.ms += performance.now() - t;
          }
        };
      if (value && typeof value === "object") return timed(value, clock);
      return value;
    },
  });
}

export async function measurePlan(nodes: number): Promise<PlanFigures> {
  const phases = new Phases();
  const opts = generatedCluster(nodes);
  const r = loadPolicy(generatePolicyYaml(opts), "generated.yaml");
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  const policy = r.policy;
  const started = performance.now();
  const world = new World(generateScenario(opts));
  const built = performance.now();
  const served = { ms: 0 };
  const ports = {
    cloud: resilient(timed(world.cloud, served), world.clock),
    cluster: resilient(timed(world.cluster, served), world.clock),
    clock: world.clock,
  };
  const calls = new Map(world.calls);
  const plan = await world.run(() => planInPhases(phases, policy, ports));
  await phases.stop();
  return {
    nodes,
    pods: world.kube.pods.size,
    groups: world.scenario.nodeGroups.length,
    pdbs: [...world.kube.pdbs.values()].reduce((n, l) => n + l.length, 0),
    nodesToReplace: plan.summary.nodesToReplace,
    buildMs: Math.round(built - started),
    readMs: Math.round(phases.wall.read),
    sandboxServeMs: Math.round(served.ms),
    computeMs: Math.round(phases.wall.compute),
    gcMs: {
      build: phases.gcBetween(started, built),
      read: phases.gcIn("read"),
      compute: phases.gcIn("compute"),
    },
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapLimitMiB: mib(getHeapStatistics().heap_size_limit),
    requests: requestsSince(world.calls, calls),
  };
}
