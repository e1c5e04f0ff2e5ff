// The cluster a command works on, as the application layer takes it (src/app/plan.ts): a
// sandbox world, run in its own virtual time, or a live cluster through the real adapters.
import type { Session } from "../app/plan.js";
import type { Policy } from "../policy/index.js";
import { physicsOf } from "../rehearsal/index.js";
import { connectLive } from "./live.js";
import type { HintContext } from "./hints.js";
import { loadWorld } from "./sandbox-world.js";

export type CliSession = Session & { close(): void };

/**
 * A sandbox world (built in, or a scenario file); `worlds`: how many of its size the command
 * builds (a rehearsal builds a twin). May throw HeapTooSmall before anything is changed.
 */
export function sandboxSession(scenario: string | undefined, worlds = 1): CliSession {
  const world = loadWorld(scenario, worlds);
  return {
    ports: world,
    drive: (task) => world.run(task),
    physics: physicsOf(world),
    close: () => {},
  };
}

/**
 * The policy's live cluster; `hints` learns the kubeconfig (for a hint under an error);
 * `closeOn`: every request and watch ends when it aborts.
 */
export async function liveSession(
  policy: Policy,
  kubeconfig: string | undefined,
  hints: HintContext,
  closeOn?: AbortSignal,
): Promise<CliSession> {
  if (kubeconfig) hints.kubeconfig = kubeconfig;
  const ports = await connectLive({
    clusterName: policy.cluster.name,
    region: policy.cluster.region,
    ...(kubeconfig && { kubeconfig }),
    ...(closeOn && { signal: closeOn }),
  });
  return { ports, close: () => ports.close() };
}
