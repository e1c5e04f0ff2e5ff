// `noderoll plan --policy P [--sandbox S] [--format text|markdown|json] [--detailed-exitcode]`
// Reads live state (or a sandbox world), never changes anything, prints the plan.
// Exit: 0 (no changes, or changes without --detailed-exitcode), 2 changes with
// --detailed-exitcode, 1 error (an invalid policy, a blocked or failing group, an API error).
import { parseArgs } from "node:util";
import { connectLive } from "../adapters/connect.js";
import { observeAndPlan } from "../engine/observe.js";
import { hasChanges, type OnProgress, type Plan } from "../plan/index.js";
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
  const file = values.policy as string;
  const progress = (l: string) => process.stderr.write(l);
  let plan: Plan;
  if (values.sandbox !== undefined) {
    const world = loadWorld(values.sandbox);
    const read = (onProgress: OnProgress) =>
      world.run(observeAndPlan(policy, file, world, options, onProgress));
    plan = (await withReadProgress(progress, read)).plan;
  } else {
    if (values.kubeconfig) hintContext.kubeconfig = values.kubeconfig;
    const ports = await connectLive({
      clusterName: policy.cluster.name,
      region: policy.cluster.region,
      ...(values.kubeconfig && { kubeconfig: values.kubeconfig }),
    });
    const read = (onProgress: OnProgress) =>
      observeAndPlan(policy, file, ports, options, onProgress);
    try {
      plan = (await withReadProgress(progress, read)).plan;
    } finally {
      ports.close();
    }
  }
  process.stdout.write(renderPlan(plan, values.format));
  if (plan.summary.errors > 0) return 1;
  return values["detailed-exitcode"] && hasChanges(plan) ? 2 : 0;
}
