// The bundled action on pull requests, against `sandbox serve`: one sticky comment per policy
// (a second run replaces its body), a completed plan check run on the head commit, annotations
// for a broken policy, a glob narrowed to the files the pull request changes, a fork's
// read-only token, and not one mutating AWS or Kubernetes request.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fastDemoPolicy,
  pullRequestPayload,
  READ_ONLY_TOKEN,
  runAction,
  serve,
  workspace,
  type Served,
} from "./harness.js";

const HEAD = "a1".repeat(20);
const BROKEN_HEAD = "b2".repeat(20);
const FORK_HEAD = "c3".repeat(20);

const BROKEN = `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata:
  name: broken
cluster: { name: demo, region: eu-west-1 }
defaults:
  maxUnavailble: 1
  maxSurge: "110%"
groups:
  - name: workers
    maxSurge: 2
`;

let served: Served;
let cwd: string;

beforeAll(async () => {
  served = await serve(undefined, {
    pulls: [
      { number: 7, headSha: HEAD, files: ["policies/demo.yaml", "README.md"] },
      { number: 8, headSha: BROKEN_HEAD, files: ["policies/broken.yaml"] },
      { number: 9, headSha: FORK_HEAD, files: ["policies/demo.yaml"] },
    ],
  });
  cwd = workspace({
    "policies/demo.yaml": fastDemoPolicy(),
    "policies/broken.yaml": BROKEN,
    "policies/other.yaml": fastDemoPolicy().replace("name: demo\ncluster", "name: other\ncluster"),
  });
});
afterAll(() => served.close());

const github = () => served.server.faces.github;
const mutatingClusterRequests = () =>
  served.server.log.mutating().filter((e) => e.face !== "github" && e.face !== "sts");

