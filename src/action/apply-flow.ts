// The apply flow (a merge to the default branch, a dispatch, `mode: apply`): per policy,
// validate (an invalid policy anywhere means nothing is applied), plan, roll, and report as it
// goes — the check run `noderoll apply / <policy>` on the commit moves through every phase of
// every group, the merged pull request's sticky comment follows it, the log has a group per
// phase, and the job summary has the outcome. Updates to GitHub are coalesced: at once when a
// phase changes, otherwise at most every few seconds.
import * as core from "@actions/core";
import { stickyMarker } from "../adapters/github/sticky-comment.js";
import { Coalescer } from "../adapters/github/coalesce.js";
import { apply, type ApplyResult } from "../engine/apply.js";
import { Planner } from "../engine/observe.js";
import { hasChanges, type Plan } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import {
  applyCheckName,
  applyEvent,
  COMMENT_LIMIT,
  emptyProgress,
  fitMarkdown,
  progressCheckRun,
  renderPlanMarkdown,
  renderPlanText,
  renderProgressMarkdown,
  type Progress,
} from "../render/index.js";
import { EventLog, type RollEvent } from "../ports/index.js";
import type { LivePorts } from "../adapters/connect.js";
import {
  errorMessage,
  refuseUnknownGroups,
  writePlanJson,
  type PolicyOutcome,
  type RunContext,
} from "./context.js";
import { eventLine } from "./log.js";
import {
  annotateInLog,
  annotationsOf,
  diagnosticsOf,
  invalidMarkdown,
  loadPolicyFile,
} from "./policy-file.js";
import type { Check } from "./github.js";
import { recordLease } from "./lease-state.js";
import type { Trigger } from "./route.js";

export interface ApplyTarget {
  sha: string;
  trigger: Trigger;
  force: boolean;
  groups?: string[];
  reason?: string;
  /** The merged pull request whose comment follows the roll. */
  pullRequest?: number;
}

/** Sent at once when a phase or group changes; anything else waits for the interval. */
const URGENT = new Set<RollEvent["type"]>(["phase.start", "phase.end", "group.start", "group.end"]);

export const PROGRESS_INTERVAL_MS = 5000;

function withReason(title: string, p: Progress): string {
  const tail = p.reason ? ` · reason: ${p.reason}` : p.force ? " · force" : "";
  return `${title}${tail}`.slice(0, 255);
}

function commentBody(p: Progress, plan: Plan | undefined, name: string): string {
  const marker = `\n${stickyMarker(name)}`;
  return fitMarkdown(
    (d) => `${renderProgressMarkdown(p)}${plan ? `\n${renderPlanMarkdown(plan, d)}` : ""}`,
    COMMENT_LIMIT,
    marker,
  );
}

/** Log groups that follow the phases: one open group at a time, as the runner allows. */
class LogGroups {
  private open = false;

  start(title: string): void {
    this.end();
    core.startGroup(title);
    this.open = true;
  }

  end(): void {
    if (this.open) core.endGroup();
    this.open = false;
  }
}

interface Reporters {
  check?: Check;
  pullRequest?: number;
  name: string;
}

async function sendProgress(
  ctx: RunContext,
  r: Reporters,
  p: Progress,
  plan?: Plan,
): Promise<void> {
  const payload = progressCheckRun(p);
  await r.check?.update({ ...payload.output, title: withReason(payload.output.title, p) });
  if (ctx.inputs.comment && r.pullRequest !== undefined)
    await ctx.gh.comment(r.pullRequest, r.name, commentBody(p, plan, r.name));
}

async function finish(ctx: RunContext, r: Reporters, p: Progress, plan?: Plan): Promise<void> {
  const payload = progressCheckRun(p);
  await r.check?.complete(payload.conclusion ?? "neutral", {
    ...payload.output,
    title: withReason(payload.output.title, p),
  });
  if (ctx.inputs.comment && r.pullRequest !== undefined)
    await ctx.gh.comment(r.pullRequest, r.name, commentBody(p, plan, r.name));
  ctx.summary.addFitted(
    (d) =>
      `${renderProgressMarkdown(p)}${plan ? `\n<details>\n<summary>The plan it rolled</summary>\n\n${renderPlanMarkdown(plan, d)}\n</details>\n` : ""}`,
  );
}

