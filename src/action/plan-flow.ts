// The plan flow (pull requests, and `mode: plan`): per policy, validate (errors become
// annotations on the YAML lines, carried by the plan check run), read live state, plan, and
// report — the sticky PR comment, the check run `noderoll plan / <policy>` on the head commit,
// the log and the job summary. Nothing is changed anywhere but on GitHub.
import * as core from "@actions/core";
import { info } from "./log.js";
import { planPolicy, type Planned } from "../app/plan.js";
import { hasChanges, type Plan } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import {
  markedComment,
  planCheckName,
  planCheckRun,
  planComment,
  planHeadline,
  provenance,
  renderPlanMarkdown,
  renderPlanText,
  type RunInfo,
} from "../render/index.js";
import type { Check } from "./github.js";
import { planReport } from "./report.js";
import {
  errorMessage,
  refuseUnknownGroups,
  writePlanJson,
  type PolicyOutcome,
  type RunContext,
} from "./context.js";
import {
  annotateInLog,
  annotationsOf,
  diagnosticsOf,
  findingDiagnostics,
  invalidMarkdown,
  loadPolicyFile,
  type PolicyFile,
} from "./policy-file.js";

export interface PlanTarget {
  headSha: string;
  pullRequest?: number;
}

async function reportInvalid(ctx: RunContext, p: PolicyFile, target: PlanTarget): Promise<void> {
  const diags = diagnosticsOf(p);
  const errors = p.load.ok ? 0 : p.load.errors.length;
  const markdown = invalidMarkdown(p, "noderoll plan", {
    sha: target.headSha,
    ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }),
  });
  let annotated = false;
  if (ctx.inputs.checkRun) {
    const check = ctx.gh.checkRun(planCheckName(p.name), target.headSha);
    if (await check.start({ title: "Validating the policy", summary: "…" }, ctx.env.runUrl))
      annotated = await check.complete(
        "failure",
        { title: `Invalid policy: ${errors} error${errors === 1 ? "" : "s"}`, summary: markdown },
        annotationsOf(diags, ctx.env.workspace),
      );
  }
  if (!annotated) annotateInLog(diags, ctx.env.workspace);
  if (ctx.inputs.comment && target.pullRequest !== undefined)
    await ctx.gh.comment(target.pullRequest, p.name, markedComment(p.name, markdown));
  ctx.summary.add(markdown);
}

/** The plan on GitHub: the check run (with annotations), the sticky comment, the summary. */
async function reportPlan(
  ctx: RunContext,
  p: PolicyFile,
  plan: Plan,
  target: PlanTarget,
  check: Check | undefined,
): Promise<void> {
  const name = plan.policy.name;
  const info: RunInfo = {
    sha: target.headSha,
    ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }),
    ...(ctx.inputs.maxDurationMs !== undefined && { maxDurationMs: ctx.inputs.maxDurationMs }),
  };
  const payload = planCheckRun(plan, info);
  // Policy warnings and the plan's findings, on the lines they are about.
  const notes = [...(p.load.ok ? p.load.warnings : []), ...findingDiagnostics(plan, p)];
  if (check?.created)
    await check.complete(
      payload.conclusion ?? "neutral",
      payload.output,
      annotationsOf(notes, ctx.env.workspace),
    );
  else annotateInLog(notes, ctx.env.workspace);
  // The comment carries the reviewed plan (hidden), for apply to compare with on merge.
  if (ctx.inputs.comment && target.pullRequest !== undefined)
    await ctx.gh.comment(target.pullRequest, name, planComment(plan, info));
  ctx.summary.addFitted((d) => renderPlanMarkdown(plan, d, info));
}

