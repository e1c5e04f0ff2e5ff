// `mode: pause` and `mode: abort` (a workflow_dispatch from a ref that may apply, with a reason:
// route.ts): per policy, the request written on its cluster's Lease (src/app/control.ts), and
// said in the log and the job summary — whether a run holds the cluster now (its run's page),
// which stops at its next node boundary and says so in its own check run and comment. Nothing is
// planned or rolled. `mode: resume` is an apply (apply-flow.ts) that clears the request first.
import * as core from "@actions/core";
import { requestStop } from "../app/control.js";
import { errorMessage, type PolicyOutcome, type RunContext } from "./context.js";
import { info } from "./log.js";
import { annotateInLog, diagnosticsOf, loadPolicyFile } from "./policy-file.js";

export interface ControlTarget {
  action: "pause" | "abort";
  reason: string;
}

/** Who asks, as the Lease records it: the workflow's actor and this run's page. */
function askerOf(ctx: RunContext): string {
  const who = ctx.env.actor ?? "someone";
  return `${who} (workflow_dispatch${ctx.env.runUrl ? ` ${ctx.env.runUrl}` : ""})`;
}

async function askOne(
  ctx: RunContext,
  file: string,
  target: ControlTarget,
): Promise<PolicyOutcome> {
  const p = loadPolicyFile(file, ctx.env.workspace);
  if (!p.load.ok) {
    annotateInLog(diagnosticsOf(p), ctx.env.workspace);
    return { file, name: p.name, result: "invalid", hasChanges: false, message: "invalid policy" };
  }
  const policy = p.load.policy;
  const title = `### noderoll ${target.action} · \`${p.name}\``;
  let ports: Awaited<ReturnType<RunContext["connect"]>> | undefined;
  try {
    ports = await ctx.connect(policy);
    const asked = await requestStop({ ports, signal: ctx.signal }, policy, file, {
      action: target.action,
      by: askerOf(ctx),
      reason: target.reason,
    });
    core.notice(`${p.name}: ${asked.message}`);
    ctx.summary.add(
      `${title} · ${target.action === "pause" ? "⏸️" : "⏹️"} asked\n\n${asked.message}\n`,
    );
    return { file, name: p.name, result: "success", hasChanges: false, message: asked.message };
  } catch (e) {
    const message = errorMessage(e);
    core.error(`${p.name}: ${target.action} not asked: ${message}`);
    ctx.summary.add(`${title} · ❌ not asked\n\n${message}\n`);
    return { file, name: p.name, result: "error", hasChanges: false, message };
  } finally {
    ports?.close();
  }
}

/** Ask each policy's cluster to pause (or abort), one after the other. */
export async function controlFlow(
  ctx: RunContext,
  files: readonly string[],
  target: ControlTarget,
): Promise<PolicyOutcome[]> {
  info(`${target.action} asked (reason: ${target.reason})`);
  const out: PolicyOutcome[] = [];
  for (const file of files) out.push(await askOne(ctx, file, target));
  return out;
}
