// A rehearsal: apply, run on a twin of the live cluster before it touches anything. The twin is
// a sandbox world built from the plan's snapshot and a read of the whole cluster; the same
// engine, policy and budgets roll it in virtual time; nothing is written to the live cluster —
// the rehearsal's requests never leave the process.
import { forced, runOptions, type PlanOptions } from "../engine/index.js";
import { withRehearsal, type Plan, type Rehearsal, type Snapshot } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import { EventLog, type RollEvent, type StopReason } from "../ports/index.js";
import {
  givenTimings,
  rehearsalReport,
  RehearsalWatch,
  stoppedWhereApplyStops,
  twinScenario,
  NEVER_READY_TWIN_S,
  type LiveCluster,
} from "../rehearsal/index.js";
import { World } from "../sandbox/world/world.js";
import type { ScenarioInput } from "../sandbox/scenarios/schema.js";
import { planAndApply } from "./apply.js";
import { clearStop } from "./control.js";

/**
 * A scenario starts with every pod Ready; the pods of a workload that is not Ready live (and
 * never becomes so: its `ready` is longer than any rehearsal) start un-Ready in the twin too,
 * so the budgets that count them are as closed as they are live.
 */
function unready(world: World, scenario: ScenarioInput): void {
  for (const w of scenario.workloads ?? []) {
    if (Number(w.ready ?? 0) < NEVER_READY_TWIN_S) continue;
    const rec = world.kube.workloads.get(`${w.kind}/${w.namespace ?? "default"}/${w.name}`);
    for (const p of rec?.pods ?? []) world.kube.setPodReady(p, false);
  }
}

/** A roll that has not ended after this much virtual time is reported as such. */
const LIMIT_MS = 7 * 86_400_000;

export interface RehearseInput {
  policy: Policy;
  file: string;
  snapshot: Snapshot;
  live: LiveCluster;
  options: PlanOptions;
  /** Timings given by the policy or a flag (seconds), over the defaults and observations. */
  timings?: Partial<Record<string, number>>;
  /** A cancelled run: the twin's roll stops as apply stops on a signal. */
  signal?: AbortSignal;
  /**
   * The plan rehearsed: the twin rolls the groups apply reaches and stops where the plan says
   * apply stops (its summary's `stopsAt`).
   */
  plan?: Plan;
}

export async function rehearse(
  input: RehearseInput,
): Promise<{ rehearsal: Rehearsal; events: RollEvent[] }> {
  const twin = twinScenario(input.snapshot, input.live, input.timings);
  const world = World.from(twin.scenario);
  unready(world, twin.scenario);
  const log = new EventLog(world.clock);
  const watch = new RehearsalWatch(world);
  // Apply stops at the group the plan finds blocked or in error (plan/summary.ts), whatever the
  // twin would make of it: the twin places its pods as its own scheduler likes, and may find the
  // group clear. So the twin rolls only the groups before it, and the report stops there.
  const stop = input.plan?.summary.stopsAt;
  const reached = stop && input.plan?.groups.slice(0, stop.index).map((g) => g.name);
  const roll = () =>
    world.run(
      planAndApply(input.policy, input.file, world, log, {
        runId: "rehearsal",
        ...runOptions(input.options),
        ...(reached && { groups: reached }),
        ...(forced(input.options) && { reason: "rehearsal of a forced roll" }),
        // The rehearsal predicts the roll itself; the plan says when the window lets it run.
        ignoreWindow: true,
        ...(input.signal && { signal: input.signal }),
      }),
      LIMIT_MS,
    );
  let result = await roll();
  // A checkpoint without a delay pauses the roll until someone resumes it: the rehearsal shows
  // the pause in its timeline and goes on as if resumed at once, to rehearse the rest.
  while (atCheckpoint(result.stop) && !input.signal?.aborted) {
    await world.run(clearStop({ ports: world }, input.policy));
    result = await roll();
  }
  watch.stop();
  const rolled = rehearsalReport(world, log.events, watch, result);
  const report =
    input.plan && result.result === "success" ? stoppedWhereApplyStops(rolled, input.plan) : rolled;
  return {
    rehearsal: {
      ...report,
      timings: { values: twin.timings.values, sources: twin.timings.sources },
    },
    events: log.events,
  };
}

/** A pause a gate checkpoint asked for (kinds/self-managed/gates.ts). */
const atCheckpoint = (s: StopReason | undefined) =>
  s?.kind === "paused" &&
  s.by?.startsWith("noderoll (gates of") === true &&
  /^checkpoint /.test(s.reason ?? "");

export interface RehearseOptions {
  /** The whole cluster, read (src/rehearsal/live.ts); a sandbox's with its own physics. */
  live: LiveCluster;
  /** `k=duration` pairs from a flag (`boot=90s,podStart=20s`), over the policy's timings. */
  timings?: Record<string, string>;
  /** A cancelled run: the twin's roll stops at once. */
  signal?: AbortSignal;
}

/** The plan with its rehearsal, and the twin's event log. */
export async function rehearsePlan(
  input: { policy: Policy; file: string; plan: Plan; snapshot: Snapshot; options: PlanOptions },
  o: RehearseOptions,
): Promise<{ plan: Plan; events: RollEvent[] }> {
  const timings = {
    ...givenTimings(input.policy.rehearsal?.timings),
    ...givenTimings(o.timings),
  };
  const { rehearsal, events } = await rehearse({
    ...input,
    live: o.live,
    timings,
    ...(o.signal && { signal: o.signal }),
  });
  return { plan: withRehearsal(input.plan, rehearsal), events };
}
