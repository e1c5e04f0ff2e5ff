// The action's voice on GitHub: check runs and sticky comments, written through one gate that
// never lets a reporting problem break a plan or a roll. A read-only token (a fork's pull
// request) is noticed once and writing stops: the plan still goes to the log and the job
// summary. Rate limits are waited out by the adapters; what still fails is reported as a warning.
import * as core from "@actions/core";
import { CheckRun, type Annotation, type CheckOutput } from "../adapters/github/check-run.js";
import {
  isForbidden,
  makeOctokit,
  withRateLimitRetry,
  type Octokit,
  type RepoRef,
  type RetryOptions,
} from "../adapters/github/client.js";
import { setIssueLabels, type LabelChange } from "../adapters/github/labels.js";
import { readStickyComment, upsertStickyComment } from "../adapters/github/sticky-comment.js";
import { stickyMarker, type Conclusion } from "../render/index.js";
import type { PostState } from "./post-state.js";

/**
 * Rate limits: waits of at most a minute, up to four tries. A secondary limit without
 * Retry-After is retried once, after a minute (the next wait, two, is past the cap); then the
 * write is reported as failed and the run goes on. No waiting once the workflow is cancelled.
 */
const RETRY: RetryOptions = { attempts: 4, maxWaitMs: 60_000 };

export class GitHubOut {
  readonly octokit?: Octokit;
  /** False once a write was refused for want of permission. */
  writable: boolean;
  private warned = new Set<string>();
  /** The pages of the comments and check runs this run wrote, in the order first written. */
  readonly pages = { comments: new Set<string>(), checkRuns: new Set<string>() };

  /** How its calls wait out rate limits. */
  readonly retry: RetryOptions;

  /** `cancelled`: aborted when the workflow is cancelled (no more waiting out limits). */
  constructor(
    token: string,
    apiUrl: string,
    readonly repo: RepoRef | undefined,
    cancelled?: AbortSignal,
    /** This job's reference on what it creates (env.ts runKeyOf): its check runs' external_id. */
    readonly externalId?: string,
    /** Where the check runs it opens and completes are saved for the post step. */
    readonly post?: PostState,
  ) {
    this.octokit = token && repo ? makeOctokit(token, apiUrl) : undefined;
    this.writable = this.octokit !== undefined;
    this.retry = { ...RETRY, ...(cancelled && { signal: cancelled }) };
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    core.warning(message);
  }

  /** Run a write; undefined when it could not be done (the reason is logged once). */
  async write<T>(
    what: string,
    call: (o: Octokit, repo: RepoRef) => Promise<T>,
  ): Promise<T | undefined> {
    if (!this.writable || !this.octokit || !this.repo) return undefined;
    try {
      return await call(this.octokit, this.repo);
    } catch (e) {
      if (isForbidden(e)) {
        this.writable = false;
        this.warnOnce(
          "forbidden",
          `The token may not write to ${this.repo.owner}/${this.repo.repo} (${(e as Error).message}); a pull request from a fork gets a read-only token. The plan is in the job summary and this log instead.`,
        );
        return undefined;
      }
      this.warnOnce(what, `Could not ${what}: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** A read through the API (pull request files, the pull requests of a commit). */
  async read<T>(
    what: string,
    call: (o: Octokit, repo: RepoRef) => Promise<T>,
  ): Promise<T | undefined> {
    if (!this.octokit || !this.repo) return undefined;
    try {
      return await withRateLimitRetry(
        () => call(this.octokit as Octokit, this.repo as RepoRef),
        this.retry,
      );
    } catch (e) {
      this.warnOnce(what, `Could not ${what}: ${(e as Error).message}`);
      return undefined;
    }
  }

  async comment(issue: number, policyName: string, body: string): Promise<boolean> {
    return this.stickyComment(issue, stickyMarker(policyName), body);
  }

  /** The pull request's one comment that carries `marker` (a policy's, a fleet's), made or replaced. */
  async stickyComment(issue: number, marker: string, body: string): Promise<boolean> {
    const r = await this.write("update the pull request comment", (o, repo) =>
      upsertStickyComment(o, repo, issue, marker, body, this.retry),
    );
    if (r?.url) this.pages.comments.add(r.url);
    return r !== undefined;
  }

  /** Set the pull request's labels of ours (labels.ts); never others'. */
  async labels(issue: number, change: LabelChange): Promise<boolean> {
    const r = await this.write(`label pull request #${issue}`, (o, repo) =>
      setIssueLabels(o, repo, issue, change, this.retry),
    );
    return r !== undefined;
  }

  /** The body of the policy's comment on a pull request, if it has one. */
  async commentBody(issue: number, policyName: string): Promise<string | undefined> {
    const found = await this.read(`read the comment of pull request #${issue}`, (o, repo) =>
      readStickyComment(o, repo, issue, stickyMarker(policyName)),
    );
    return found?.body;
  }

  /** A check run on `sha`; its methods never throw (see `write`). */
  checkRun(name: string, sha: string): Check {
    return new Check(this, name, sha);
  }

  /** The changed files of a pull request, through the API (every page). */
  async pullFiles(pull: number): Promise<string[] | undefined> {
    return this.read(`list the files of pull request #${pull}`, async (o, repo) => {
      const files = await o.paginate(o.rest.pulls.listFiles, {
        ...repo,
        pull_number: pull,
        per_page: 100,
      });
      return files.filter((f) => f.status !== "removed").map((f) => f.filename);
    });
  }

  /** The pull request a commit on the default branch came from (its merge commit, or its head). */
  async pullOfCommit(sha: string): Promise<number | undefined> {
    const pulls = await this.read(
      `find the pull request of ${sha.slice(0, 7)}`,
      async (o, repo) => {
        const { data } = await o.rest.repos.listPullRequestsAssociatedWithCommit({
          ...repo,
          commit_sha: sha,
        });
        return data;
      },
    );
    if (!pulls || pulls.length === 0) return undefined;
    const merged =
      pulls.find((p) => p.merge_commit_sha === sha) ?? pulls.find((p) => p.merged_at) ?? pulls[0];
    return merged?.number;
  }
}

export class Check {
  private run?: CheckRun;

  constructor(
    private readonly gh: GitHubOut,
    readonly name: string,
    private readonly sha: string,
  ) {}

  /** Whether the check run exists on GitHub (it was created). */
  get created(): boolean {
    return this.run?.checkRunId !== undefined;
  }

  async start(output: CheckOutput, detailsUrl?: string): Promise<boolean> {
    const made = await this.gh.write(`create the check run "${this.name}"`, async (o, repo) => {
      const run = new CheckRun(o, repo, this.name, this.sha, this.gh.retry);
      await run.start(output, detailsUrl, this.gh.externalId);
      return run;
    });
    this.run = made;
    if (made?.checkRunId !== undefined) this.gh.post?.checkOpened(made.checkRunId, this.name);
    if (made?.url) this.gh.pages.checkRuns.add(made.url);
    return made !== undefined;
  }

  async update(output: CheckOutput): Promise<void> {
    const run = this.run;
    if (!run) return;
    await this.gh.write(`update the check run "${this.name}"`, () => run.update(output));
  }

  async complete(
    conclusion: Conclusion,
    output: CheckOutput,
    annotations: Annotation[] = [],
  ): Promise<boolean> {
    const run = this.run;
    if (!run) return false;
    const r = await this.gh.write(`complete the check run "${this.name}"`, async () => {
      await run.complete(conclusion, output, annotations);
      return true;
    });
    if (r === true && run.checkRunId !== undefined) this.gh.post?.checkClosed(run.checkRunId);
    return r === true;
  }
}
