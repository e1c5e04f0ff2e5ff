// What the plan and apply flows share: the inputs, the run's environment, the GitHub writer,
// the job summary, how to reach a cluster, and what each policy came to.
import type { PostState } from "./post-state.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LivePorts } from "../adapters/connect.js";
import type { Plan } from "../plan/index.js";
import * as core from "@actions/core";
import { unknownGroupsProblem, type Policy } from "../policy/index.js";
import { renderPlanJson } from "../render/index.js";
import { CANCELLED_WORDS } from "../ports/index.js";
import type { RunEnv } from "./env.js";
import type { EventsFile } from "./events-file.js";
import type { GitHubOut } from "./github.js";
import type { ActionInputs } from "./inputs.js";
import type { JobSummary } from "./summary.js";

export interface RunContext {
  inputs: ActionInputs;
  env: RunEnv;
  gh: GitHubOut;
  summary: JobSummary;
  /** What this job holds that its post step would undo (locks, open check runs). */
  post: PostState;
  connect(policy: Policy): Promise<LivePorts>;
  /** Aborted on SIGTERM / SIGINT: a cancelled workflow. */
  signal: AbortSignal;
  /** Where every roll's events are written (the `events-file` output). */
  events?: EventsFile;
}

export type PolicyResult =
  "planned" | "invalid" | "refused" | "error" | "success" | "failure" | "cancelled" | "skipped";

/** What a policy's roll did (report.ts), or its plan would do. */
export interface RollReport {
  cluster: string;
  /** A roll: the nodes replaced; a plan: the nodes it would replace. */
  nodes: number;
  /** A roll: the groups it rolled to the end; a plan: those it would roll or reconfigure. */
  groups: string[];
  /** Groups that stop the roll, each with a word on why ("PDB", a finding's code, "failed"). */
  blocked: { group: string; why: string }[];
  /** A roll: how long it took; a plan: its estimate. */
  durationMs?: number;
  /** Whether it is what a plan would do, not what a roll did. */
  planned: boolean;
}

export interface PolicyOutcome {
  file: string;
  name: string;
  result: PolicyResult;
  hasChanges: boolean;
  planJson?: string;
  message?: string;
  /** What it replaced, rolled and found blocked (a plan: would), for the outputs. */
  report?: RollReport;
}

/** Write the plan's JSON under RUNNER_TEMP for later steps (the `plan-json` output). */
export function writePlanJson(ctx: RunContext, plan: Plan, taken: Set<string>): string {
  const dir = join(ctx.env.runnerTemp, "noderoll");
  mkdirSync(dir, { recursive: true });
  let base = `${plan.policy.name}.plan.json`;
  for (let i = 2; taken.has(base); i++) base = `${plan.policy.name}-${i}.plan.json`;
  taken.add(base);
  const path = join(dir, base);
  writeFileSync(path, renderPlanJson(plan));
  return path;
}

/** A `groups` input that names a group the policy does not have: refused, nothing is read. */
export function refuseUnknownGroups(
  ctx: RunContext,
  file: string,
  policy: Policy,
  groups: readonly string[] | undefined,
): PolicyOutcome | undefined {
  const problem = unknownGroupsProblem(policy, groups, "input groups");
  if (!problem) return undefined;
  core.error(`${file}: ${problem}`);
  ctx.summary.add(`### noderoll · \`${policy.metadata.name}\` · ❌ refused\n\n${problem}\n`);
  return {
    file,
    name: policy.metadata.name,
    result: "refused",
    hasChanges: false,
    message: problem,
  };
}

export function errorMessage(e: unknown): string {
  const err = e as { message?: string; name?: string };
  // A read the cancelled workflow stopped: said in words, not as Node's AbortError.
  if (err?.name === "AbortError") return CANCELLED_WORDS;
  return err?.message ?? String(e);
}