describe("action on a pull request", () => {
  it("plans the changed policy: one sticky comment, a completed check run, nothing mutated", async () => {
    const run = () =>
      runAction({
        served,
        cwd,
        event: "pull_request",
        payload: pullRequestPayload(7, HEAD),
        sha: "e".repeat(40),
        ref: "refs/pull/7/merge",
        inputs: { policy: "policies/*.yaml" },
      });
    const first = await run();
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const ours = () => github().comments.filter((c) => c.issue === 7);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.body).toContain("Plan: 3 groups to roll (17 nodes)");
    expect(ours()[0]!.body).toContain("<!-- noderoll:policy:demo -->");
    // The glob was narrowed to what the pull request changes: only demo.yaml was planned.
    expect(first.stdout).toContain("not planned (this pull request does not change them)");
    expect(github().checkRuns.map((r) => r.name)).toEqual(["noderoll plan / demo"]);
    const check = github().checkRuns[0]!;
    expect(check).toMatchObject({ head_sha: HEAD, status: "completed", conclusion: "success" });
    expect(check.output.title).toBe(
      "Plan: 3 groups to roll (17 nodes), 0 config changes, 0 blocked.",
    );
    // Which commit and which run, in the comment and the check run alike.
    expect(ours()[0]!.body).toContain(`commit \`${HEAD.slice(0, 7)}\` · [workflow run](`);
    expect(check.output.summary).toContain(`commit \`${HEAD.slice(0, 7)}\``);
    // Preflight findings point at the group's `- name:` line of the policy.
    expect(check.annotations).toContainEqual(
      expect.objectContaining({
        path: "policies/demo.yaml",
        start_line: fastDemoPolicy().split("\n").indexOf("  - name: system") + 1,
        annotation_level: "warning",
        message: expect.stringMatching(
          /^groups\[0\]\.name: system: system launches 6 nodes at once/,
        ),
      }),
    );
    expect(first.outputs["has-changes"]).toBe("true");
    expect(first.outputs.result).toBe("planned");
    const plan = JSON.parse(readFileSync(first.outputs["plan-json"]!, "utf8"));
    expect(plan.summary.nodesToReplace).toBe(17);
    expect(first.summary).toContain("### noderoll plan · `demo`");
    // rehearse: auto rehearses a pull request's plan of a small cluster: the job summary, like
    // the comment, has the down workload at the top and the rehearsal's own section.
    for (const text of [first.summary, ours()[0]!.body]) {
      expect(text).toContain("#### Rehearsal on a twin of the cluster");
      expect(text).toContain("The rehearsal takes 1 workload down:** `Deployment/default/legacy`");
    }
    expect(plan.rehearsal.result).toBe("success");

    const second = await run();
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.updated_at >= ours()[0]!.created_at).toBe(true);
    expect(github().checkRuns.filter((r) => r.name === "noderoll plan / demo")).toHaveLength(2);
    expect(mutatingClusterRequests()).toEqual([]);
  });

  it("rehearse: false plans without a rehearsal: none in the summary, the comment or the JSON", async () => {
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(7, HEAD),
      sha: "e".repeat(40),
      ref: "refs/pull/7/merge",
      inputs: { policy: "policies/*.yaml", rehearse: "false" },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.summary).toContain("### noderoll plan · `demo`");
    expect(r.summary).not.toContain("Rehearsal on a twin");
    expect(JSON.parse(readFileSync(r.outputs["plan-json"]!, "utf8")).rehearsal).toBeUndefined();
    expect(mutatingClusterRequests()).toEqual([]);
  });

  it("annotates a broken policy on its YAML lines through the check run and fails", async () => {
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(8, BROKEN_HEAD),
      sha: "f".repeat(40),
      inputs: { policy: "policies/*.yaml" },
    });
    expect(r.code).toBe(1);
    const check = github().checkRuns.find((c) => c.head_sha === BROKEN_HEAD)!;
    expect(check).toMatchObject({
      name: "noderoll plan / broken",
      status: "completed",
      conclusion: "failure",
    });
    expect(check.annotations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: "policies/broken.yaml",
          start_line: 7,
          annotation_level: "failure",
          message: expect.stringContaining('did you mean "maxUnavailable"'),
        }),
        expect.objectContaining({ path: "policies/broken.yaml", start_line: 8 }),
        expect.objectContaining({ path: "policies/broken.yaml", start_line: 11 }),
      ]),
    );
    const comment = github().comments.filter((c) => c.issue === 8);
    expect(comment).toHaveLength(1);
    expect(comment[0]!.body).toContain("invalid policy");
    expect(r.outputs).toMatchObject({ result: "invalid", valid: "false", "has-changes": "false" });
    expect(r.stdout).toContain("::error::invalid policy: policies/broken.yaml");
    expect(mutatingClusterRequests()).toEqual([]);
  });

  it("sends more than 50 annotations in batches of 50, the conclusion last", async () => {
    const groups = Array.from({ length: 60 }, (_, i) => `  - name: g${i}\n    maxSurge: 1\n`).join(
      "",
    );
    const many = workspace({
      "policies/many.yaml": BROKEN.replace(/groups:[\s\S]*$/, `groups:\n${groups}`).replace(
        "name: broken",
        "name: many",
      ),
    });
    const sha = "ab".repeat(20);
    const r = await runAction({
      served,
      cwd: many,
      event: "pull_request",
      payload: pullRequestPayload(8, sha),
      sha,
      inputs: { policy: "policies/many.yaml", comment: "false" },
    });
    expect(r.code).toBe(1);
    const check = github().checkRuns.find((c) => c.head_sha === sha)!;
    const batches = check.history.map((h) => [
      (h.output as { annotations?: unknown[] }).annotations?.length ?? 0,
      h.conclusion ?? null,
    ]);
    const n = check.annotations.length;
    expect(n).toBeGreaterThan(60);
    expect(batches).toEqual([
      [0, null],
      [50, null],
      [n - 50, "failure"],
    ]);
    expect(batches.every(([n]) => (n as number) <= 50)).toBe(true);
  });

  it("waits out GitHub's secondary rate limit (403 + Retry-After) and still reports", async () => {
    const before = github().checkRuns.length;
    github().throttleNext = 2;
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(7, HEAD),
      sha: "e".repeat(40),
      inputs: { policy: "policies/demo.yaml" },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(github().throttleNext).toBe(0);
    expect(r.stdout).not.toMatch(/::warning::Could not/);
    expect(github().checkRuns.length).toBe(before + 1);
    expect(github().comments.filter((c) => c.issue === 7)).toHaveLength(1);
  });

  it("reaches Kubernetes with an EKS token when no kubeconfig is given", async () => {
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(7, HEAD),
      sha: "e".repeat(40),
      inputs: { policy: "policies/demo.yaml", comment: "false", "check-run": "false" },
      kubeconfig: false,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ result: "planned", "has-changes": "true" });
    expect(
      served.server.log.entries.some((e) => e.face === "eks" && e.resource === "DescribeCluster"),
    ).toBe(true);
  });

  it("with a fork's read-only token, still plans into the log and the summary and does not fail", async () => {
    const before = github().comments.length;
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(9, FORK_HEAD),
      sha: "d".repeat(40),
      inputs: { policy: "policies/demo.yaml", "github-token": READ_ONLY_TOKEN },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/::warning::The token may not write to octo-org\/infra/);
    expect(r.stdout).toContain("Plan: 3 groups to roll (17 nodes)");
    expect(r.summary).toContain("### noderoll plan · `demo`");
    expect(github().comments.length).toBe(before);
    expect(github().checkRuns.some((c) => c.head_sha === FORK_HEAD)).toBe(false);
    // The token is registered as a secret (the runner masks it) and never printed otherwise.
    expect(r.stdout).toContain(`::add-mask::${READ_ONLY_TOKEN}`);
    expect(r.stdout.split(READ_ONLY_TOKEN)).toHaveLength(2);
  });
});
