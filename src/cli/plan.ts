// `noderoll plan --policy P [--sandbox S] [--format text|markdown|json] [--detailed-exitcode]
//   [--rehearse [--rehearse-events FILE] [--rehearse-timing boot=90s,…]]`
// Reads live state (or a sandbox world), never changes anything, prints the plan; with
// --rehearse, also what the roll does on a twin of the cluster (docs/rehearsal.md).
// Exit: 0 (no changes, or changes without --detailed-exitcode), 2 changes with
// --detailed-exitcode, 1 error (an invalid policy, a blocked or failing group, an API error).
import { writeFileSync } from "node:fs";
import { planPolicy, type RehearseRequest } from "../app/plan.js";
import { hasChanges, type Plan } from "../plan/index.js";
import { parseTimingFlag } from "../rehearsal/index.js";
import { renderPlanJson, renderPlanMarkdown, renderPlanText } from "../render/index.js";
import { groupsOf, parseFlags, policyOrExit, runFlags, UsageError } from "./args.js";
import { PLAN_OPTIONS } from "./flags.js";
import type { HintContext } from "./hints.js";
import { policySha256, reachFlags, savePlan } from "./saved-plan.js";
import { liveSession, sandboxSession } from "./session.js";
import { useColour } from "./terminal.js";

export function renderPlan(plan: Plan, format: string, colour = false): string {
  if (format === "json") return renderPlanJson(plan);
  if (format === "markdown") return `${renderPlanMarkdown(plan)}\n`;
  return renderPlanText(plan, { colour });
}

export async function runPlan(args: string[], hints: HintContext): Promise<number> {
  const { values } = parseFlags(args, PLAN_OPTIONS);
  if (!["text", "markdown", "json"].includes(values.format))
    throw new UsageError(`--format must be text, markdown or json, not ${values.format}`);
  // Hashed before it is read: an edit in between can only make `apply FILE` refuse.
  const sha256 = values.out !== undefined ? policySha256(values.policy ?? "") : "";
  const loaded = policyOrExit(values.policy, hints);
  if ("exitCode" in loaded) return loaded.exitCode;
  const { policy } = loaded;
  const groups = groupsOf(policy, values.groups);
  const rehearse = rehearseOptions(values);
  const session =
    values.sandbox !== undefined
      ? sandboxSession(values.sandbox, rehearse ? 2 : 1)
      : await liveSession(policy, values.kubeconfig, hints);
  let plan: Plan;
  let saved = "";
  try {
    const planned = await planPolicy(
      { ...session, progress: (l) => process.stderr.write(l) },
      {
        policy,
        file: values.policy as string,
        options: { ...runFlags(values), ...(groups && { groups }) },
        ...(rehearse && { rehearse }),
      },
    );
    plan = planned.plan;
    const events = planned.rehearsal && "events" in planned.rehearsal && planned.rehearsal.events;
    if (events && values["rehearse-events"])
      writeFileSync(
        values["rehearse-events"],
        events.map((e) => JSON.stringify(e)).join("\n") + "\n",
      );
    if (values.out !== undefined)
      saved = await savePlan(values.out, plan, {
        session,
        policy,
        sha256,
        reach: reachFlags(values),
      });
  } finally {
    session.close();
  }
  process.stdout.write(renderPlan(plan, values.format, useColour(process.stdout, process.env)));
  // Beside a machine format, stdout stays the plan alone.
  (values.format === "text" ? process.stdout : process.stderr).write(saved);
  if (plan.summary.errors > 0) return 1;
  return values["detailed-exitcode"] && hasChanges(plan) ? 2 : 0;
}

/** --rehearse and its flags, checked before anything is read. */
function rehearseOptions(values: {
  rehearse?: boolean;
  "rehearse-events"?: string;
  "rehearse-timing"?: string;
}): RehearseRequest | undefined {
  if (!values.rehearse) {
    if (values["rehearse-events"] || values["rehearse-timing"])
      throw new UsageError("--rehearse-events and --rehearse-timing go with --rehearse");
    return undefined;
  }
  const timings = values["rehearse-timing"] ? parseTimingFlag(values["rehearse-timing"]) : {};
  if (typeof timings === "string") throw new UsageError(`--rehearse-timing: ${timings}`);
  return { when: "always", timings };
}
