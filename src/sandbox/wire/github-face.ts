// The GitHub REST subset noderoll uses, with GitHub's limits and error bodies: issue comments,
// check runs, the pull requests of a commit, the files of a pull request and its labels. One
// repository.
import { createHash } from "node:crypto";
import { gitHubPage } from "./github-page.js";
import { json, type Face, type WireRequest, type WireResponse } from "./http-server.js";

export interface SandboxPull {
  number: number;
  headSha: string;
  mergeCommitSha?: string;
  files: string[];
  state?: "open" | "closed";
  merged?: boolean;
  /** When it was merged (the merge endpoint sets it). */
  mergedAt?: string;
  title?: string;
  /** The labels it carries to begin with. */
  labels?: string[];
}

export interface GitHubOptions {
  owner?: string;
  repo?: string;
  pulls?: SandboxPull[];
  /** Tokens that may only read (a fork's pull request): writes answer 403. */
  readOnlyTokens?: string[];
  /** A pull request the scenario does not describe: GitHub's 404, or one that changes this file. */
  unknownPullsChange?: string;
}

export interface Comment {
  id: number;
  issue: number;
  body: string;
  html_url: string;
  user: { login: string; type: string };
  created_at: string;
  updated_at: string;
}

export interface CheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  /** The integrator's own reference for the run (GitHub keeps it as given). */
  external_id?: string;
  output: { title?: string; summary?: string; text?: string; annotations_count: number };
  annotations: unknown[];
  /** Every request that changed it, in order: what a test reads to follow a roll's progress. */
  history: Record<string, unknown>[];
}

const DOCS = "https://docs.github.com/rest";
const COMMENT_LIMIT = 65_536;
const OUTPUT_LIMIT = 65_535;
const ANNOTATIONS_PER_REQUEST = 50;

function error(
  status: number,
  message: string,
  resource: string,
  errors?: unknown[],
): WireResponse {
  return json(
    status,
    { message, ...(errors && { errors }), documentation_url: DOCS, status: String(status) },
    resource,
  );
}

function page<T>(
  req: WireRequest,
  items: T[],
  resource: string,
  wrap?: (items: T[]) => unknown,
): WireResponse {
  const perPage = Math.min(100, Math.max(1, Number(req.query.get("per_page") ?? 30) || 30));
  const pageNo = Math.max(1, Number(req.query.get("page") ?? 1) || 1);
  const slice = items.slice((pageNo - 1) * perPage, pageNo * perPage);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n: number, rel: string) => {
    const q = new URLSearchParams(req.query);
    q.set("page", String(n));
    q.set("per_page", String(perPage));
    return `<${req.headers.host ? `http://${req.headers.host}` : ""}${req.path}?${q}>; rel="${rel}"`;
  };
  const links = [];
  if (pageNo < last) links.push(link(pageNo + 1, "next"), link(last, "last"));
  if (pageNo > 1) links.push(link(1, "first"), link(pageNo - 1, "prev"));
  return json(
    200,
    wrap ? wrap(slice) : slice,
    resource,
    links.length ? { link: links.join(", ") } : {},
  );
}

export class GitHubFace implements Face {
  readonly name = "github";
  readonly owner: string;
  readonly repo: string;
  readonly comments: Comment[] = [];
  readonly checkRuns: CheckRun[] = [];
  /** Each issue's (pull request's) labels, by name, in the order added. */
  readonly labels = new Map<number, string[]>();
  private nextId = 1000;
  /** Answers the next N requests with a secondary rate limit (403), as GitHub does. */
  throttleNext = 0;
  /**
   * The Retry-After those answers carry, in seconds; undefined: none, with the remaining
   * requests of the hour above 0 (GitHub does not always send one for a secondary limit).
   */
  throttleRetryAfter: string | undefined = "1";
  private readonly pulls: SandboxPull[];
  private readonly readOnly: Set<string>;

  constructor(
    private readonly options: GitHubOptions = {},
    private readonly now: () => Date = () => new Date(),
  ) {
    this.owner = options.owner ?? "octo-org";
    this.repo = options.repo ?? "infra";
    this.pulls = options.pulls ?? [];
    this.readOnly = new Set(options.readOnlyTokens ?? []);
    for (const pull of this.pulls) if (pull.labels) this.labels.set(pull.number, [...pull.labels]);
  }

