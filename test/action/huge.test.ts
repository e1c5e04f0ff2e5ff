// A plan of a huge cluster stays under every GitHub size limit: the sticky comment (65,536
// characters), the check run's title (255) and summary (65,535) — the sandbox's GitHub face
// refuses anything larger, as GitHub does — and the job summary (1 MiB).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { World } from "../../src/sandbox/world/world.js";
import { JobSummary, SUMMARY_LIMIT } from "../../src/action/summary.js";
import { pullRequestPayload, runAction, serve, workspace, type Served } from "./harness.js";

const HEAD = "9a".repeat(20);
const scenario = generateScenario({ nodes: 3000, groups: 40, podsPerNode: 10, seed: 7 });

function policyFor(groups: string[]): string {
  return [
    "apiVersion: noderoll.io/v1",
    "kind: UpgradePolicy",
    "metadata:",
    "  name: huge",
    "cluster:",
    `  name: ${scenario.cluster.name}`,
    `  region: ${scenario.cluster.region}`,
    "groups:",
    ...groups.flatMap((name) => [
      `  - name: ${name}`,
      "    target:",
      name.startsWith("ng-")
        ? '      kubernetesVersion: "1.33"'
        : "      launchTemplateVersion: $Latest",
    ]),
    "",
  ].join("\n");
}

let served: Served;

beforeAll(async () => {
  served = await serve(new World(scenario), {
    pulls: [{ number: 31, headSha: HEAD, files: ["policies/huge.yaml"] }],
  });
});
afterAll(() => served.close());

describe("a plan of a huge cluster", () => {
  it("fits the comment, the check run and the job summary", async () => {
    const groups = scenario.nodeGroups.map((g) => g.name);
    const cwd = workspace({ "policies/huge.yaml": policyFor(groups) });
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(31, HEAD),
      sha: "8b".repeat(20),
      inputs: { policy: "policies/huge.yaml" },
    });
    expect(r.code, r.stdout.slice(-3000) + r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/::warning::Could not/);
    const plan = JSON.parse(readFileSync(r.outputs["plan-json"]!, "utf8"));
    expect(plan.summary.nodesToReplace).toBe(3000);
    const gh = served.server.faces.github;
    const comment = gh.comments.find((c) => c.issue === 31)!;
    expect(comment.body.length).toBeLessThanOrEqual(65_536);
    expect(comment.body).toContain("Plan: 40 groups to roll (3000 nodes)");
    expect(comment.body).toMatch(/<!-- noderoll:policy:huge -->$/);
    const check = gh.checkRuns.find((c) => c.head_sha === HEAD)!;
    expect(check).toMatchObject({ status: "completed" });
    expect(check.output.title!.length).toBeLessThanOrEqual(255);
    expect(check.output.summary!.length).toBeLessThanOrEqual(65_535);
    expect(Buffer.byteLength(r.summary)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(r.summary).toContain("### noderoll plan · `huge`");
  });
});

describe("the job summary", () => {
  it("shares 1 MiB between many plans, counting bytes, not characters", () => {
    const s = new JobSummary();
    s.add("## results\n");
    for (let i = 0; i < 30; i++)
      s.addFitted(
        (d) =>
          `### plan ${i}\n` + "⛔ blocked row 🔄\n".repeat(d.nodeRows === Infinity ? 20_000 : 100),
      );
    const text = s.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(SUMMARY_LIMIT);
    for (let i = 0; i < 30; i++) expect(text).toContain(`### plan ${i}\n`);
    expect(text).toContain("## results");
  });
});
