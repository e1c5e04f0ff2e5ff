// A roll's trace for the critical-path split (critical-path.ts), from the two records the
// sandbox keeps: the engine's event log (drains, terminations, validations) and the world's
// timeline (instances launched, nodes registered, Ready, cordoned, deleted).
import type { GroupPlan } from "../../src/plan/index.js";
import { rollWindow } from "../../src/policy/index.js";
import type { RollEvent } from "../../src/ports/index.js";
import { VALIDATION_PERIOD_MS } from "../../src/roll/validate.js";
import type { World } from "../../src/sandbox/world/world.js";
import type { NodeSpan, RollTrace } from "./critical-path.js";

/** What is known of the group just before the roll. */
export interface Before {
  start: number;
  /** The group's nodes, all Ready before the roll. */
  nodes: string[];
  desired: number;
}

export function snapshotBefore(world: World, group: string): Before {
  return {
    start: world.clock.nowMs(),
    nodes: world.nodes(group).map((n) => n.name),
    desired: world.sizes(group).desired,
  };
}

function spans(world: World, group: string, b: Before, replaced: Set<string>) {
  const byName = new Map<string, NodeSpan>();
  const span = (name: string) => {
    let s = byName.get(name);
    if (!s) byName.set(name, (s = { name, replaced: replaced.has(name) }));
    return s;
  };
  for (const name of b.nodes) span(name).ready = -Infinity;
  const nodeOf = (instance: unknown) => world.ec2.instances.get(instance as string)?.nodeName;
  for (const e of world.timeline.events) {
    if (e.at < b.start) continue;
    const node = (e.node as string | undefined) ?? nodeOf(e.instance);
    if (!node || (e.group !== group && !byName.has(node))) continue;
    const s = span(node);
    if (e.type === "instance.launch") s.launched ??= e.at;
    else if (e.type === "node.register") s.registered ??= e.at;
    else if (e.type === "node.ready") s.ready ??= e.at;
    else if (e.type === "node.notready" && s.ready !== undefined) s.notReady ??= e.at;
    else if (e.type === "node.cordon") s.cordoned ??= e.at;
    else if (e.type === "node.delete") s.deleted ??= e.at;
  }
  return { byName, nodeOf };
}

/** The trace of one group's roll: its nodes over the roll, the engine's sleeps between validations. */
export function traceOf(
  world: World,
  plan: GroupPlan,
  events: RollEvent[],
  b: Before,
  end: number,
): RollTrace {
  const group = plan.name;
  const replaced = new Set(plan.replacements.flatMap((r) => (r.node ? [r.node] : [])));
  const { byName, nodeOf } = spans(world, group, b, replaced);
  const at = (e: RollEvent) => Date.parse(e.t);
  const intervalMs = plan.settings?.intervalMs ?? 0;
  const validations: number[] = [];
  for (const e of events) {
    if (e.group !== group) continue;
    if (e.type === "node.drain.end") {
      const s = byName.get(e.node);
      if (s) s.drainEnd ??= at(e);
    } else if (e.type === "instance.terminate") {
      const s = byName.get(nodeOf(e.instance) ?? "");
      if (s && s.terminated === undefined) {
        s.terminated = at(e);
        s.intervalEnd = at(e) + intervalMs;
      }
    } else if (e.type === "validation") validations.push(at(e));
  }
  // Consecutive validations one period apart: the engine slept between them.
  const validationGaps: [number, number][] = [];
  for (let i = 1; i < validations.length; i++) {
    const [a, c] = [validations[i - 1] as number, validations[i] as number];
    if (c - a === VALIDATION_PERIOD_MS) validationGaps.push([a, c]);
  }
  return {
    start: b.start,
    end,
    window: rollWindow(plan.budgets),
    floor: b.desired - plan.budgets.maxUnavailable,
    nodes: [...byName.values()],
    validationGaps,
  };
}