  /** The epoch second an hour from now (x-ratelimit-reset: when the hour's requests renew). */
  #inAnHour(): number {
    return Math.floor(this.now().getTime() / 1000) + 3600;
  }

  handle(req: WireRequest): WireResponse | undefined {
    if (req.method === "GET" && /^\/github\/?$/.test(req.path)) return this.page();
    const prefix = `/repos/${this.owner}/${this.repo}/`;
    if (!req.path.startsWith(prefix))
      return req.path.startsWith("/repos/") ? error(404, "Not Found", "repos") : undefined;
    const rest = req.path.slice(prefix.length).split("/");
    if (this.throttleNext > 0) {
      this.throttleNext--;
      const limited = error(
        403,
        "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        rest[0] ?? "repos",
      );
      const headers: Record<string, string> =
        this.throttleRetryAfter === undefined
          ? { "x-ratelimit-remaining": "4000", "x-ratelimit-reset": String(this.#inAnHour()) }
          : { "retry-after": this.throttleRetryAfter };
      return { ...limited, headers: { ...limited.headers, ...headers } };
    }
    const token = /^(?:token|bearer)\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (!token) return error(401, "Requires authentication", rest[0] ?? "repos");
    if (req.method !== "GET" && this.readOnly.has(token))
      return error(403, "Resource not accessible by integration", rest[0] ?? "repos");
    let body: Record<string, unknown> = {};
    if (req.body) {
      try {
        body = JSON.parse(req.body) as Record<string, unknown>;
      } catch {
        return error(400, "Problems parsing JSON", rest[0] ?? "repos");
      }
    }
    return this.route(req, rest, body);
  }

  private route(req: WireRequest, p: string[], body: Record<string, unknown>): WireResponse {
    const [a, b, c, d] = p;
    const m = req.method;
    if (a === "issues" && c === "comments" && m === "GET")
      return page(
        req,
        this.comments.filter((x) => x.issue === Number(b)),
        "issue-comments",
      );
    if (a === "issues" && c === "comments" && m === "POST")
      return this.createComment(Number(b), body);
    if (a === "issues" && b === "comments" && c && m === "PATCH")
      return this.updateComment(Number(c), body);
    if (a === "issues" && b && c === "labels") return this.issueLabels(req, Number(b), d, body);
    if (a === "check-runs" && !b && m === "POST") return this.createCheckRun(body);
    if (a === "check-runs" && b && m === "PATCH") return this.updateCheckRun(Number(b), body);
    if (a === "check-runs" && b && m === "GET") return this.getCheckRun(Number(b));
    if (a === "pulls" && b && c === "merge" && m === "PUT") return this.merge(Number(b), body);
    if (a === "commits" && c === "check-runs" && m === "GET") {
      const runs = this.checkRuns.filter((r) => r.head_sha === b).map((r) => this.publicRun(r));
      return page(req, runs, "check-runs", (items) => ({
        total_count: runs.length,
        check_runs: items,
      }));
    }
    if (a === "commits" && c === "pulls" && m === "GET") {
      return page(
        req,
        this.pulls
          .filter((x) => x.headSha === b || x.mergeCommitSha === b)
          .map((x) => this.publicPull(x)),
        "commit-pulls",
      );
    }
    if (a === "pulls" && b && !c && m === "GET") {
      const pull = this.pull(Number(b));
      return pull ? json(200, this.publicPull(pull), "pulls") : error(404, "Not Found", "pulls");
    }
    if (a === "pulls" && b && c === "files" && m === "GET") {
      const pull = this.pull(Number(b));
      if (!pull) return error(404, "Not Found", "pull-files");
      return page(
        req,
        pull.files.map((filename) => ({
          filename,
          status: "modified",
          additions: 1,
          deletions: 1,
          changes: 2,
        })),
        "pull-files",
      );
    }
    return error(404, "Not Found", a ?? "repos");
  }

  /**
   * An issue's labels: list (GET), add (POST `{labels: [names]}`; a name the repository does not
   * have yet is created, as GitHub does), remove one (DELETE …/labels/{name}: 404 "Label does
   * not exist" when the issue does not carry it). Both changes answer with what it carries now.
   */
  private issueLabels(
    req: WireRequest,
    issue: number,
    encoded: string | undefined,
    body: Record<string, unknown>,
  ): WireResponse {
    const now = this.labels.get(issue) ?? [];
    const answer = (names: string[], status = 200) =>
      json(
        status,
        names.map((name) => this.label(name)),
        "issue-labels",
      );
    if (req.method === "GET" && !encoded)
      return page(
        req,
        now.map((n) => this.label(n)),
        "issue-labels",
      );
    if (req.method === "POST" && !encoded) {
      const names = body.labels;
      if (!Array.isArray(names) || names.some((n) => typeof n !== "string" || n.length === 0))
        return error(
          422,
          "Invalid request.\n\nFor 'properties/labels', nil is not an array.",
          "issue-labels",
        );
      const after = [...now, ...(names as string[]).filter((n) => !now.includes(n))];
      this.labels.set(issue, after);
      return answer(after);
    }
    if (req.method === "DELETE" && encoded) {
      const name = decodeURIComponent(encoded);
      if (!now.includes(name)) return error(404, "Label does not exist", "issue-labels");
      const after = now.filter((n) => n !== name);
      this.labels.set(issue, after);
      return answer(after);
    }
    return error(404, "Not Found", "issue-labels");
  }

  private label(name: string) {
    return {
      name,
      color: "ededed",
      default: false,
      url: `https://api.github.com/repos/${this.owner}/${this.repo}/labels/${encodeURIComponent(name)}`,
    };
  }

  private publicRun(run: CheckRun) {
    const { history: _history, annotations: _annotations, ...rest } = run;
    return { ...rest, html_url: `https://github.com/${this.owner}/${this.repo}/runs/${run.id}` };
  }

  /**
   * PUT …/pulls/{n}/merge, GitHub's "Merge a pull request": it closes, merged, with a merge
   * commit (a made-up sha, the same for the same pull request and head) that the pulls of a
   * commit lead back to — what a push event to the default branch then names. A `sha` other
   * than its head: 409; one closed already: 405 (GitHub's answers).
   */
  private merge(n: number, body: Record<string, unknown>): WireResponse {
    const pull = this.pulls.find((x) => x.number === n);
    if (!pull) return error(404, "Not Found", "pull-merge");
    if (pull.merged || pull.state === "closed")
      return error(405, "Pull Request is not mergeable", "pull-merge");
    if (body.sha !== undefined && body.sha !== pull.headSha)
      return error(409, "Head branch was modified. Review and try the merge again.", "pull-merge");
    const sha = createHash("sha1")
      .update(`merge ${this.owner}/${this.repo}#${n} ${pull.headSha}`)
      .digest("hex");
    Object.assign(pull, { state: "closed", merged: true, mergeCommitSha: sha });
    pull.mergedAt = this.now().toISOString();
    return json(
      200,
      { sha, merged: true, message: "Pull Request successfully merged" },
      "pull-merge",
    );
  }

  /** GET /github/: the pull requests as a person reads them on GitHub (github-page.ts). */
  private page(): WireResponse {
    const { owner, repo, pulls, comments, checkRuns, labels } = this;
    return gitHubPage({ owner, repo, pulls, comments, checkRuns, labels });
  }

  private pull(n: number): SandboxPull | undefined {
    const known = this.pulls.find((x) => x.number === n);
    if (known || !this.options.unknownPullsChange) return known;
    return {
      number: n,
      headSha: `${n}`.padStart(40, "0"),
      files: [this.options.unknownPullsChange],
    };
  }

  private publicPull(x: SandboxPull) {
    return {
      number: x.number,
      state: x.state ?? "open",
      title: x.title ?? `Pull request #${x.number}`,
      merged: x.merged ?? false,
      merge_commit_sha: x.mergeCommitSha ?? null,
      merged_at: x.mergedAt ?? null,
      head: { sha: x.headSha, ref: `branch-${x.number}` },
      base: { ref: "main" },
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${x.number}`,
    };
  }

  private createComment(issue: number, body: Record<string, unknown>): WireResponse {
    const problem = commentProblem(body.body);
    if (problem)
      return error(422, "Validation Failed", "issue-comments", [
        { resource: "IssueComment", code: "custom", field: "body", message: problem },
      ]);
    const at = this.now().toISOString();
    const id = this.nextId++;
    const comment: Comment = {
      id,
      issue,
      body: body.body as string,
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${issue}#issuecomment-${id}`,
      user: { login: "github-actions[bot]", type: "Bot" },
      created_at: at,
      updated_at: at,
    };
    this.comments.push(comment);
    return json(201, comment, "issue-comments");
  }

  private updateComment(id: number, body: Record<string, unknown>): WireResponse {
    const comment = this.comments.find((c) => c.id === id);
    if (!comment) return error(404, "Not Found", "issue-comments");
    const problem = commentProblem(body.body);
    if (problem)
      return error(422, "Validation Failed", "issue-comments", [
        { resource: "IssueComment", code: "custom", field: "body", message: problem },
      ]);
    comment.body = body.body as string;
    comment.updated_at = this.now().toISOString();
    return json(200, comment, "issue-comments");
  }

  private createCheckRun(body: Record<string, unknown>): WireResponse {
    if (typeof body.name !== "string" || typeof body.head_sha !== "string") {
      return error(422, 'Invalid request.\n\n"name", "head_sha" wasn\'t supplied.', "check-runs");
    }
    const run: CheckRun = {
      id: this.nextId++,
      name: body.name,
      head_sha: body.head_sha,
      status: "queued",
      conclusion: null,
      output: { annotations_count: 0 },
      annotations: [],
      history: [],
    };
    const problem = this.applyCheckRun(run, body);
    if (problem) return problem;
    this.checkRuns.push(run);
    return json(201, this.publicRun(run), "check-runs");
  }

  private updateCheckRun(id: number, body: Record<string, unknown>): WireResponse {
    const run = this.checkRuns.find((r) => r.id === id);
    if (!run) return error(404, "Not Found", "check-runs");
    return this.applyCheckRun(run, body) ?? json(200, this.publicRun(run), "check-runs");
  }

  private getCheckRun(id: number): WireResponse {
    const run = this.checkRuns.find((r) => r.id === id);
    return run
      ? json(200, this.publicRun(run), "check-runs")
      : error(404, "Not Found", "check-runs");
  }

  /** Checks GitHub's limits first, so a refused request changes nothing. */
  private applyCheckRun(run: CheckRun, body: Record<string, unknown>): WireResponse | undefined {
    const output = (body.output ?? {}) as {
      title?: string;
      summary?: string;
      text?: string;
      annotations?: unknown[];
    };
    for (const field of ["summary", "text"] as const) {
      if ((output[field]?.length ?? 0) > OUTPUT_LIMIT) {
        return error(
          422,
          `Invalid request.\n\nOnly ${OUTPUT_LIMIT} characters are allowed in output.${field}; ${output[field]?.length} were supplied.`,
          "check-runs",
        );
      }
    }
    if ((output.annotations?.length ?? 0) > ANNOTATIONS_PER_REQUEST) {
      return error(
        422,
        `Invalid request.\n\nOnly ${ANNOTATIONS_PER_REQUEST} annotations are allowed per request; ${output.annotations?.length} were supplied.`,
        "check-runs",
      );
    }
    if (body.conclusion !== undefined && body.status !== undefined && body.status !== "completed") {
      return error(
        422,
        "Invalid request.\n\nA conclusion requires status completed.",
        "check-runs",
      );
    }
    if (typeof body.status === "string") run.status = body.status;
    if (typeof body.external_id === "string") run.external_id = body.external_id;
    if (typeof body.conclusion === "string") {
      run.conclusion = body.conclusion;
      run.status = "completed";
    }
    if (body.output) {
      run.output = {
        ...run.output,
        title: output.title ?? run.output.title,
        summary: output.summary ?? run.output.summary,
        text: output.text ?? run.output.text,
      };
      run.annotations.push(...(output.annotations ?? []));
      run.output.annotations_count = run.annotations.length;
    }
    run.history.push(body);
    return undefined;
  }
}

function commentProblem(body: unknown): string | undefined {
  if (typeof body !== "string" || body.length === 0) return "body wasn't supplied.";
  if (body.length > COMMENT_LIMIT)
    return `Body is too long (maximum is ${COMMENT_LIMIT} characters)`;
  return undefined;
}
