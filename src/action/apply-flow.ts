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
  cutWords,
  emptyProgress,
  fitMarkdown,
  heartbeatLine,
  planDrift,
  progressCheckRun,
  readReviewed,
  renderPlanMarkdown,
  renderPlanText,
  renderProgressMarkdown,
  reviewedMarkerIn,
  seedFromPlan,
  type MarkdownDetail,
  type Progress,
  type RunInfo,
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
import { eventLine, info } from "./log.js";
import {
  annotateInLog,
  annotationsOf,
  diagnosticsOf,
  invalidMarkdown,
  loadPolicyFile,
  type PolicyFile,
} from "./policy-file.js";
import type { Check } from "./github.js";
import type { PostState } from "./post-state.js";
import { leftAlone, pendingWork } from "./pending.js";
import { runKeyOf } from "./env.js";
// The command line's read progress, shared: a big cluster's read says how far it has got.
import { withReadProgress } from "../adapters/read-progress.js";
import type { Trigger } from "./route.js";

export interface ApplyTarget {
  sha: string;
  trigger: Trigger;
  force: boolean;
  groups?: string[];
  reason?: string;
  /** The merged pull request whose comment follows the roll. */
  pullRequest?: number;
  /**
   * The policy files this run came for (a push: those it changed; a schedule: none). Other
   * files are applied only when their plan has work (pending.ts); absent: all files.
   */
  changed?: string[];
}

/** Sent at once when a phase or group changes; anything else waits for the interval. */
const URGENT = new Set<RollEvent["type"]>(["phase.start", "phase.end", "group.start", "group.end"]);

export const PROGRESS_INTERVAL_MS = 5000;

function withReason(title: string, p: Progress): string {
  const tail = p.reason ? ` · reason: ${p.reason}` : p.force ? " · force" : "";
  return cutWords(`${title}${tail}`);
}

/** The plan under the progress, collapsed: the reviewer has read it already. */
function planBelow(plan: Plan | undefined, d: MarkdownDetail, info: RunInfo): string {
  if (!plan) return "";
  return `\n<details>\n<summary>The plan this roll carries out</summary>\n\n${renderPlanMarkdown(plan, d, info)}\n</details>\n`;
}

