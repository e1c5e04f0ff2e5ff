// The rehearsal with health gates (issue 47): its timeline has the bakes and the checkpoints — a
// checkpoint's pause shown and the rest rehearsed as if resumed at once, each group in one row.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { rehearse } from "../../src/app/rehearse.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { loadPolicy } from "../../src/policy/index.js";
import { physicsOf, readLiveCluster } from "../../src/rehearsal/live.js";
import { World } from "../../src/sandbox/world/world.js";

const text = readFileSync("policies/demo.yaml", "utf8").replace(
  /^defaults:/m,
  'defaults:\n  gates: { bake: 2m, checkpoints: ["50%"] }',
);
const loaded = loadPolicy(text, "demo.yaml");
if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("\n"));

describe("a rehearsal with bakes and checkpoints", () => {
  it("shows the checkpoints' pauses and rehearses the whole roll, one row a group", async () => {
    const live = World.demo();
    const { snapshot } = await live.run(observeAndPlan(loaded.policy, "demo.yaml", live));
    const state = { ...(await live.run(readLiveCluster(live))), physics: physicsOf(live) };
    const { rehearsal, events } = await rehearse({
      policy: loaded.policy,
      file: "demo.yaml",
      snapshot,
      live: state,
      options: {},
    });
    expect(rehearsal.result).toBe("success");
    expect(rehearsal.groups.map((g) => [g.group, g.result])).toEqual([
      ["system", "success"],
      ["ingress", "success"],
      ["workers", "success"],
    ]);
    // Each self-managed group paused at its checkpoint and went on; every wave was baked.
    const paused = events.filter((e) => e.type === "roll.end" && e.stop?.kind === "paused");
    expect(paused).toHaveLength(2);
    const bakes = events.filter((e) => e.type === "wait.start" && /^bake/.test(e.what));
    expect(bakes.length).toBeGreaterThan(3);
  });
});
