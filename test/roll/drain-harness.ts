// One drain on a sandbox world, as the drain tests make it (drain-hostile, drain-timeout, and
// the translations of kubectl's drain tests in test/outside/): a plain group's world with the
// given workloads, a roll context over it, and a drain called as the window calls it.
import { EventLog } from "../../src/ports/index.js";
import { RunState, type RollContext } from "../../src/roll/context.js";
import { drainNode, type DrainResult } from "../../src/roll/drain.js";
import { cordon } from "../../src/roll/marks.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { plainScenario } from "../sandbox/helpers.js";

export type Workloads = NonNullable<ScenarioInput["workloads"]>;

/** The world, a context over it (its abort controller, to cancel), and the events emitted. */
export function drainWorld(workloads: Workloads, extra: Partial<ScenarioInput> = {}, nodes = 3) {
  const world = World.from(plainScenario(workloads, nodes, extra));
  const log = new EventLog(world.clock);
  const abort = new AbortController();
  const ctx: RollContext = {
    cloud: world.cloud,
    cluster: world.cluster,
    clock: world.clock,
    emit: log.emit,
    signal: abort.signal,
    state: new RunState(),
  };
  return { world, ctx, events: log.events, abort };
}

/** The node a workload's first pod runs on. */
export const nodeOf = (world: World, workload: string) =>
  [...world.workload(workload).pods][0]!.nodeName as string;

/** Cordon, then drain `node`; the result, or what it threw. By default as the policy's defaults
 * drain: unmanagedPods: evict (as kOps drains), no deleteAfterDrainTimeout, 10 minutes. */
export async function cordonAndDrain(
  world: World,
  ctx: RollContext,
  node: string,
  o: { timeoutMs?: number; deleteAfterDrainTimeout?: boolean; evictUnmanaged?: boolean } = {},
): Promise<DrainResult | unknown> {
  await world.run(cordon(ctx, node, "test"));
  return world.run(
    drainNode(ctx, {
      group: "nodes",
      node,
      timeoutMs: o.timeoutMs ?? 600_000,
      deleteAfterDrainTimeout: o.deleteAfterDrainTimeout ?? false,
      evictUnmanaged: o.evictUnmanaged ?? true,
    }).catch((e: unknown) => e),
  );
}

/** The cluster with one method replaced. */
export function withMethod<K extends keyof RollContext["cluster"]>(
  cluster: RollContext["cluster"],
  name: K,
  fn: RollContext["cluster"][K],
): RollContext["cluster"] {
  return new Proxy(cluster, {
    get: (target, key) => {
      if (key === name) return fn;
      const v = Reflect.get(target, key) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