function commentBody(p: Progress, plan: Plan | undefined, r: Reporters): string {
  const markers = `\n${r.reviewed ? `${r.reviewed}\n` : ""}${stickyMarker(r.name)}`;
  return fitMarkdown(
    (d) => `${renderProgressMarkdown(p, "noderoll apply", r.info)}${planBelow(plan, d, r.info)}`,
    COMMENT_LIMIT,
    markers,
    r.info.runUrl,
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
  info: RunInfo;
  /** The reviewed plan's hidden marker, carried from the plan comment into this one. */
  reviewed?: string;
}

async function sendProgress(
  ctx: RunContext,
  r: Reporters,
  p: Progress,
  plan?: Plan,
): Promise<void> {
  const payload = progressCheckRun(p, r.info);
  await r.check?.update({ ...payload.output, title: withReason(payload.output.title, p) });
  if (ctx.inputs.comment && r.pullRequest !== undefined)
    await ctx.gh.comment(r.pullRequest, r.name, commentBody(p, plan, r));
}

async function finish(ctx: RunContext, r: Reporters, p: Progress, plan?: Plan): Promise<void> {
  const payload = progressCheckRun(p, r.info);
  await r.check?.complete(payload.conclusion ?? "neutral", {
    ...payload.output,
    title: withReason(payload.output.title, p),
  });
  if (ctx.inputs.comment && r.pullRequest !== undefined)
    await ctx.gh.comment(r.pullRequest, r.name, commentBody(p, plan, r));
  ctx.summary.addFitted(
    (d) => `${renderProgressMarkdown(p, "noderoll apply", r.info)}${planBelow(plan, d, r.info)}`,
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
  const { plan } = await withReadProgress(
    (l) => info(l.trimEnd()),
    (onProgress) => planner.observe({ ...ports, signal: ctx.signal }, undefined, onProgress),
  );
  const planJson = writePlanJson(ctx, plan, jsonNames);
  info(renderPlanText(plan));
  info(`plan JSON: ${planJson}`);
  return { ports, planner, plan, planJson };
}

/** The event log of the roll, fed to the progress, the log groups and the coalesced updates. */
function progressLog(
  ports: { clock: LivePorts["clock"] },
  post: PostState,
  policy: Policy,
  progress: Progress,
  groups: LogGroups,
  updates: Coalescer<Progress>,
): EventLog {
  const log = new EventLog(ports.clock, false);
  log.on((e) => {
    post.record(e, policy);
    applyEvent(progress, e);
    if (e.type === "phase.start") groups.start(`${e.group}: ${e.phase}`);
    const line = eventLine(e);
    if (line) {
      info(`${e.t.slice(11, 19)} ${line}`);
      lastLogLine = Date.now();
    }
    if (e.type === "phase.end") groups.end();
    if (e.type !== "roll.end") void updates.offer(structuredClone(progress), URGENT.has(e.type));
  });
  return log;
}

/** Nothing in the log for this long (wall time), and a heartbeat line says where the roll is. */
export const HEARTBEAT_MS = 45_000;
let lastLogLine = Date.now();

function heartbeat(progress: Progress, clock: { now(): Date }): ReturnType<typeof setInterval> {
  const timer = setInterval(() => {
    if (!progress.startedAt || progress.result || Date.now() - lastLogLine < HEARTBEAT_MS) return;
    info(`${clock.now().toISOString().slice(11, 19)} ${heartbeatLine(progress, clock.now())}`);
    lastLogLine = Date.now();
  }, HEARTBEAT_MS / 3);
  timer.unref();
  return timer;
}

const TRIGGER: Record<Trigger, string> = {
  push: "merge",
  dispatch: "workflow_dispatch",
  schedule: "schedule",
};

function startProgress(policy: Policy, target: ApplyTarget): Progress {
  const of = target.pullRequest !== undefined ? ` of #${target.pullRequest}` : "";
  return {
    ...emptyProgress(),
    policy: policy.metadata.name,
    cluster: policy.cluster.name,
    force: target.force,
    trigger: `${TRIGGER[target.trigger]}${target.trigger === "push" ? of : ""}`,
    ...(target.reason && { reason: target.reason }),
  };
}

async function reportersFor(
  ctx: RunContext,
  name: string,
  target: ApplyTarget,
): Promise<Reporters> {
  // Read before this run writes the comment: it holds the plan the reviewers saw.
  const body =
    target.pullRequest !== undefined && target.trigger === "push"
      ? await ctx.gh.commentBody(target.pullRequest, name)
      : undefined;
  const reviewed = reviewedMarkerIn(body);
  return {
    name,
    info: { sha: target.sha, ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }) },
    ...(reviewed && { reviewed }),
    ...(target.pullRequest !== undefined && { pullRequest: target.pullRequest }),
    ...(ctx.inputs.checkRun && { check: ctx.gh.checkRun(applyCheckName(name), target.sha) }),
  };
}

