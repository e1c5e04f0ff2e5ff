// A plan never contradicts itself (issue 48, item 1): when apply stops at a blocked group, the
// headline, the counts, the estimate, the gantt, the JSON summary, the terminal text and the
// apply report's node count all speak of what apply will do — the groups before it.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import type { Plan } from "../../src/plan/index.js";
import {
  emptyProgress,
  foldEvents,
  progressCheckRun,
  nodeCounts,
  planHeadline,
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
  seedFromPlan,
} from "../../src/render/index.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { policyFor, selfManagedWorld } from "../roll/scenarios.js";
import { blockedFirstPlan, rollingPlan } from "./plans.js";

/** a, b, c need a roll; a single-replica database with a budget that never allows pins b. */
async function stoppedPlan(): Promise<Plan> {
  const w = selfManagedWorld(
    [
      { name: "a", nodes: 3 },
      { name: "b", nodes: 3 },
      { name: "c", nodes: 2 },
    ],
    {
      workloads: [
        {
          kind: "Deployment",
          name: "db",
          replicas: 1,
          nodeSelector: { pool: "b" },
          pdb: { minAvailable: 1 },
        },
      ],
    } as Partial<ScenarioInput>,
  );
  const p = policyFor("order: [a, b, c]\ngroups: [{ name: a }, { name: b }, { name: c }]\n");
  return (await w.run(observeAndPlan(p, "p.yaml", w))).plan;
}

describe("a plan whose second group is blocked", () => {
  it("counts, estimates and charts only the group apply reaches, and says where it stops", async () => {
    const plan = await stoppedPlan();
    const [a, b] = plan.groups;
    expect(b!.status).toBe("blocked");
    // The JSON summary: what apply does, and where it stops.
    const json = JSON.parse(renderPlanJson(plan)) as Plan;
    expect(json.summary).toMatchObject({
      groupsToRoll: 1,
      nodesToReplace: a!.replacements.length,
      estimatedMs: a!.schedule.estimatedMs,
      blocked: 1,
      stopsAt: { group: "b", index: 1, status: "blocked", notStarted: ["c"] },
    });
    // The headline and the Terraform line under it say the same.
    expect(planHeadline(plan)).toBe(
      "Apply stops at group 2 b (blocked) after rolling a; c will not roll",
    );
    const md = renderPlanMarkdown(plan);
    expect(md).toContain("**apply stops at group 2 `b`** (blocked)");
    expect(md).toContain(`**Plan: 1 group to roll (${a!.replacements.length} nodes)`);
    // The gantt charts the groups apply reaches only.
    const chart = md.slice(
      md.indexOf("```mermaid"),
      md.indexOf("```", md.indexOf("```mermaid") + 3),
    );
    expect(chart).toContain("section a");
    expect(chart).not.toMatch(/section [bc]\b/);
    // The terminal says where apply stops too, first.
    const text = renderPlanText(plan);
    expect(text.split("\n")[2]).toBe(
      "✗ apply stops at group 2 b (blocked): c will not roll; the groups before it roll first.",
    );
    expect(text).toContain(`Plan: 1 group to roll (${a!.replacements.length} nodes)`);
    // The apply report counts the nodes apply will replace.
    const progress = seedFromPlan(emptyProgress(), plan);
    expect(nodeCounts(progress).total).toBe(plan.summary.nodesToReplace);
    expect(progress.estimatedMs).toBe(plan.summary.estimatedMs);
  });
});

describe("the window's alert", () => {
  it("says a merge now would start nothing when apply would roll something, and only then", () => {
    const md = renderPlanMarkdown(rollingPlan());
    expect(md).toContain(
      "The window is closed now: a merge before Mon 23 Nov 09:00 (Europe/Berlin) ends `skipped` without starting a node.",
    );
    // Apply stops at the first group: the caution says it starts nothing, once.
    expect(renderPlanMarkdown(blockedFirstPlan())).not.toContain("The window is closed now");
  });
});

describe("the apply report of a plan that stops", () => {
  it("counts the nodes apply replaced of those it would, and names one group not started in the singular", async () => {
    const plan = await stoppedPlan();
    const a = plan.groups[0]!;
    const t = (k: number) => new Date(Date.UTC(2026, 0, 5, 9, k)).toISOString();
    const p = foldEvents(
      [
        {
          t: t(0),
          type: "roll.start",
          cluster: "engine",
          policy: "engine",
          groups: ["a", "b", "c"],
          replaceAll: false,
          deleteAfterDrainTimeout: false,
        },
        { t: t(1), type: "group.start", group: "a", kind: "self-managed", nodes: 3, replace: 3 },
        ...a.replacements.map((r, i) => ({
          t: t(2 + i),
          type: "instance.terminate" as const,
          group: "a",
          instance: r.instance,
          decrement: false,
        })),
        { t: t(9), type: "group.end", group: "a", result: "success" },
        { t: t(10), type: "group.start", group: "b", kind: "self-managed", nodes: 3, replace: 3 },
        {
          t: t(11),
          type: "group.end",
          group: "b",
          result: "failure",
          message: "PodEvictionFailure: not started, it would fail",
        },
        {
          t: t(12),
          type: "roll.end",
          result: "failure",
          message: "PodEvictionFailure: not started, it would fail.",
        },
      ],
      plan,
    );
    expect(progressCheckRun(p).output.title).toBe(
      `Failed ${a.replacements.length}/${plan.summary.nodesToReplace} nodes: blocked at b; 1 group not started`,
    );
  });
});
