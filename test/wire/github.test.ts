// The sandbox's GitHub face, driven by the real Octokit that @actions/github ships: the calls
// noderoll makes, GitHub's size limits, read-only tokens, pagination and the request log.
import { getOctokit } from "@actions/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitHubFace } from "../../src/sandbox/wire/github-face.js";
import { startWireServer, type WireServer } from "../../src/sandbox/wire/http-server.js";

let server: WireServer;
let face: GitHubFace;
const repo = { owner: "octo-org", repo: "infra" };
const sha = "a".repeat(40);

beforeAll(async () => {
  face = new GitHubFace({
    ...repo,
    readOnlyTokens: ["fork-token"],
    pulls: [
      {
        number: 7,
        headSha: sha,
        mergeCommitSha: "b".repeat(40),
        files: Array.from({ length: 130 }, (_, i) => `f${i}.txt`).concat("policies/prod.yaml"),
      },
    ],
  });
  server = await startWireServer([face]);
});
afterAll(() => server.close());

const octokit = (token = "write-token") =>
  getOctokit(token, { baseUrl: server.url, retry: { enabled: false }, request: { retries: 0 } });

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    return (e as { status: number }).status;
  }
}

describe("GitHub face", () => {
  it("creates, lists with pagination and updates issue comments", async () => {
    const gh = octokit();
    for (let i = 0; i < 35; i++)
      await gh.rest.issues.createComment({ ...repo, issue_number: 7, body: `comment ${i}` });
    const all = await gh.paginate(gh.rest.issues.listComments, {
      ...repo,
      issue_number: 7,
      per_page: 10,
    });
    expect(all.map((c) => c.body)).toEqual(Array.from({ length: 35 }, (_, i) => `comment ${i}`));
    const first = all[0]!;
    const updated = await gh.rest.issues.updateComment({
      ...repo,
      comment_id: first.id,
      body: "replaced",
    });
    expect(updated.data.body).toBe("replaced");
    expect(face.comments.filter((c) => c.issue === 7)).toHaveLength(35);
  });

  it("refuses a comment over 65,536 characters with 422 and keeps the old body", async () => {
    const gh = octokit();
    const { data } = await gh.rest.issues.createComment({ ...repo, issue_number: 8, body: "ok" });
    expect(
      await status(
        gh.rest.issues.createComment({ ...repo, issue_number: 8, body: "x".repeat(65_537) }),
      ),
    ).toBe(422);
    expect(
      await status(
        gh.rest.issues.updateComment({ ...repo, comment_id: data.id, body: "x".repeat(65_537) }),
      ),
    ).toBe(422);
    expect(
      await status(
        gh.rest.issues.createComment({ ...repo, issue_number: 8, body: "x".repeat(65_536) }),
      ),
    ).toBe(200);
    expect(face.comments.find((c) => c.id === data.id)?.body).toBe("ok");
  });

  it("answers 403 to writes with a read-only token, as for a fork's pull request", async () => {
    const gh = octokit("fork-token");
    expect(
      await status(gh.rest.issues.createComment({ ...repo, issue_number: 7, body: "hi" })),
    ).toBe(403);
    expect(await status(gh.rest.checks.create({ ...repo, name: "x", head_sha: sha }))).toBe(403);
    const files = await gh.paginate(gh.rest.pulls.listFiles, {
      ...repo,
      pull_number: 7,
      per_page: 100,
    });
    expect(files).toHaveLength(131);
    expect(files.at(-1)?.filename).toBe("policies/prod.yaml");
  });

  it("moves a check run through its states and enforces output and annotation limits", async () => {
    const gh = octokit();
    const { data: run } = await gh.rest.checks.create({
      ...repo,
      name: "noderoll plan / prod",
      head_sha: sha,
      status: "in_progress",
      output: { title: "t", summary: "s" },
    });
    const tooMany = Array.from({ length: 51 }, (_, i) => ({
      path: "p.yaml",
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: "failure" as const,
      message: "m",
    }));
    expect(
      await status(
        gh.rest.checks.update({
          ...repo,
          check_run_id: run.id,
          output: { title: "t", summary: "s", annotations: tooMany },
        }),
      ),
    ).toBe(422);
    expect(
      await status(
        gh.rest.checks.update({
          ...repo,
          check_run_id: run.id,
          output: { title: "t", summary: "s".repeat(65_536) },
        }),
      ),
    ).toBe(422);
    await gh.rest.checks.update({
      ...repo,
      check_run_id: run.id,
      output: { title: "t", summary: "s", annotations: tooMany.slice(0, 50) },
    });
    await gh.rest.checks.update({
      ...repo,
      check_run_id: run.id,
      output: { title: "t", summary: "s", annotations: tooMany.slice(50) },
    });
    await gh.rest.checks.update({
      ...repo,
      check_run_id: run.id,
      status: "completed",
      conclusion: "success",
    });
    const { data } = await gh.rest.checks.listForRef({ ...repo, ref: sha });
    expect(data.total_count).toBe(1);
    expect(data.check_runs[0]).toMatchObject({
      name: "noderoll plan / prod",
      status: "completed",
      conclusion: "success",
      output: { annotations_count: 51 },
    });
    expect(face.checkRuns[0]?.history.map((h) => h.status ?? "-")).toEqual([
      "in_progress",
      "-",
      "-",
      "completed",
    ]);
  });

  it("finds the pull requests of a merge commit and answers 404 for unknown ones", async () => {
    const gh = octokit();
    const { data } = await gh.rest.repos.listPullRequestsAssociatedWithCommit({
      ...repo,
      commit_sha: "b".repeat(40),
    });
    expect(data.map((p) => p.number)).toEqual([7]);
    expect(await status(gh.rest.pulls.get({ ...repo, pull_number: 99 }))).toBe(404);
    expect(await status(gh.rest.pulls.get({ ...repo, pull_number: 7 }))).toBe(200);
  });

  it("answers bad requests with GitHub's error bodies, and logs every request", async () => {
    const res = await fetch(`${server.url}/repos/octo-org/infra/issues/7/comments`, {
      method: "POST",
      headers: { authorization: "token t" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: "Problems parsing JSON" });
    const unauth = await fetch(`${server.url}/repos/octo-org/infra/issues/7/comments`);
    expect(unauth.status).toBe(401);
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
    const counts = server.log.counts("github");
    expect(counts["POST issue-comments"]).toBeGreaterThanOrEqual(35);
    expect(server.log.mutating("github").every((e) => e.method !== "GET")).toBe(true);
  });
});

describe("GitHub face with unknown pull requests answered as demo pulls", () => {
  it("says the demo policy changed", async () => {
    const demo = new GitHubFace({ unknownPullsChange: "policies/demo.yaml" });
    const s = await startWireServer([demo]);
    try {
      const gh = getOctokit("t", { baseUrl: s.url });
      const files = await gh.rest.pulls.listFiles({
        owner: "octo-org",
        repo: "infra",
        pull_number: 123,
      });
      expect(files.data.map((f) => f.filename)).toEqual(["policies/demo.yaml"]);
    } finally {
      await s.close();
    }
  });
});
