// What the runner tells the action about the run: the event and its payload, the repository,
// the commit, the API to talk to, where to write. Read once from the environment.
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import type { RepoRef } from "../adapters/github/client.js";

export interface RunEnv {
  eventName: string;
  payload: Record<string, unknown>;
  sha: string;
  ref: string;
  repo?: RepoRef;
  apiUrl: string;
  runId?: string;
  /** The job's id in the workflow (GITHUB_JOB): jobs of one run tell their locks apart by it. */
  job?: string;
  /** The run's page, linked from check runs and the lease. */
  runUrl?: string;
  /** Who started the run (GITHUB_ACTOR): named with a pause or an abort it asks for. */
  actor?: string;
  workspace: string;
  runnerTemp: string;
}

export function readRunEnv(env: NodeJS.ProcessEnv = process.env): RunEnv {
  const path = env.GITHUB_EVENT_PATH;
  let payload: Record<string, unknown> = {};
  if (path && existsSync(path)) payload = JSON.parse(readFileSync(path, "utf8")) as typeof payload;
  const [owner, name] = (env.GITHUB_REPOSITORY ?? "").split("/");
  const server = env.GITHUB_SERVER_URL ?? "https://github.com";
  const runUrl =
    env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}${env.GITHUB_RUN_ATTEMPT ? `/attempts/${env.GITHUB_RUN_ATTEMPT}` : ""}`
      : undefined;
  return {
    eventName: env.GITHUB_EVENT_NAME ?? "",
    payload,
    sha: env.GITHUB_SHA ?? "",
    ref: env.GITHUB_REF ?? "",
    ...(owner && name && { repo: { owner, repo: name } }),
    apiUrl: env.GITHUB_API_URL ?? "https://api.github.com",
    ...(env.GITHUB_RUN_ID && {
      runId: `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT ?? "1"}`,
    }),
    ...(env.GITHUB_JOB && { job: env.GITHUB_JOB }),
    ...(runUrl && { runUrl }),
    ...(env.GITHUB_ACTOR && { actor: env.GITHUB_ACTOR }),
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    runnerTemp: env.RUNNER_TEMP ?? env.TMPDIR ?? "/tmp",
  };
}

/**
 * This job's own name for itself, unique to the workflow run, its attempt and the job: the
 * cluster lock's holder starts with it, and noderoll's check runs carry it as their external_id,
 * so the post step touches only what this job made.
 */
export function runKeyOf(env: Pick<RunEnv, "runId" | "job">): string {
  return `noderoll-gha-${env.runId ?? process.pid}${env.job ? `-${env.job}` : ""}`;
}

/** A path as GitHub wants it in an annotation: relative to the repository, with "/". */
export function repoPath(file: string, workspace: string): string {
  const rel = isAbsolute(file) ? relative(workspace, file) : file.replace(/^\.\//, "");
  return rel.split(sep).join("/");
}
