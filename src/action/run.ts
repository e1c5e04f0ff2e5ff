// One run of the action, once the process is set up (main.ts): the event routed (route.ts), the
// policy files chosen for it, each planned (plan-flow.ts), applied (apply-flow.ts) or asked to
// pause or abort (control-flow.ts) through the application layer (src/app), and the run's result,
// outputs and summary table from what each policy came to. With a `fleet` input the fleet is
// planned (fleet-plan.ts), or one cluster of it applied if it is due (fleet-apply.ts).
import * as core from "@actions/core";
import { info } from "./log.js";
import { connectLive } from "../adapters/connect.js";
import { applyFlow, type ApplyTarget } from "./apply-flow.js";
import { controlFlow } from "./control-flow.js";
import { EventsFile } from "./events-file.js";
import { fleetApplyFlow } from "./fleet-apply.js";
import { fleetPlanFlow } from "./fleet-plan.js";
import type { PolicyOutcome, RunContext } from "./context.js";
import { readRunEnv, runKeyOf, type RunEnv } from "./env.js";
import { PostState } from "./post-state.js";
import { GitHubOut } from "./github.js";
import { inputFromEnv, InputError, readInputs, type ActionInputs } from "./inputs.js";
import { labelPullRequest } from "./labels.js";
import { planFlow } from "./plan-flow.js";
import { expandPolicies, isGlob, narrowToChanged } from "./policies.js";
import { reportOutputs } from "./report.js";
import { route, type Decision } from "./route.js";
import type { JobSummary } from "./summary.js";
import type { Outputs, RunResult } from "./outputs.js";

export { emptyOutputs, type Outputs, type RunResult } from "./outputs.js";

const SEVERITY: RunResult[] = [
  "refused",
  "invalid",
  "error",
  "failure",
  "cancelled",
  "success",
  "planned",
  "skipped",
];

export function overallResult(outcomes: readonly PolicyOutcome[]): RunResult {
  if (outcomes.length === 0) return "skipped";
  return SEVERITY.find((r) => outcomes.some((o) => o.result === r)) ?? "skipped";
}

const FAILING: ReadonlySet<RunResult> = new Set<RunResult>([
  "refused",
  "invalid",
  "error",
  "failure",
  "cancelled",
]);

function maskSecrets(inputs: ActionInputs): void {
  if (inputs.token) core.setSecret(inputs.token);
  for (const name of [
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  ])
    if (process.env[name]) core.setSecret(process.env[name] as string);
}