/** When the plan about to be applied is not the one reviewed on the pull request: say how. */
function checkDrift(r: Reporters, plan: Plan, progress: Progress): void {
  const reviewed = readReviewed(r.reviewed);
  if (!reviewed) return;
  const drift = planDrift(reviewed, plan);
  if (drift.length === 0) return;
  progress.drift = drift;
  core.warning(
    `${r.name}: the plan to apply differs from the one reviewed on pull request #${r.pullRequest}: ${drift.join("; ").replace(/`/g, "")}`,
  );
}

function logOutcome(name: string, outcome: ApplyResult, target: ApplyTarget): void {
  const line = `${name}: ${outcome.result}: ${outcome.message}${target.reason ? ` (reason: ${target.reason})` : ""}`;
  if (outcome.result === "failure") core.error(line);
  else if (outcome.result === "success") core.notice(line);
  else core.warning(line);
}

/** The roll itself, once planned: reported as it goes, finished whatever happens. */
async function roll(
  ctx: RunContext,
  first: Awaited<ReturnType<typeof planFirst>>,
  run: {
    policy: Policy;
    target: ApplyTarget;
    progress: Progress;
    reporters: Reporters;
    groups: LogGroups;
  },
): Promise<ApplyResult> {
  const { policy, target, progress, reporters, groups } = run;
  const updates = new Coalescer<Progress>(
    (p) => sendProgress(ctx, reporters, p, first.plan),
    PROGRESS_INTERVAL_MS,
  );
  const log = progressLog(first.ports, ctx.post, policy, progress, groups, updates);
  const beat = heartbeat(progress, first.ports.clock);
  try {
    return await apply(policy, first.plan, first.ports, log, {
      runId: runKeyOf(ctx.env),
      ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }),
      ...(target.reason && { reason: target.reason }),
      ...(ctx.inputs.maxDurationMs !== undefined && { maxDurationMs: ctx.inputs.maxDurationMs }),
      ignoreWindow: ctx.inputs.ignoreWindow && target.trigger === "dispatch",
      signal: ctx.signal,
      planner: first.planner,
    });
  } finally {
    clearInterval(beat);
    groups.end();
    // Whatever progress is still queued goes first, so the conclusion is the last word.
    await updates.flush();
  }
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
  const reporters = await reportersFor(ctx, name, target);
  await reporters.check?.start(
    {
      title: withReason("Reading live state", progress),
      summary: renderProgressMarkdown(progress, "noderoll apply", reporters.info),
    },
    ctx.env.runUrl,
  );
  const groups = new LogGroups();
  let plan: Plan | undefined;
  try {
    groups.start(`noderoll plan ${name}`);
    const first = await planFirst(ctx, file, policy, target, jsonNames);
    plan = first.plan;
    groups.end();
    seedFromPlan(progress, plan);
    checkDrift(reporters, plan, progress);
    const outcome = await roll(ctx, first, { policy, target, progress, reporters, groups });
    if (!progress.result)
      Object.assign(progress, { result: outcome.result, message: outcome.message });
    await finish(ctx, reporters, progress, plan);
    logOutcome(name, outcome, target);
    return {
      file,
      name,
      result: outcome.result,
      hasChanges: hasChanges(plan),
      planJson: first.planJson,
      message: outcome.message,
    };
  } catch (e) {
    groups.end();
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

/** Invalid policies: each reported on its lines, and nothing at all is applied. */
async function refuseInvalid(
  ctx: RunContext,
  loaded: PolicyFile[],
  target: ApplyTarget,
): Promise<PolicyOutcome[]> {
  const invalid = loaded.filter((p) => !p.load.ok);
  for (const p of invalid) {
    const markdown = invalidMarkdown(p, "noderoll apply", {
      sha: target.sha,
      ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }),
    });
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

export async function applyFlow(
  ctx: RunContext,
  files: readonly string[],
  target: ApplyTarget,
): Promise<PolicyOutcome[]> {
  // Every policy is validated before anything is applied: an invalid one stops the run.
  const loaded = files.map((f) => loadPolicyFile(f, ctx.env.workspace));
  for (const p of loaded)
    for (const d of diagnosticsOf(p))
      info(
        `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.path ? `${d.path}: ` : ""}${d.message}`,
      );
  if (loaded.some((p) => !p.load.ok)) return refuseInvalid(ctx, loaded, target);
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
    if (refused) {
      out.push(refused);
      continue;
    }
    if (target.changed && !target.changed.includes(p.file)) {
      const what = target.trigger === "push" ? "this push" : `this ${target.trigger}`;
      const work = await pendingWork(ctx, p.file, p.load.policy, what);
      if (!work.apply) {
        out.push(leftAlone(p.file, p.name, work));
        continue;
      }
      core.notice(work.why);
    }
    out.push(await applyOne(ctx, p.file, p.load.policy, target, jsonNames));
  }
  return out;
}
