// The health gates' part of the roll bench (issue 47): what reading them costs — requests per gate
// per 30 s of roll time, on the roll of part 3 with an alarm and a Prometheus gate that stay
// green — and how soon a bad release stops the roll: on a generated self-managed group whose new
// launch template raises the error ratio and fires a CloudWatch alarm once a workload pod runs on
// it, the virtual seconds from the alarm to the roll's last cordon.
import { apply } from "../../src/engine/apply.js";
import { loadPolicy, type Policy } from "../../src/policy/index.js";
import { EventLog, type RollEvent } from "../../src/ports/index.js";
import { GATE_PERIOD_MS } from "../../src/roll/gates.js";
import { generateScenario } from "../../src/sandbox/scenarios/generate.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { World } from "../../src/sandbox/world/world.js";
import { observeAndPlan } from "../../src/engine/index.js";

/** The gates the bench's roll reads: an alarm and a Prometheus query, each one request a read. */
export const BENCH_GATES =
  'gates: { alarms: [bench-5xx], prometheus: [{ name: error-rate, address: "http://prometheus.bench:9090", query: "sandbox:error_ratio", failAbove: 0.05 }] }';

export interface GateCost {
  /** DescribeAlarms calls (all the alarms in one) per 30 s of roll time. */
  alarmReadsPer30s: number;
  /** Prometheus queries per Prometheus gate per 30 s of roll time. */
  queriesPer30s: number;
  /** The shortest virtual time between two readings of one gate, in seconds. */
  shortestGapSeconds: number;
}

/** The shortest time between two readings of the same gate (gate.verdict events). */
function shortestGap(events: readonly RollEvent[]): number {
  const last = new Map<string, number>();
  let gap = Infinity;
  for (const e of events) {
    if (e.type !== "gate.verdict") continue;
    const key = `${e.group}/${e.gate}`;
    const t = Date.parse(e.t);
    const before = last.get(key);
    if (before !== undefined) gap = Math.min(gap, t - before);
    last.set(key, t);
  }
  return Math.round(gap / 1000);
}

/** The requests the gates made over a roll of `virtualMs`. */
export function gateCost(
  calls: Map<string, number>,
  since: Map<string, number>,
  virtualMs: number,
  events: readonly RollEvent[],
): GateCost {
  const periods = Math.max(1, virtualMs / GATE_PERIOD_MS);
  const of = (k: string) => (calls.get(k) ?? 0) - (since.get(k) ?? 0);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    alarmReadsPer30s: round(of("cloudwatch.describeAlarms") / periods),
    queriesPer30s: round(of("prometheus.query") / periods),
    shortestGapSeconds: shortestGap(events),
  };
}

/** The bench scenario with the gates' signals: an alarm, green unless a release is bad. */
export function withSignals(
  s: ScenarioInput,
  bad?: { group: string; version: number },
): ScenarioInput {
  return {
    ...s,
    alarms: [{ name: "bench-5xx", follows: "badRelease" }],
    ...(bad && {
      faults: {
        ...s.faults,
        badRelease: [{ group: bad.group, launchTemplateVersion: bad.version, effect: "errors" }],
      },
    }),
  } as ScenarioInput;
}

export interface HaltFigures {
  nodes: number;
  result: string;
  /** Virtual seconds from the alarm's ALARM to the last cordon the roll made (≤ 0: none after). */
  alarmToLastCordonSeconds: number;
  /** Virtual seconds from the alarm to the failing verdict. */
  alarmToVerdictSeconds: number;
  cordoned: number;
}

export async function measureHalt(nodes: number): Promise<HaltFigures> {
  const base = generateScenario({
    nodes,
    groups: 1,
    podsPerNode: 30,
    seed: 2,
    kind: "self-managed",
  });
  const group = base.nodeGroups[0]?.name as string;
  // The generated group launches from its template's latest version, 4 (generate.ts).
  const world = World.from(withSignals(base, { group, version: 4 }));
  const r = loadPolicy(
    `apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: bench }\ncluster: { name: ${base.cluster.name}, region: eu-west-1 }\ndefaults: { maxSurge: ${Math.max(1, Math.round(nodes / 10))}, maxUnavailable: 0, postDrainDelay: 5s, interval: 15s, validation: { count: 1 }, gates: { alarms: [bench-5xx] } }\ngroups:\n  - { name: ${group}, target: { launchTemplateVersion: $Latest } }\n`,
    "bench.yaml",
  );
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  const policy: Policy = r.policy;
  const { plan } = await world.run(observeAndPlan(policy, "bench.yaml", world));
  const log = new EventLog(world.clock);
  const result = await world.run(
    apply(policy, plan, world, log, { runId: "bench-halt" }),
    30 * 24 * 3600_000,
  );
  const fired = world.timeline.of("alarm.state").find((e) => e.to === "ALARM")?.at ?? NaN;
  const cordons = log.events.filter((e) => e.type === "node.cordon").map((e) => Date.parse(e.t));
  const verdict = log.events.find((e) => e.type === "gate.verdict" && e.verdict === "fail");
  return {
    nodes,
    result: `${result.result}: ${result.message.slice(0, 80)}`,
    alarmToLastCordonSeconds: Math.round((Math.max(...cordons) - fired) / 1000),
    alarmToVerdictSeconds: verdict ? Math.round((Date.parse(verdict.t) - fired) / 1000) : NaN,
    cordoned: cordons.length,
  };
}
