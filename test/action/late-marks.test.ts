// Issue 44, defect 6, as a scheduled workflow meets it: after a run killed late left its marks
// (the cluster autoscaler kept off the new nodes), the next `schedule` run with `mode: apply`
// planned "nothing to do" and skipped the policy. It applies the policy now, to clear them.
import { afterAll, describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { loadPolicy } from "../../src/policy/index.js";
import { EventLog } from "../../src/ports/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { SCALE_DOWN_BY_US, SCALE_DOWN_DISABLED } from "../../src/plan/index.js";
import { fastDemoPolicy, runAction, serve, workspace, type Served } from "./harness.js";

let served: Served | undefined;
afterAll(() => served?.close());

describe("a scheduled run after a late kill", () => {
  it("applies the policy to clear the marks, though no node needs replacing", async () => {
    // The demo rolled to the end in-process; then the late kill's state: new nodes of ingress
    // kept from the cluster autoscaler by noderoll.
    const world = World.demo();
    const text = fastDemoPolicy();
    const loaded = loadPolicy(text, "policies/demo.yaml");
    if (!loaded.ok) throw new Error("demo policy invalid");
    const done = await world.run(
      planAndApply(loaded.policy, "policies/demo.yaml", world, new EventLog(world.clock), {
        runId: "first",
      }),
    );
    expect(done.result).toBe("success");
    const marked = world.nodes("ingress").filter((n) => !n.deleted);
    for (const n of marked)
      world.kube.patchNode(n.name, {
        annotations: { [SCALE_DOWN_DISABLED]: "true", [SCALE_DOWN_BY_US]: "killed-run" },
      });
    served = await serve(world);
    const r = await runAction({
      served,
      cwd: workspace({ "policies/demo.yaml": text }),
      event: "schedule",
      payload: { schedule: "17 3 * * 1-5" },
      sha: "3e".repeat(20),
      inputs: { policy: "policies/demo.yaml", mode: "apply" },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1 group\(s\) with marks an earlier run left .*: applying it/);
    expect(r.stdout).toMatch(
      /ingress: cleared the marks an earlier run left \(scale-down-disabled on 3\)/,
    );
    expect(r.outputs.result).toBe("success");
    for (const n of marked)
      expect(world.kube.nodes.get(n.name)?.annotations[SCALE_DOWN_BY_US]).toBeUndefined();
  });
});
