// The demo cluster rolled while both APIs turn away 60 % of calls and reset 7 % of connections:
// every group rolls, with every invariant held — where a throttled call used to end the run
// with the bare "Too many requests, please try again later.".
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../../src/policy/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { roll } from "./scenarios.js";

const HOSTILE = `
faults:
  throttle:
    - { api: kubernetes, rate: 0.6, retryAfter: 1 }
    - { api: aws, rate: 0.6, retryAfter: 1 }
  network:
    - { api: kubernetes, reset: 0.05, lostAnswer: 0.02 }
    - { api: aws, reset: 0.05, lostAnswer: 0.02 }
`;

describe("the demo under 60 % throttling and resets", () => {
  it.each([1, 2, 3])("seed %i: every group rolls, the invariants held", async (seed) => {
    const yaml = readFileSync("src/sandbox/scenarios/demo.yaml", "utf8").replace(
      /^seed: .*$/m,
      `seed: ${seed}`,
    );
    const world = World.fromYaml(yaml + HOSTILE);
    const r = loadPolicy(readFileSync("policies/demo.yaml", "utf8"), "policies/demo.yaml");
    if (!r.ok) throw new Error("demo policy invalid");
    const { result, invariants } = await roll(world, r.policy, { runId: `throttled-${seed}` });
    expect(invariants.violations).toEqual([]);
    expect(result).toMatchObject({ result: "success", message: "3 groups rolled" });
    expect(world.timeline.of("api.throttled").length).toBeGreaterThan(100);
    expect(world.timeline.of("api.fault").length).toBeGreaterThan(10);
  });
});
