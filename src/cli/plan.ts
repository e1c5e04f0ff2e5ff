// `noderoll plan --policy P [--sandbox S] [--format text|markdown|json] [--detailed-exitcode]
//   [--rehearse [--rehearse-events FILE] [--rehearse-timing boot=90s,…]]`
// Reads live state (or a sandbox world), never changes anything, prints the plan; with
// --rehearse, also what the roll does on a twin of the cluster (docs/rehearsal.md).
// Exit: 0 (no changes, or changes without --detailed-exitcode), 2 changes with
// --detailed-exitcode, 1 error (an invalid policy, a blocked or failing group, an API error).
import { parseArgs } from "node:util";
import { connectLive } from "./live.js";
import { observeAndPlan } from "../engine/observe.js";
import { writeFileSync } from "node:fs";
import type { PlanOptions } from "../engine/index.js";
import { hasChanges, type OnProgress, type Plan, type Snapshot } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { Clock, Cloud, Cluster } from "../ports/index.js";
import {
  parseTimingFlag,
  physicsOf,
  readLiveCluster,
  rehearsePlan,
  type LiveCluster,
} from "../rehearsal/index.js";
import { renderPlanJson, renderPlanMarkdown, renderPlanText } from "../render/index.js";
import { groupsOf, hintContext, policyOrExit, UsageError } from "./args.js";
import { withReadProgress } from "../adapters/read-progress.js";
import { loadWorld } from "./sandbox-world.js";

export const PLAN_OPTIONS = {
  policy: { type: "string" },
  sandbox: { type: "string" },
  kubeconfig: { type: "string" },
  format: { type: "string", default: "text" },
  "detailed-exitcode": { type: "boolean", default: false },
  groups: { type: "string" },
  force: { type: "boolean", default: false },
  rehearse: { type: "boolean", default: false },
  "rehearse-events": { type: "string" },
  "rehearse-timing": { type: "string" },
} as const;

export function renderPlan(plan: Plan, format: string): string {
  if (format === "json") return renderPlanJson(plan);
  if (format === "markdown") return `${renderPlanMarkdown(plan)}\n`;
  return renderPlanText(plan);
}

export async function runPlan(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: PLAN_OPTIONS });
  if (!["text", "markdown", "json"].includes(values.format))
    throw new UsageError(`--format must be text, markdown or json, not ${values.format}`);
  const loaded = policyOrExit(values.policy);
  if ("exitCode" in loaded) return loaded.exitCode;
  const { policy } = loaded;
  const groups = groupsOf(policy, values.groups);
  const options = { force: values.force, ...(groups && { groups }) };
  const rehearsal = rehearseOptions(values);
  const plan =
    values.sandbox !== undefined
      ? await planSandbox(policy, values.policy as string, values.sandbox, options, rehearsal)
      : await planLive(policy, values.policy as string, values.kubeconfig, options, rehearsal);
  process.stdout.write(renderPlan(plan, values.format));
  if (plan.summary.errors > 0) return 1;
  return values["detailed-exitcode"] && hasChanges(plan) ? 2 : 0;
}

type Rehearsing = { timings?: Record<string, string>; events?: string } | undefined;

/** --rehearse and its flags, checked before anything is read. */
function rehearseOptions(values: {
  rehearse?: boolean;
  "rehearse-events"?: string;
  "rehearse-timing"?: string;
}): Rehearsing {
  if (!values.rehearse) {
    if (values["rehearse-events"] || values["rehearse-timing"])
      throw new UsageError("--rehearse-events and --rehearse-timing go with --rehearse");
    return undefined;
  }
  const timings = values["rehearse-timing"] ? parseTimingFlag(values["rehearse-timing"]) : {};
  if (typeof timings === "string") throw new UsageError(`--rehearse-timing: ${timings}`);
  return { timings, ...(values["rehearse-events"] && { events: values["rehearse-events"] }) };
}

async function rehearsed(
  ports: { cloud: Cloud; cluster: Cluster; clock: Clock },
  policy: Policy,
  file: string,
  planned: { plan: Plan; snapshot: Snapshot },
  options: PlanOptions,
  r: NonNullable<Rehearsing>,
  sandbox?: { physics: ReturnType<typeof physicsOf>; live: LiveCluster },
): Promise<Plan> {
  const { plan, events } = await rehearsePlan(
    ports,
    { policy, file, ...planned, options },
    { ...(r.timings && { timings: r.timings }), ...sandbox },
  );
  if (r.events) writeFileSync(r.events, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  return plan;
}

const progress = (l: string) => process.stderr.write(l);

async function planSandbox(
  policy: Policy,
  file: string,
  scenario: string,
  options: PlanOptions,
  r: Rehearsing,
): Promise<Plan> {
  const world = loadWorld(scenario, r ? 2 : 1);
  const read = (onProgress: OnProgress) =>
    world.run(observeAndPlan(policy, file, world, options, onProgress));
  const planned = await withReadProgress(progress, read);
  if (!r) return planned.plan;
  // The sandbox is read in its own virtual time; the twin then runs in its own.
  const live = await world.run(readLiveCluster(world));
  return rehearsed(world, policy, file, planned, options, r, {
    physics: physicsOf(world),
    live,
  });
}

async function planLive(
  policy: Policy,
  file: string,
  kubeconfig: string | undefined,
  options: PlanOptions,
  r: Rehearsing,
): Promise<Plan> {
  if (kubeconfig) hintContext.kubeconfig = kubeconfig;
  const ports = await connectLive({
    clusterName: policy.cluster.name,
    region: policy.cluster.region,
    ...(kubeconfig && { kubeconfig }),
  });
  const read = (onProgress: OnProgress) => observeAndPlan(policy, file, ports, options, onProgress);
  try {
    const planned = await withReadProgress(progress, read);
    return r ? await rehearsed(ports, policy, file, planned, options, r) : planned.plan;
  } finally {
    ports.close();
  }
}