function resultTable(outcomes: readonly PolicyOutcome[], d: Decision, reason?: string): string {
  const what =
    d.kind === "apply"
      ? `${d.resume ? "resume" : d.rollback ? "rollback" : "apply"} (${d.trigger})`
      : d.kind === "control"
        ? d.action
        : d.kind;
  // The note column only when a row has one: a plan's rows have none.
  const note = (o: PolicyOutcome) =>
    (o.message ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ").slice(0, 300);
  const noted = outcomes.some((o) => note(o) !== "");
  const lines = [
    `## noderoll ${what}${reason ? ` · reason: ${reason}` : ""}`,
    "",
    noted ? "| policy | file | result | note |" : "| policy | file | result |",
    noted ? "| --- | --- | --- | --- |" : "| --- | --- | --- |",
    ...outcomes.map(
      (o) => `| \`${o.name}\` | \`${o.file}\` | ${o.result} |${noted ? ` ${note(o)} |` : ""}`,
    ),
    "",
  ];
  return lines.join("\n");
}

async function selectFiles(
  inputs: ActionInputs,
  env: RunEnv,
  gh: GitHubOut,
  decision: Decision,
): Promise<{ files: string[]; pullRequest?: number; note?: string; changed?: string[] }> {
  const expanded = expandPolicies(inputs.policy, env.workspace);
  if (decision.kind === "plan" && decision.pullRequest !== undefined) {
    if (!inputs.policy.some(isGlob)) return { files: expanded };
    const changed = await gh.pullFiles(decision.pullRequest);
    if (!changed) {
      core.warning(
        "the pull request's files could not be listed: planning every policy the input names",
      );
      return { files: expanded };
    }
    const n = narrowToChanged(inputs.policy, expanded, changed, true);
    if (n.unchanged.length > 0)
      info(`not planned (this pull request does not change them): ${n.unchanged.join(", ")}`);
    return {
      files: n.files,
      ...(n.files.length === 0 && {
        note: `pull request #${decision.pullRequest} changes no policy file that \`${inputs.policy.join(", ")}\` names`,
      }),
    };
  }
  if (decision.kind === "apply" && decision.trigger === "push") {
    // Every named policy is considered, not only the changed ones: a merge whose job GitHub
    // cancelled while it waited in the concurrency group is applied by the next run (pending.ts).
    const pullRequest = await gh.pullOfCommit(decision.sha);
    let changed = decision.changedFiles;
    if (!changed && pullRequest !== undefined) changed = await gh.pullFiles(pullRequest);
    if (!changed) {
      info("the push's changed files are not all known: applying every policy the input names");
      return { files: expanded, ...(pullRequest !== undefined && { pullRequest }) };
    }
    const n = narrowToChanged(inputs.policy, expanded, changed, false);
    if (n.unchanged.length > 0)
      info(
        `not changed by this push, applied only if their plan has work: ${n.unchanged.join(", ")}`,
      );
    return {
      files: [...new Set([...n.files, ...expanded])],
      changed: n.files,
      ...(pullRequest !== undefined && { pullRequest }),
    };
  }
  // A schedule came for no file in particular: each is applied only if its plan has work.
  if (decision.kind === "apply" && decision.trigger === "schedule")
    return { files: expanded, changed: [] };
  return { files: expanded };
}

function runContext(
  inputs: ActionInputs,
  env: RunEnv,
  gh: GitHubOut,
  summary: JobSummary,
  signal: AbortSignal,
  closed: AbortSignal,
): RunContext {
  return {
    inputs,
    env,
    gh,
    summary,
    post: gh.post ?? new PostState(),
    signal,
    connect: (policy) =>
      connectLive({
        clusterName: policy.cluster.name,
        region: policy.cluster.region,
        ...(inputs.kubeconfig && { kubeconfig: inputs.kubeconfig }),
        // Not the run's signal: a cancelled run still gives the cluster lock back through them
        // (the engine's calls stop at once on `signal`); they close when the run is over.
        signal: closed,
        onRetry: (r) =>
          info(
            `throttled (HTTP ${r.status}): retry ${r.attempt} in ${Math.round(r.waitMs / 100) / 10} s`,
          ),
      }),
  };
}

/** A decision that reads (and may change) the clusters: plan, apply, pause or abort. */
type Acting = Extract<Decision, { kind: "plan" | "apply" | "control" }>;

function runFlow(
  ctx: RunContext,
  decision: Acting,
  files: string[],
  pullRequest: number | undefined,
  changed?: string[],
): Promise<PolicyOutcome[]> {
  if (decision.kind === "control")
    return controlFlow(ctx, files, { action: decision.action, reason: decision.reason });
  if (decision.kind === "plan")
    return planFlow(ctx, files, {
      headSha: decision.headSha,
      ...(decision.pullRequest !== undefined && { pullRequest: decision.pullRequest }),
    });
  return applyFlow(ctx, files, applyTarget(decision, pullRequest, changed));
}

function applyTarget(
  decision: Extract<Decision, { kind: "apply" }>,
  pullRequest: number | undefined,
  changed?: string[],
): ApplyTarget {
  return {
    sha: decision.sha,
    trigger: decision.trigger,
    replaceAll: decision.replaceAll,
    deleteAfterDrainTimeout: decision.deleteAfterDrainTimeout,
    ...(decision.groups && { groups: decision.groups }),
    ...(decision.reason && { reason: decision.reason }),
    ...(pullRequest !== undefined && { pullRequest }),
    ...(changed && { changed }),
    ...(decision.resume && { resume: true }),
    ...(decision.rollback && { rollback: true }),
  };
}

/** Outputs, the summary's result table and the step's failure, from what each policy came to. */
function conclude(
  summary: JobSummary,
  outcomes: PolicyOutcome[],
  decision: Acting,
  outputs: Outputs,
  gh: GitHubOut,
): RunResult {
  summary.add(
    resultTable(outcomes, decision, decision.kind === "plan" ? undefined : decision.reason),
  );
  const result = overallResult(outcomes);
  outputs["plan-json"] = outcomes.flatMap((o) => (o.planJson ? [o.planJson] : [])).join("\n");
  outputs["has-changes"] = String(outcomes.some((o) => o.hasChanges));
  outputs.valid = String(!outcomes.some((o) => o.result === "invalid"));
  Object.assign(outputs, reportOutputs(outcomes, verbOf(decision)), {
    "comment-url": [...gh.pages.comments].join("\n"),
    "check-run-url": [...gh.pages.checkRuns].join("\n"),
  });
  if (FAILING.has(result)) {
    const bad = outcomes.filter((o) => FAILING.has(o.result));
    core.setFailed(
      result === "invalid"
        ? `invalid policy: ${bad
            .filter((o) => o.result === "invalid")
            .map((o) => o.file)
            .join(", ")}`
        : `noderoll ${decision.kind === "control" ? decision.action : decision.kind}: ${bad.map((o) => `${o.name} ${o.result}${o.message ? ` (${o.message})` : ""}`).join("; ")}`,
    );
  }
  return result;
}

const verbOf = (d: Acting) => (d.kind === "control" ? d.action : d.kind);

/** The inputs, and the event log's file opened (empty) — or the run refused, nothing read. */
function inputsOrRefuse(
  summary: JobSummary,
  env: RunEnv,
  outputs: Outputs,
): { inputs: ActionInputs; events: EventsFile } | undefined {
  try {
    const inputs = readInputs(inputFromEnv());
    const events = EventsFile.open(inputs.eventsFile, env, (m) => core.warning(m));
    outputs["events-file"] = events.path;
    return { inputs, events };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    core.setFailed(e.message);
    summary.add(`## noderoll\n\n❌ ${e.message}\n`);
    outputs.summary = `noderoll refused: ${e.message}`;
    return undefined;
  }
}

function refuse(summary: JobSummary, outputs: Outputs, why: string): RunResult {
  core.setFailed(`noderoll refused: ${why}`);
  summary.add(`## noderoll\n\n❌ Refused, nothing was read or changed: ${why}.\n`);
  outputs.summary = `noderoll refused: ${why}`.replace(/\s+/g, " ");
  return "refused";
}

function nothingToDo(summary: JobSummary, outputs: Outputs, why: string): RunResult {
  core.notice(`noderoll: nothing to do: ${why}`);
  summary.add(`## noderoll\n\nNothing to do: ${why}.\n`);
  outputs.summary = `noderoll: nothing to do: ${why}`.replace(/\s+/g, " ");
  return "skipped";
}

/** The pull request's labels, when asked for: a plan's, or the apply of a merge's. */
async function label(
  gh: GitHubOut,
  decision: Acting,
  pullRequest: number | undefined,
  outcomes: readonly PolicyOutcome[],
): Promise<void> {
  if (decision.kind === "plan" && decision.pullRequest !== undefined)
    await labelPullRequest(gh, decision.pullRequest, "plan", outcomes);
  if (decision.kind === "apply" && decision.trigger === "push" && pullRequest !== undefined)
    await labelPullRequest(gh, pullRequest, "apply", outcomes);
}

/**
 * One run of the action: the inputs read (or refused), the event routed, the policy files chosen,
 * each planned or applied, and what they came to — in the job summary, the step's failure and
 * `outputs` (set by the caller whatever happens).
 */
export async function run(
  summary: JobSummary,
  outputs: Outputs,
  controller: AbortController,
  closed: AbortSignal,
): Promise<RunResult> {
  const env = readRunEnv();
  const opened = inputsOrRefuse(summary, env, outputs);
  if (!opened) return "refused";
  const { inputs, events } = opened;
  maskSecrets(inputs);
  const post = new PostState();
  const gh = new GitHubOut(
    inputs.token,
    env.apiUrl,
    env.repo,
    controller.signal,
    runKeyOf(env),
    post,
  );
  const decision = route(
    { eventName: env.eventName, payload: env.payload, sha: env.sha, ref: env.ref },
    {
      mode: inputs.mode,
      replaceAll: inputs.replaceAll,
      deleteAfterDrainTimeout: inputs.deleteAfterDrainTimeout,
      ...(inputs.groups && { groups: inputs.groups }),
      ...(inputs.reason && { reason: inputs.reason }),
      applyRefs: inputs.applyRefs,
      fleet: inputs.fleet !== undefined,
    },
  );
  info(`event ${env.eventName || "(none)"}, mode ${inputs.mode}: ${decision.kind}`);
  if (decision.kind === "skip") return nothingToDo(summary, outputs, decision.why);
  if (decision.kind === "refuse") return refuse(summary, outputs, decision.why);
  if (decision.kind === "plan" && decision.warning) core.warning(decision.warning);
  const ctx = { ...runContext(inputs, env, gh, summary, controller.signal, closed), events };
  if (decision.kind === "fleet-plan") return fleetPlanFlow(ctx, decision, outputs);
  if (inputs.fleet && decision.kind === "apply") {
    const done = await fleetApplyFlow(ctx, applyTarget(decision, undefined));
    if ("refuse" in done) return refuse(summary, outputs, done.refuse);
    return conclude(summary, done, decision, outputs, gh);
  }
  const { files, pullRequest, note, changed } = await selectFiles(inputs, env, gh, decision);
  if (files.length === 0)
    return nothingToDo(
      summary,
      outputs,
      note ?? `no policy file matches \`${inputs.policy.join(", ")}\``,
    );
  const outcomes = await runFlow(ctx, decision, files, pullRequest, changed);
  if (inputs.labels) await label(gh, decision, pullRequest, outcomes);
  return conclude(summary, outcomes, decision, outputs, gh);
}
