// What apply says agrees with the plan it carries out (issue 48, items 1 and 4): the groups it
// counts as rolled and as not started are the plan's (a group with nothing to change is neither),
// and its ETA is the plan's estimate of what it will do — the groups before the one it stops at —
// less what is done, a drain held under deleteAfterDrainTimeout counted once, and an EKS update
// counting down while EKS says nothing per node. The policies/mixed.yaml example, rolled in
// virtual time on its sandbox; the status line read at moments between the events.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../../src/policy/index.js";
import type { RollEvent } from "../../src/ports/index.js";
import {
  applyEvent,
  emptyProgress,
  foldEvents,
  progressCheckRun,
  renderPlanMarkdown,
  renderPlanText,
  renderProgressMarkdown,
  roughly,
  seedFromPlan,
  statusLine,
} from "../../src/render/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { roll, type Rolled } from "../roll/scenarios.js";

const MIN = 60_000;

/** The mixed example's cluster; `blocked`: a budget that never allows pins ingress-a's pods. */
function mixedWorld(blocked: boolean): World {
  let yaml = readFileSync("policies/sandbox/mixed.yaml", "utf8");
  if (blocked) {
    yaml = yaml.replace(
      "      - { version: 4, count: 1 }\n    labels: { role: ingress }",
      "      - { version: 4, count: 1 }\n    labels: { role: ingress, pool: a }",
    );
    yaml += `  - kind: Deployment
    name: gate
    replicas: 2
    nodeSelector: { pool: a }
    pdb: { maxUnavailable: 0 }
`;
  }
  return World.fromYaml(yaml);
}

async function rollMixed(blocked: boolean, forced = false): Promise<Rolled> {
  const r = loadPolicy(readFileSync("policies/mixed.yaml", "utf8"), "policies/mixed.yaml");
  if (!r.ok) throw new Error("policies/mixed.yaml invalid");
  return roll(mixedWorld(blocked), r.policy, {
    ...(forced && { deleteAfterDrainTimeout: true, reason: "x" }),
  });
}

/** The ETA on a status line, in ms ("~12m30s", "~1h3m"). */
function eta(line: string): number {
  const m = /ETA ~(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?/.exec(line);
  if (!m) throw new Error(`no ETA in: ${line}`);
  return (Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * MIN + Number(m[3] ?? 0) * 1000;
}

/**
 * The status line every `stepMs` of the roll, `at` ms after its start: the events up to then
 * folded into the progress the terminal seeds from the plan.
 */
function linesOverTime(rolled: Rolled, stepMs: number): { at: number; line: string }[] {
  const p = seedFromPlan(emptyProgress(), rolled.plan);
  const events = rolled.events.filter((e) => e.type !== "roll.end");
  const start = Date.parse(events[0]!.t);
  const end = Date.parse(rolled.events.at(-1)!.t);
  const out: { at: number; line: string }[] = [];
  let next = 0;
  for (let t = start; t < end; t += stepMs) {
    while (next < events.length && Date.parse(events[next]!.t) <= t)
      applyEvent(p, events[next++] as RollEvent);
    out.push({ at: t - start, line: statusLine(p, new Date(t)) });
  }
  return out;
}

describe("the mixed example rolled: the counts are the plan's", () => {
  it("3 groups rolled — the plan's 3 to roll — in the result, the check run and the comment", async () => {
    const rolled = await rollMixed(false);
    expect(rolled.plan.summary.groupsToRoll).toBe(3);
    expect(rolled.result).toMatchObject({ result: "success", message: "3 groups rolled" });
    const p = foldEvents(rolled.events, rolled.plan);
    expect(progressCheckRun(p).output.title).toBe("Rolled 13/13 nodes: 3 groups rolled");
    expect(renderProgressMarkdown(p)).toContain("\n- 3 groups rolled\n");
  });

  it("blocked at ingress-a: only batch is not started (ingress-b has nothing to change), and the ETA is the plan's cut there", async () => {
    const rolled = await rollMixed(true);
    const { plan, result } = rolled;
    expect(plan.summary.stopsAt).toMatchObject({ group: "ingress-a", notStarted: ["batch"] });
    expect(result.message).toMatch(
      / Not started after it: batch \(apply stops at the first group that fails\)\.$/,
    );
    const p = foldEvents(rolled.events, plan);
    expect(progressCheckRun(p).output.title).toBe(
      "Failed 6/6 nodes: blocked at ingress-a; 1 group not started",
    );
    const md = renderProgressMarkdown(p);
    expect(md).toMatch(/\| `ingress-b` \|.*\| no change \|\n/);
    expect(md).toMatch(/\| `batch` \|.*\| not started \|\n/);
    // At the start the ETA is the plan's estimate: system alone, not the groups never reached.
    expect(roughly(plan.summary.estimatedMs)).toBe("~8m35s");
    const first = linesOverTime(rolled, 1000)[0]!.line;
    expect(first).toContain(" · ETA ~8m35s");
  });

  it("the plan's group line and section heading say a group past the stop is not reached", async () => {
    const { plan } = await rollMixed(true);
    const text = renderPlanText(plan);
    expect(text).toContain(
      "\n4. batch (self-managed Auto Scaling group, node): roll · not reached\n",
    );
    expect(text).toContain("\n3. ingress-b (self-managed Auto Scaling group, node): no change\n");
    const md = renderPlanMarkdown(plan);
    expect(md).toContain(
      "\n#### 4. `batch` · self-managed Auto Scaling group · 🔄 roll · not reached\n",
    );
    expect(md).toContain("\n#### 2. `ingress-a` · self-managed Auto Scaling group · ⛔ blocked\n");
  });
});

describe("the ETA of the mixed example", () => {
  it("counts down through an EKS update that says nothing per node for minutes", async () => {
    const rolled = await rollMixed(false);
    const terminated = rolled.events.find(
      (e) => e.type === "instance.terminate" && e.group === "system",
    )!;
    const quiet = Date.parse(terminated.t) - Date.parse(rolled.events[0]!.t);
    expect(quiet).toBeGreaterThan(3 * MIN);
    const samples = linesOverTime(rolled, 30_000).filter((s) => s.at < quiet);
    const etas = samples.map((s) => eta(s.line));
    expect(etas[0]).toBe(eta(` · ETA ${roughly(rolled.plan.summary.estimatedMs)}`));
    // Every half minute less than the one before, until the first node EKS replaced is seen.
    for (let i = 1; i < etas.length; i++)
      expect(etas[i], samples[i]!.line).toBeLessThan(etas[i - 1]!);
  });

  it("forced past a budget that holds two drains: the held waits are the plan's, counted once", async () => {
    const rolled = await rollMixed(true, true);
    expect(rolled.result.result).toBe("success");
    const estimate = rolled.plan.summary.estimatedMs;
    // The plan counts each held drain's timeout already.
    expect(estimate).toBeGreaterThan(45 * MIN);
    const samples = linesOverTime(rolled, 30_000);
    const held = samples.filter((s) => s.line.includes("holds a drain"));
    expect(held.length).toBeGreaterThan(20);
    // ETA and time spent never say the roll takes longer than the plan (a minute for rounding),
    // where a held wait counted twice said 15 minutes more.
    for (const s of samples) expect(s.at + eta(s.line), s.line).toBeLessThanOrEqual(estimate + MIN);
  });
});