/** Read live state and plan, with the plan in the log and its JSON for later steps. */
async function planFirst(
  ctx: RunContext,
  file: string,
  policy: Policy,
  target: ApplyTarget,
  jsonNames: Set<string>,
) {
  const ports = await ctx.connect(policy);
  const planner = new Planner(policy, file, {
    force: target.force,
    ...(target.groups && { groups: target.groups }),
  });
  const { plan } = await planner.observe(ports);
  const planJson = writePlanJson(ctx, plan, jsonNames);
  core.info(renderPlanText(plan));
  core.info(`plan JSON: ${planJson}`);
  return { ports, planner, plan, planJson };
}

/** The event log of the roll, fed to the progress, the log groups and the coalesced updates. */
function progressLog(
  ports: { clock: LivePorts["clock"] },
  policy: Policy,
  progress: Progress,
  groups: LogGroups,
  updates: Coalescer<Progress>,
): EventLog {
  const log = new EventLog(ports.clock, false);
  log.on((e) => {
    recordLease(e, policy);
    applyEvent(progress, e);
    if (e.type === "phase.start") groups.start(`${e.group}: ${e.phase}`);
    const line = eventLine(e);
    if (line) core.info(`${e.t.slice(11, 19)} ${line}`);
    if (e.type === "phase.end") groups.end();
    if (e.type !== "roll.end") void updates.offer(structuredClone(progress), URGENT.has(e.type));
  });
  return log;
}

function startProgress(policy: Policy, target: ApplyTarget): Progress {
  return {
    ...emptyProgress(),
    policy: policy.metadata.name,
    cluster: policy.cluster.name,
    force: target.force,
    ...(target.reason && { reason: target.reason }),
  };
}

function reportersFor(ctx: RunContext, name: string, target: ApplyTarget): Reporters {
  return {
    name,
    ...(target.pullRequest !== undefined && { pullRequest: target.pullRequest }),
    ...(ctx.inputs.checkRun && { check: ctx.gh.checkRun(applyCheckName(name), target.sha) }),
  };
}

function logOutcome(name: string, outcome: ApplyResult, target: ApplyTarget): void {
  const line = `${name}: ${outcome.result}: ${outcome.message}${target.reason ? ` (reason: ${target.reason})` : ""}`;
  if (outcome.result === "failure") core.error(line);
  else if (outcome.result === "success") core.notice(line);
  else core.warning(line);
}

