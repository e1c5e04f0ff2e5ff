// Merges as they happen on GitHub, through the bundled action against `sandbox serve`:
// - GitHub cancels a *pending* job when a newer one joins its concurrency group, so a merge
//   queued behind a roll can vanish; the next push (here one that changes no policy at all)
//   plans every policy and applies the one whose plan still has work.
// - The plan reviewed on the pull request is carried in its comment; when the plan at merge
//   differs (a newer EKS release made `latest` move), apply says what changed, everywhere.
import { afterEach, describe, expect, it } from "vitest";
import {
  fastDemoPolicy,
  pullRequestPayload,
  pushPayload,
  runAction,
  serve,
  workspace,
  type Served,
} from "./harness.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const merged = (number: number, mergeCommitSha: string, files: string[]) => ({
  number,
  headSha: `${number}`.padEnd(40, "e"),
  mergeCommitSha,
  files,
  state: "closed" as const,
  merged: true,
});

describe("a merge whose job GitHub cancelled", () => {
  it("is applied by the next push, which changed no policy", async () => {
    const lost = "4d".repeat(20);
    const next = "5e".repeat(20);
    served = await serve(undefined, {
      pulls: [merged(12, lost, ["policies/demo.yaml"]), merged(13, next, ["README.md"])],
    });
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy(), "README.md": "docs\n" });
    // Merge #12's job was cancelled while it waited: nothing ran for it. Merge #13 runs.
    const r = await runAction({
      served,
      cwd,
      event: "push",
      payload: pushPayload(next, ["README.md"]),
      sha: next,
      inputs: { policy: "policies/*.yaml" },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.result).toBe("success");
    expect(r.stdout).toContain(
      "this push did not change policies/demo.yaml, but its plan has 17 node(s) to replace",
    );
    const check = served.server.faces.github.checkRuns.find(
      (c) => c.name === "noderoll apply / demo",
    )!;
    expect(check).toMatchObject({ head_sha: next, status: "completed", conclusion: "success" });
    // And a push after it finds nothing left: no check run, nothing rolled.
    const again = await runAction({
      served,
      cwd,
      event: "push",
      payload: pushPayload(next, ["README.md"]),
      sha: next,
      inputs: { policy: "policies/*.yaml" },
    });
    expect(again.outputs.result).toBe("skipped");
    expect(again.stdout).toContain("and the cluster matches it: nothing to do");
  });
});

describe("the plan at merge against the plan reviewed", () => {
  it("says what changed since the review when `$Latest` moved", async () => {
    const head = "6f".repeat(20);
    const merge = "7a".repeat(20);
    served = await serve(undefined, {
      pulls: [{ ...merged(21, merge, ["policies/demo.yaml"]), headSha: head }],
    });
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy() });
    const planned = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(21, head),
      sha: "8b".repeat(20),
      inputs: { policy: "policies/demo.yaml" },
    });
    expect(planned.code, planned.stdout).toBe(0);
    const gh = served.server.faces.github;
    const reviewed = gh.comments.find((c) => c.issue === 21)!.body;
    expect(reviewed).toMatch(/<!-- noderoll:reviewed [\w-]+ -->/);
    expect(reviewed).toContain(`commit \`${head.slice(0, 7)}\``);
    // A new launch template version is published between the review and the merge: the
    // policy's `$Latest` now means 8, not 7.
    const ec2 = served.world.ec2;
    const template = ec2.template("workers");
    const { number: before, createdAt: _, ...latest } = template.versions.at(-1)!;
    ec2.addTemplateVersion(template, latest);
    const r = await runAction({
      served,
      cwd,
      event: "push",
      payload: pushPayload(merge, ["policies/demo.yaml"]),
      sha: merge,
      inputs: { policy: "policies/demo.yaml" },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const drift = `\`workers\`: launchTemplateVersion ${before} → ${before + 1}`;
    expect(r.stdout).toContain(drift.replace(/`/g, ""));
    const body = gh.comments.find((c) => c.issue === 21)!.body;
    expect(body).toContain(
      "> **The plan applied differs from the one reviewed on the pull request:**",
    );
    expect(body).toContain(`> - ${drift}`);
    const check = gh.checkRuns.find((c) => c.name === "noderoll apply / demo")!;
    expect((check.output as { summary: string }).summary).toContain(drift);
  });
});
