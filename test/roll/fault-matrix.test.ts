// The hostile-world matrix: each fault family × each engine × a crash in the middle and a resume.
// For every cell: an uninterrupted roll is counted; a fresh world's run is killed halfway
// through its events; then runs follow, as a person would rerun apply, until one succeeds.
// Every run must end by itself (never a hang: virtual time is bounded), in success or in a
// failure that names what failed; the invariants hold after every event of every run; the
// last run leaves the cluster converged with nothing of noderoll's behind; and the fault was
// actually played, many times.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { crashAtEvent } from "./crash.js";
import {
  checkedRun,
  ENGINES,
  FAMILIES,
  faultsPlayed,
  initialPlan,
  leftovers,
  NAMED,
  type Engine,
  type Family,
} from "./hostile.js";

/** Runs allowed after the crash before the test says the roll does not converge. */
const RERUNS = 6;

export async function cell(engine: Engine, family: Family, seed?: number): Promise<string[]> {
  const problems: string[] = [];
  const whole = engine.world(family.faults, seed);
  const first = await checkedRun(whole, engine, await initialPlan(whole, engine), whole, {
    runId: "whole",
  });
  problems.push(...first.violations.map((v) => `uninterrupted run: ${v}`));
  if (first.result?.result !== "success" && !NAMED.test(first.result?.message ?? ""))
    problems.push(`uninterrupted run ended unnamed: ${first.result?.message}`);

  const world = engine.world(family.faults, seed);
  const plan = await initialPlan(world, engine);
  const dying = crashAtEvent(world, Math.max(1, Math.ceil(first.events / 2)));
  const killed = await checkedRun(
    world,
    engine,
    plan,
    dying.ports,
    { runId: "dies" },
    dying.onEvent,
    dying.died,
  );
  problems.push(...killed.violations.map((v) => `killed run: ${v}`));
  let last = killed.result;
  for (let n = 1; n <= RERUNS && last?.result !== "success"; n++) {
    const next = await checkedRun(world, engine, plan, world, { runId: `rerun-${n}` });
    problems.push(...next.violations.map((v) => `rerun ${n}: ${v}`));
    last = next.result;
    if (last?.result !== "success" && !NAMED.test(last?.message ?? ""))
      problems.push(`rerun ${n} ended unnamed: ${last?.message}`);
  }
  if (last?.result !== "success") problems.push(`no success in ${RERUNS} reruns: ${last?.message}`);
  // Terminated instances' nodes go a little after the roll ends.
  await world.advance(10 * 60_000);
  problems.push(...leftovers(world));
  const again = await world.run(observeAndPlan(engine.policy, "p.yaml", world));
  const left = again.plan.summary.nodesToReplace;
  if (left > 0) problems.push(`${left} nodes still to replace`);
  const played = faultsPlayed(whole) + faultsPlayed(world);
  if (played < 3) problems.push(`the fault was played only ${played} times`);
  return problems;
}

describe("a hostile world: every fault family × every engine × a crash and resume", () => {
  for (const engine of ENGINES)
    it.each(FAMILIES)(`${engine.name}: $name`, async (family) => {
      expect(await cell(engine, family)).toEqual([]);
    });
});