/** Read live state and plan, rehearsed when asked for (or by default, a pull request's small cluster). */
async function planLive(
  ctx: RunContext,
  file: string,
  policy: Policy,
  target: PlanTarget,
): Promise<Planned> {
  const ports = await ctx.connect(policy);
  const asked = ctx.inputs.rehearse;
  const rehearse = asked === true || (asked === "auto" && target.pullRequest !== undefined);
  const planned = await planPolicy(
    { ports, signal: ctx.signal, progress: (l) => info(l.trimEnd()) },
    {
      policy,
      file,
      options: {
        replaceAll: ctx.inputs.replaceAll,
        deleteAfterDrainTimeout: ctx.inputs.deleteAfterDrainTimeout,
        ...(ctx.inputs.groups && { groups: ctx.inputs.groups }),
      },
      ...(rehearse && {
        rehearse: {
          when: asked === true ? "always" : "small-cluster",
          // A rehearsal that cannot run leaves the plan as it is: it never stops one.
          optional: true,
          onStart: () => info(`rehearsing the roll on a twin of cluster ${policy.cluster.name}…`),
        },
      }),
    },
  );
  if (planned.rehearsal && "failed" in planned.rehearsal)
    core.warning(`${file}: the rehearsal could not run: ${planned.rehearsal.failed}`);
  return planned;
}

async function planOne(
  ctx: RunContext,
  file: string,
  target: PlanTarget,
  jsonNames: Set<string>,
): Promise<PolicyOutcome> {
  const p = loadPolicyFile(file, ctx.env.workspace);
  for (const d of diagnosticsOf(p))
    info(`${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.path ? `${d.path}: ` : ""}${d.message}`);
  if (!p.load.ok) {
    await reportInvalid(ctx, p, target);
    return { file, name: p.name, result: "invalid", hasChanges: false, message: "invalid policy" };
  }
  const policy = p.load.policy;
  const refused = refuseUnknownGroups(ctx, file, policy, ctx.inputs.groups);
  if (refused) return refused;
  const check = ctx.inputs.checkRun
    ? ctx.gh.checkRun(planCheckName(policy.metadata.name), target.headSha)
    : undefined;
  await check?.start(
    {
      title: "Reading live state",
      summary: `Planning \`${file}\` against cluster \`${policy.cluster.name}\`…`,
    },
    ctx.env.runUrl,
  );
  let plan: Plan;
  try {
    ({ plan } = await planLive(ctx, file, policy, target));
  } catch (e) {
    const message = `could not read the live state of cluster ${policy.cluster.name} (${policy.cluster.region}): ${errorMessage(e)}`;
    core.error(`${file}: ${message}`);
    const from = provenance({
      sha: target.headSha,
      ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }),
    });
    await check?.complete("failure", { title: "Could not plan", summary: `${message}\n\n${from}` });
    ctx.summary.add(`### noderoll plan · \`${policy.metadata.name}\` · ❌ error\n\n${message}\n`);
    return { file, name: policy.metadata.name, result: "error", hasChanges: false, message };
  }
  const planJson = writePlanJson(ctx, plan, jsonNames);
  info(renderPlanText(plan));
  info(`plan JSON: ${planJson}`);
  await reportPlan(ctx, p, plan, target, check);
  if (plan.summary.blocked > 0) core.warning(`${policy.metadata.name}: ${planHeadline(plan)}`);
  return {
    file,
    name: policy.metadata.name,
    result: plan.summary.errors > 0 ? "error" : "planned",
    hasChanges: hasChanges(plan),
    planJson,
    report: planReport(plan),
    ...(plan.summary.errors > 0 && { message: plan.groups.flatMap((g) => g.errors).join("; ") }),
  };
}

export async function planFlow(
  ctx: RunContext,
  files: readonly string[],
  target: PlanTarget,
): Promise<PolicyOutcome[]> {
  const out: PolicyOutcome[] = [];
  const jsonNames = new Set<string>();
  for (const file of files) {
    core.startGroup(`noderoll plan ${file}`);
    try {
      out.push(await planOne(ctx, file, target, jsonNames));
    } finally {
      core.endGroup();
    }
  }
  return out;
}
