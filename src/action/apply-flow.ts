// The apply flow (a merge to the default branch, a dispatch, `mode: apply`): per policy,
// validate (an invalid policy anywhere means nothing is applied), plan, roll, and report as it
// goes — the check run `noderoll apply / <policy>` on the commit moves through every phase of
// every group, the merged pull request's sticky comment follows it, the log has a group per
// phase, and the job summary has the outcome. Updates to GitHub are coalesced: at once when a
// phase changes, otherwise at most every few seconds.
import * as core from "@actions/core";
import { applyPolicy } from "../app/apply.js";
import { resumePolicy } from "../app/control.js";
import { rollBack } from "../app/rollback.js";
import type { ApplyResult } from "../engine/apply.js";
import { hasChanges, type Plan } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import {
  applyCheckName,
  emptyProgress,
  planDrift,
  readReviewed,
  renderPlanText,
  renderProgressMarkdown,
  reviewedMarkerIn,
  seedFromPlan,
  withRunReason,
  type Progress,
} from "../render/index.js";
import { EventLog } from "../ports/index.js";
import {
  errorMessage,
  refuseUnknownGroups,
  writePlanJson,
  type PolicyOutcome,
  type RunContext,
} from "./context.js";
import { info } from "./log.js";
import {
  annotateInLog,
  annotationsOf,
  diagnosticsOf,
  invalidMarkdown,
  loadPolicyFile,
  type PolicyFile,
} from "./policy-file.js";
import { RollFollower, type Reporters } from "./follow.js";
import { leftAlone, pendingWork } from "./pending.js";
import { runKeyOf } from "./env.js";
import { rollReport } from "./report.js";
import type { Trigger } from "./route.js";

export interface ApplyTarget {
  sha: string;
  trigger: Trigger;
  replaceAll: boolean;
  deleteAfterDrainTimeout: boolean;
  groups?: string[];
  reason?: string;
  /** The merged pull request whose comment follows the roll. */
  pullRequest?: number;
  /**
   * The policy files this run came for (a push: those it changed; a schedule: none). Other
   * files are applied only when their plan has work (pending.ts); absent: all files.
   */
  changed?: string[];
  /** `mode: resume`: a pause or an abort on the cluster's Lease is cleared before the apply. */
  resume?: boolean;
  /** `mode: rollback`: the recorded groups go back to what they ran before (app/rollback.ts). */
  rollback?: boolean;
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
    replaceAll: target.replaceAll,
    deleteAfterDrainTimeout: target.deleteAfterDrainTimeout,
    trigger: `${target.resume ? "resume, " : target.rollback ? "rollback, " : ""}${TRIGGER[target.trigger]}${target.trigger === "push" ? of : ""}`,
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

/** Plan (the plan in the log, its JSON for later steps), then roll, followed as it goes. */
async function planAndRoll(
  ctx: RunContext,
  file: string,
  policy: Policy,
  target: ApplyTarget,
  follower: RollFollower,
  shown: (plan: Plan) => void,
): Promise<ApplyResult> {
  const ports = await ctx.connect(policy);
  const log = new EventLog(ports.clock, false);
  if (ctx.events) log.on((e) => ctx.events?.write(e));
  const go = target.rollback
    ? rollBack
    : target.resume
      ? (...a: Parameters<typeof applyPolicy>) =>
          resumePolicy(...a, (c) => core.notice(`${policy.metadata.name}: resume: ${c.message}`))
      : applyPolicy;
  return go(
    { ports, signal: ctx.signal, progress: (l) => info(l.trimEnd()) },
    {
      policy,
      file,
      options: {
        replaceAll: target.replaceAll,
        deleteAfterDrainTimeout: target.deleteAfterDrainTimeout,
        ...(target.groups && { groups: target.groups }),
      },
      log,
      apply: {
        runId: runKeyOf(ctx.env),
        ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }),
        ...(target.reason && { reason: target.reason }),
        ...(ctx.inputs.maxDurationMs !== undefined && { maxDurationMs: ctx.inputs.maxDurationMs }),
        ignoreWindow: ctx.inputs.ignoreWindow && target.trigger === "dispatch",
      },
      onPlan: ({ plan }) => {
        shown(plan);
        follower.endGroup();
        follower.follow(log, plan, ports.clock, policy);
      },
    },
  );
}

/** One policy planned, rolled and reported (its check run, comment, summary, events, outcome). */
export async function applyOne(
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
      title: withRunReason("Reading live state", progress),
      summary: renderProgressMarkdown(progress, "noderoll apply", reporters.info),
    },
    ctx.env.runUrl,
  );
  const follower = new RollFollower(ctx, reporters, progress);
  let plan: Plan | undefined;
  let planJson: string | undefined;
  try {
    follower.startGroup(`noderoll plan ${name}`);
    const outcome = await planAndRoll(ctx, file, policy, target, follower, (p) => {
      plan = p;
      planJson = writePlanJson(ctx, p, jsonNames);
      info(renderPlanText(p));
      info(`plan JSON: ${planJson}`);
      seedFromPlan(progress, p);
      checkDrift(reporters, p, progress);
    }).finally(() => follower.stop());
    if (!progress.result)
      Object.assign(progress, { result: outcome.result, message: outcome.message });
    await follower.finish();
    logOutcome(name, outcome, target);
    return {
      file,
      name,
      result: outcome.result,
      hasChanges: plan ? hasChanges(plan) : false,
      ...(planJson && { planJson }),
      message: outcome.message,
      report: rollReport(progress, plan),
    };
  } catch (e) {
    const message = errorMessage(e);
    const cancelled = ctx.signal.aborted;
    Object.assign(progress, {
      result: cancelled ? "cancelled" : "failure",
      message: cancelled ? `cancelled: ${message}` : message,
    });
    core.error(`${name}: ${message}`);
    await follower.finish();
    return {
      file,
      name,
      result: cancelled ? "cancelled" : "failure",
      hasChanges: false,
      message,
      report: rollReport(progress, plan),
    };
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
