// A drain ends by its timeout (issue 46, item 8): kubectl drain bounds the whole drain — the
// evictions and the wait for the pods to go — by one --timeout (k8s.io/kubectl/pkg/drain,
// evictPods: one context for every pod's eviction and its waitForDelete). noderoll's waited at
// least 2 minutes more for the pods to stop after the last eviction, whatever the timeout said.
// The one wait past it left is an unreachable node's (drain-wait.ts lastLook), which the plan
// estimates and README names.
import { describe, expect, it } from "vitest";
import type { RollEvent } from "../../src/ports/index.js";
import { RollError } from "../../src/roll/context.js";
import { drainNode } from "../../src/roll/drain.js";
import { cordon } from "../../src/roll/marks.js";
import { drainWorld, nodeOf, type Workloads } from "./drain-harness.js";

/** The drain's own time: from after the cordon, with a 60 s drainTimeout. */
async function timedDrain(workloads: Workloads, deleteAfterDrainTimeout: boolean) {
  const { world, ctx, events } = drainWorld(workloads);
  const node = nodeOf(world, workloads[0]!.name);
  await world.run(cordon(ctx, node, "test"));
  const start = world.clock.nowMs();
  const outcome = await world.run(
    drainNode(ctx, {
      group: "nodes",
      node,
      timeoutMs: 60_000,
      deleteAfterDrainTimeout,
      evictUnmanaged: true,
    }).catch((e: unknown) => e),
  );
  const ended = events.find((e: RollEvent) => e.type === "node.drain.end");
  return { outcome, tookMs: world.clock.nowMs() - start, ended };
}

/** Slack for the calls the drain makes at its deadline (virtual time: no machine's speed). */
const CALLS_MS = 1_000;

describe("a drain and its timeout", () => {
  it("fails at its timeout when an evicted pod is still stopping, not 2 minutes later", async () => {
    const { outcome, tookMs } = await timedDrain(
      [
        {
          kind: "Deployment",
          name: "slow",
          replicas: 1,
          terminationGracePeriod: 300,
          preStop: 240,
        },
      ],
      false,
    );
    expect(outcome).toBeInstanceOf(RollError);
    expect((outcome as RollError).message).toMatch(
      /^pods on .* did not terminate in time: default\/slow-/,
    );
    expect(tookMs).toBeGreaterThanOrEqual(60_000);
    expect(tookMs).toBeLessThanOrEqual(60_000 + CALLS_MS);
  });

  it("with deleteAfterDrainTimeout ends at its timeout too, the pods it deleted past their budget left to the termination", async () => {
    const { outcome, tookMs, ended } = await timedDrain(
      [
        {
          kind: "Deployment",
          name: "db",
          replicas: 1,
          terminationGracePeriod: 120,
          preStop: 60,
          pdb: { minAvailable: 1 },
        },
      ],
      true,
    );
    expect(outcome).not.toBeInstanceOf(Error);
    expect(ended).toMatchObject({ deleted: [expect.stringMatching(/^default\/db-/)] });
    expect(tookMs).toBeGreaterThanOrEqual(60_000);
    expect(tookMs).toBeLessThanOrEqual(60_000 + CALLS_MS);
  });
});
