// `noderoll sandbox serve` given pull requests and a fork's read-only token on its command line,
// as a person runs it to try the action's pull-request loop without GitHub: the pull requests
// are there (head, files), a merge (GitHub's merge endpoint) gives the merge commit the push
// event names, and GET /github/ is a page listing each pull request with its comments and the
// check runs. Bad flags are usage errors, and nothing is served.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { getOctokit } from "@actions/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/cli.js";

const repo = { owner: "acme", repo: "platform" };
const FORK = "ghs_fork0000";
let url = "";
let stdout = "";
let stop: () => Promise<number | null>;

beforeAll(async () => {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, "dist/cli.js"),
      "sandbox",
      "serve",
      "--repo",
      "acme/platform",
      "--pull",
      "7:policies/demo.yaml,README.md",
      "--pull",
      "9:policies/demo.yaml",
      "--read-only-token",
      FORK,
      "--speed",
      "0",
    ],
    { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME } },
  );
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  stop = () => (child.kill("SIGTERM"), exited);
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", () => stdout.includes("export GITHUB_API_URL=") && resolve());
    void exited.then(() => reject(new Error(`serve exited: ${stderr}`)));
  });
  url = /export GITHUB_API_URL=(\S+)/.exec(stdout)![1]!;
}, 60_000);
afterAll(async () => expect(await stop()).toBe(0));

const octokit = (token = "ghs_write0000") =>
  getOctokit(token, { baseUrl: url, retry: { enabled: false }, request: { retries: 0 } });

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    return (e as { status: number }).status;
  }
}

describe("sandbox serve --pull --read-only-token --repo", () => {
  it("says which pull requests it holds, their heads, and where the page is", async () => {
    const { data } = await octokit().rest.pulls.get({ ...repo, pull_number: 7 });
    expect(data.head.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(stdout).toContain(
      `pull request #7   head ${data.head.sha}, changes policies/demo.yaml, README.md`,
    );
    expect(stdout).toContain(`GitHub page      ${url}/github/`);
    expect(stdout).toContain(`read-only token  ${FORK}`);
    expect(stdout).toContain("export GITHUB_REPOSITORY=acme/platform");
    const files = await octokit().rest.pulls.listFiles({ ...repo, pull_number: 7 });
    expect(files.data.map((f) => f.filename)).toEqual(["policies/demo.yaml", "README.md"]);
  });

  it("refuses writes with the read-only token, as for a fork's pull request", async () => {
    const fork = octokit(FORK);
    expect(
      await status(fork.rest.issues.createComment({ ...repo, issue_number: 9, body: "x" })),
    ).toBe(403);
    expect(await status(fork.rest.pulls.merge({ ...repo, pull_number: 9 }))).toBe(403);
    expect((await fork.rest.pulls.get({ ...repo, pull_number: 9 })).data.state).toBe("open");
  });

  it("merges a pull request: its merge commit leads back to it, once", async () => {
    const gh = octokit();
    const head = (await gh.rest.pulls.get({ ...repo, pull_number: 7 })).data.head.sha;
    expect(
      await status(gh.rest.pulls.merge({ ...repo, pull_number: 7, sha: "f".repeat(40) })),
    ).toBe(409);
    const { data: merge } = await gh.rest.pulls.merge({ ...repo, pull_number: 7, sha: head });
    expect(merge).toMatchObject({ merged: true, message: "Pull Request successfully merged" });
    expect(merge.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(merge.sha).not.toBe(head);
    const { data: pulls } = await gh.rest.repos.listPullRequestsAssociatedWithCommit({
      ...repo,
      commit_sha: merge.sha,
    });
    expect(pulls.map((p) => [p.number, p.state, p.merge_commit_sha])).toEqual([
      [7, "closed", merge.sha],
    ]);
    expect(pulls[0]!.merged_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await status(gh.rest.pulls.merge({ ...repo, pull_number: 7 }))).toBe(405);
    expect(await status(gh.rest.pulls.merge({ ...repo, pull_number: 99 }))).toBe(404);
  });

  it("shows each pull request's comments and check runs on a page at /github/", async () => {
    const gh = octokit();
    const head = (await gh.rest.pulls.get({ ...repo, pull_number: 9 })).data.head.sha;
    await gh.rest.issues.createComment({
      ...repo,
      issue_number: 9,
      body: "<!-- hidden marker -->\n### Plan\n\n**3 groups** to roll\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    });
    const { data: run } = await gh.rest.checks.create({
      ...repo,
      name: "noderoll plan / demo",
      head_sha: head,
      status: "in_progress",
    });
    await gh.rest.checks.update({
      ...repo,
      check_run_id: run.id,
      conclusion: "success",
      output: { title: "Plan: 3 groups to roll (17 nodes)", summary: "s" },
    });
    const res = await fetch(`${url}/github/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    // What was posted is shown as GitHub renders it, but no script on it runs.
    expect(res.headers.get("content-security-policy")).toContain("script-src 'none'");
    const html = await res.text();
    expect(html).toContain("<title>acme/platform: pull requests</title>");
    expect(html).toMatch(/#7 Pull request #7[\s\S]*merged/);
    expect(html).toContain("<h3>Plan</h3>");
    expect(html).toContain("<strong>3 groups</strong> to roll");
    expect(html).toContain("<td>1</td>");
    expect(html).toContain("noderoll plan / demo");
    expect(html).toContain("completed · success · Plan: 3 groups to roll (17 nodes)");
    const section9 = html.slice(html.indexOf('id="pull-9"'));
    expect(section9).toContain("github-actions[bot]");
    expect(section9).toContain(head.slice(0, 7));
    expect((await fetch(`${url}/github`)).status).toBe(200);
  });
});

describe("sandbox serve with bad GitHub flags", () => {
  it.each([
    [["--pull", "seven:policies/demo.yaml"], "--pull takes N:FILE[,FILE]..."],
    [["--pull", "7"], "--pull takes N:FILE[,FILE]..."],
    [["--pull", "7:"], "--pull takes N:FILE[,FILE]..."],
    [["--pull", "7:a.yaml", "--pull", "7:b.yaml"], "--pull 7 is given twice"],
    [["--repo", "platform"], "--repo takes OWNER/NAME"],
  ])("%j is a usage error and serves nothing", (flags, message) => {
    const r = runCli(["sandbox", "serve", ...flags]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe("");
  });
});
