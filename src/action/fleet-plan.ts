// `mode: fleet-plan` (issue 49): read the fleet file and its policies, read every cluster's
// record (app/fleet.ts readFleet, as `noderoll fleet plan` does) and say what is due now — the
// `fleet-due` output a workflow's matrix of per-cluster jobs reads with fromJSON, the whole plan
// as JSON (`fleet-json`), the plan in the job summary and the log; and on a pull request that
// changes the fleet file or a policy it names, one sticky comment per fleet and a check run
// `noderoll fleet / <name>` on the head commit. Read-only everywhere but on GitHub.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as core from "@actions/core";
import { fleetGated, readFleet } from "../app/fleet.js";
import type { FleetPlan } from "../fleet/schedule.js";
import { COMMENT_LIMIT, fitMarkdown, type RunInfo } from "../render/index.js";
import {
  nextRunText,
  renderFleetJson,
  renderFleetMarkdown,
  renderFleetText,
} from "../render/fleet.js";
import type { RunContext } from "./context.js";
import {
  fleetCheckName,
  fleetConnector,
  fleetMarker,
  invalidFleetMarkdown,
  logDiagnostics,
  noRoll,
  readFleetInput,
  type FleetInput,
} from "./fleet-files.js";
import { info } from "./log.js";
import { annotateInLog, annotationsOf } from "./policy-file.js";
import { runKeyOf } from "./env.js";
import type { Outputs, RunResult } from "./outputs.js";

export interface FleetPlanTarget {
  headSha: string;
  pullRequest?: number;
}

/** Whether the pull request changes the fleet file or a file it names (unknown: it does). */
async function touches(ctx: RunContext, pull: number, files: readonly string[]): Promise<boolean> {
  const changed = await ctx.gh.pullFiles(pull);
  if (!changed) return true;
  return files.some((f) => changed.includes(f));
}

/** An invalid fleet: annotations on its lines (the check run's, else the log's), the comment. */
async function reportInvalid(
  ctx: RunContext,
  f: FleetInput & { ok: false },
  target: FleetPlanTarget,
  pr: boolean,
  run: RunInfo,
): Promise<void> {
  const markdown = invalidFleetMarkdown(f, run);
  let annotated = false;
  if (pr && ctx.inputs.checkRun) {
    const check = ctx.gh.checkRun(fleetCheckName(f.name), target.headSha);
    const n = f.errors.length;
    if (await check.start({ title: "Validating the fleet", summary: "…" }, ctx.env.runUrl))
      annotated = await check.complete(
        "failure",
        { title: `Invalid fleet: ${n} error${n === 1 ? "" : "s"}`, summary: markdown },
        annotationsOf(f.errors, ctx.env.workspace),
      );
  }
  if (!annotated) annotateInLog(f.errors, ctx.env.workspace);
  if (pr && ctx.inputs.comment && target.pullRequest !== undefined)
    await ctx.gh.stickyComment(
      target.pullRequest,
      fleetMarker(f.name),
      fitMarkdown(() => markdown, COMMENT_LIMIT, `\n${fleetMarker(f.name)}`),
    );
  ctx.summary.add(markdown);
}

/** The plan on the pull request: its check run and its one comment. */
async function reportOnPull(
  ctx: RunContext,
  plan: FleetPlan,
  markdown: string,
  target: FleetPlanTarget & { pullRequest: number },
): Promise<void> {
  if (ctx.inputs.checkRun) {
    const check = ctx.gh.checkRun(fleetCheckName(plan.fleet), target.headSha);
    // A fleet that cannot go on (halted, paused, a cluster not read) is for people to look at;
    // it does not fail the pull request that may be the fix.
    const stuck =
      plan.paused !== undefined ||
      plan.stages.some(
        (s) => s.state.kind === "halted" || s.clusters.some((c) => c.view.unreadable),
      );
    if (await check.start({ title: "Reading the fleet's clusters", summary: "…" }, ctx.env.runUrl))
      await check.complete(stuck ? "neutral" : "success", {
        title: nextRunText(plan),
        summary: markdown.slice(0, 65_000),
      });
  }
  if (ctx.inputs.comment)
    await ctx.gh.stickyComment(
      target.pullRequest,
      fleetMarker(plan.fleet),
      fitMarkdown(() => markdown, COMMENT_LIMIT, `\n${fleetMarker(plan.fleet)}`, ctx.env.runUrl),
    );
}

/** The plan's JSON under RUNNER_TEMP, for later steps (the `fleet-json` output). */
function writeFleetJson(ctx: RunContext, name: string, json: string): string {
  const dir = join(ctx.env.runnerTemp, "noderoll");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.fleet.json`);
  writeFileSync(path, json);
  return path;
}

export async function fleetPlanFlow(
  ctx: RunContext,
  target: FleetPlanTarget,
  outputs: Outputs,
): Promise<RunResult> {
  outputs["fleet-due"] = "[]";
  const file = ctx.inputs.fleet as string;
  const f = readFleetInput(file, ctx.env.workspace);
  const pull = target.pullRequest;
  const named = f.ok
    ? [file, ...f.members.map((m) => m.file)]
    : [file, ...f.errors.map((d) => d.file)];
  const pr = pull !== undefined && (await touches(ctx, pull, named));
  if (pull !== undefined && !pr)
    info(`pull request #${pull} changes neither ${file} nor a policy it names: no comment`);
  const run: RunInfo = { sha: target.headSha, ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }) };
  if (!f.ok) {
    logDiagnostics(f.errors);
    await reportInvalid(ctx, f, target, pr, run);
    outputs.valid = "false";
    outputs.summary = `noderoll found fleet ${file} invalid: nothing was read or changed`;
    core.setFailed(`invalid fleet: ${file}`);
    return "invalid";
  }
  const { connect } = fleetConnector(ctx);
  const read = await readFleet(
    f.fleet,
    f.members,
    { connect, roll: noRoll, runId: runKeyOf(ctx.env) },
    { retryFailed: ctx.inputs.retryFailed },
  );
  const { plan } = read;
  const about = { file, gated: fleetGated(f.members), now: read.now };
  const json = renderFleetJson(plan, about, f.fleet.release);
  const markdown = renderFleetMarkdown(plan, about, f.fleet.release);
  info(renderFleetText(plan, about, f.fleet.release));
  for (const s of plan.stages)
    for (const c of s.clusters)
      if (c.view.unreadable)
        core.warning(
          `fleet ${plan.fleet}: ${c.view.cluster} could not be read: ${c.view.unreadable}`,
        );
  outputs["fleet-due"] = JSON.stringify((JSON.parse(json) as { due: unknown[] }).due);
  outputs["fleet-json"] = writeFleetJson(ctx, plan.fleet, json);
  outputs["has-changes"] = String(plan.due.length > 0);
  outputs.summary = `noderoll fleet ${plan.fleet}: ${nextRunText(plan)}`;
  ctx.summary.add(markdown);
  if (pr && pull !== undefined)
    await reportOnPull(ctx, plan, markdown, { ...target, pullRequest: pull });
  outputs["comment-url"] = [...ctx.gh.pages.comments].join("\n");
  outputs["check-run-url"] = [...ctx.gh.pages.checkRuns].join("\n");
  return "planned";
}