async function applyOne(
  ctx: RunContext,
  file: string,
  policy: Policy,
  target: ApplyTarget,
  jsonNames: Set<string>,
): Promise<PolicyOutcome> {
  const name = policy.metadata.name;
  const progress = startProgress(policy, target);
  const reporters = reportersFor(ctx, name, target);
  await reporters.check?.start(
    {
      title: withReason("Reading live state", progress),
      summary: renderProgressMarkdown(progress),
    },
    ctx.env.runUrl,
  );
  const groups = new LogGroups();
  let plan: Plan | undefined;
  let coalescer: Coalescer<Progress> | undefined;
  try {
    groups.start(`noderoll plan ${name}`);
    const first = await planFirst(ctx, file, policy, target, jsonNames);
    plan = first.plan;
    groups.end();
    const shown = plan;
    const updates = new Coalescer<Progress>(
      (p) => sendProgress(ctx, reporters, p, shown),
      PROGRESS_INTERVAL_MS,
    );
    coalescer = updates;
    const log = progressLog(first.ports, policy, progress, groups, updates);
    const outcome = await apply(policy, file, first.ports, log, {
      runId: `noderoll-gha-${ctx.env.runId ?? process.pid}${ctx.env.job ? `-${ctx.env.job}` : ""}`,
      ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }),
      force: target.force,
      ...(target.groups && { groups: target.groups }),
      ...(target.reason && { reason: target.reason }),
      ...(ctx.inputs.maxDurationMs !== undefined && { maxDurationMs: ctx.inputs.maxDurationMs }),
      ignoreWindow: ctx.inputs.ignoreWindow && target.trigger === "dispatch",
      signal: ctx.signal,
      planner: first.planner,
    });
    groups.end();
    await updates.flush();
    if (!progress.result)
      Object.assign(progress, { result: outcome.result, message: outcome.message });
    await finish(ctx, reporters, progress, plan);
    logOutcome(name, outcome, target);
    const { planJson } = first;
    return {
      file,
      name,
      result: outcome.result,
      hasChanges: hasChanges(plan),
      planJson,
      message: outcome.message,
    };
  } catch (e) {
    groups.end();
    // Whatever progress is still queued goes first, so the conclusion is the last word.
    await coalescer?.flush();
    const message = errorMessage(e);
    const cancelled = ctx.signal.aborted;
    Object.assign(progress, {
      result: cancelled ? "cancelled" : "failure",
      message: cancelled ? `cancelled: ${message}` : message,
    });
    core.error(`${name}: ${message}`);
    await finish(ctx, reporters, progress, plan);
    return { file, name, result: cancelled ? "cancelled" : "failure", hasChanges: false, message };
  }
}

export async function applyFlow(
  ctx: RunContext,
  files: readonly string[],
  target: ApplyTarget,
): Promise<PolicyOutcome[]> {
  // Every policy is validated before anything is applied: an invalid one stops the run.
  const loaded = files.map((f) => loadPolicyFile(f, ctx.env.workspace));
  const invalid = loaded.filter((p) => !p.load.ok);
  for (const p of loaded) {
    const diags = diagnosticsOf(p);
    if (diags.length === 0) continue;
    for (const d of diags)
      core.info(
        `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.path ? `${d.path}: ` : ""}${d.message}`,
      );
  }
  if (invalid.length > 0) {
    for (const p of invalid) {
      const markdown = invalidMarkdown(p, "noderoll apply");
      const check = ctx.inputs.checkRun
        ? ctx.gh.checkRun(applyCheckName(p.name), target.sha)
        : undefined;
      const annotated =
        check !== undefined &&
        (await check.start({ title: "Validating the policy", summary: "…" }, ctx.env.runUrl)) &&
        (await check.complete(
          "failure",
          { title: "Invalid policy: nothing was applied", summary: markdown },
          annotationsOf(diagnosticsOf(p), ctx.env.workspace),
        ));
      if (!annotated) annotateInLog(diagnosticsOf(p), ctx.env.workspace);
      ctx.summary.add(markdown);
    }
    const valid = loaded.filter((p) => p.load.ok);
    if (valid.length > 0)
      ctx.summary.add(
        `Not applied, because ${invalid.length === 1 ? "a policy is" : "policies are"} invalid: ${valid.map((p) => `\`${p.file}\``).join(", ")}\n`,
      );
    return loaded.map((p) => ({
      file: p.file,
      name: p.name,
      result: p.load.ok ? ("skipped" as const) : ("invalid" as const),
      hasChanges: false,
      message: p.load.ok ? "not applied: another policy is invalid" : "invalid policy",
    }));
  }
  const out: PolicyOutcome[] = [];
  const jsonNames = new Set<string>();
  for (const p of loaded) {
    if (!p.load.ok) continue;
    if (ctx.signal.aborted) {
      out.push({
        file: p.file,
        name: p.name,
        result: "cancelled",
        hasChanges: false,
        message: "the run was cancelled before it started",
      });
      continue;
    }
    const refused = refuseUnknownGroups(ctx, p.file, p.load.policy, target.groups);
    out.push(refused ?? (await applyOne(ctx, p.file, p.load.policy, target, jsonNames)));
  }
  return out;
}
