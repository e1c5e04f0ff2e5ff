// The bundled action applying, against `sandbox serve`: a merge (push to the default branch)
// rolls the changed policy to convergence with the check run moving through every phase of
// every group and the merged pull request's comment following it; an emergency dispatch with
// delete-after-drain-timeout gets past a blocking PodDisruptionBudget and says so, and without a
// reason it refuses (so does the old force input, whatever the reason);
// a cancelled workflow (SIGTERM) stops cleanly and completes the check run as cancelled.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_SCENARIO_YAML } from "../../src/sandbox/scenarios/demo.js";
import { PHASES } from "../../src/ports/index.js";
import {
  dispatchPayload,
  fastDemoPolicy,
  pullRequestPayload,
  pushPayload,
  runAction,
  serve,
  workspace,
  type Served,
} from "./harness.js";

const PR_HEAD = "1a".repeat(20);
const MERGE = "2b".repeat(20);

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The cell of `phase` in `group`'s row of a progress table. */
function phaseCell(markdown: string, group: string, phase: string): string | undefined {
  const header = markdown.split("\n").find((l) => l.startsWith("| # | group |"));
  const row = markdown
    .split("\n")
    .find((l) => new RegExp(`^\\| \\d+ \\| \`${group}\` \\|`).test(l));
  if (!header || !row) return undefined;
  const cols = header.split("|").map((c) => c.trim());
  return row.split("|").map((c) => c.trim())[cols.indexOf(phase)];
}

describe("action on a merge to the default branch", () => {
  it("rolls the changed policy to convergence, the check run through every phase, the PR comment to the end", async () => {
    served = await serve(undefined, {
      pulls: [
        {
          number: 12,
          headSha: PR_HEAD,
          mergeCommitSha: MERGE,
          files: ["policies/demo.yaml"],
          state: "closed",
          merged: true,
        },
      ],
    });
    const cwd = workspace({
      "policies/demo.yaml": fastDemoPolicy(),
      "policies/other.yaml": fastDemoPolicy().replace(
        "name: demo\ncluster",
        "name: other\ncluster",
      ),
    });
    const gh = served.server.faces.github;
    // The pull request was planned before it merged: its sticky comment exists.
    const planned = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(12, PR_HEAD),
      sha: "3c".repeat(20),
      inputs: { policy: "policies/*.yaml" },
    });
    expect(planned.code, planned.stdout).toBe(0);
    expect(gh.comments.filter((c) => c.issue === 12)).toHaveLength(1);

    const r = await runAction({
      served,
      cwd,
      event: "push",
      payload: pushPayload(MERGE, ["policies/demo.yaml", "README.md"]),
      sha: MERGE,
      inputs: { policy: "policies/*.yaml" },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.result).toBe("success");
    expect(r.outputs["has-changes"]).toBe("true");
    expect(JSON.parse(readFileSync(r.outputs["plan-json"]!, "utf8")).summary.nodesToReplace).toBe(
      17,
    );
    // The policy the push changed was applied; the other was planned, found nothing to do
    // (the same cluster, rolled a moment ago) and left alone.
    expect(r.stdout).toContain(
      "this push did not change policies/other.yaml, and the cluster matches it: nothing to do",
    );
    expect(gh.checkRuns.some((c) => c.name === "noderoll apply / other")).toBe(false);

    const check = gh.checkRuns.find((c) => c.name === "noderoll apply / demo")!;
    expect(check).toMatchObject({ head_sha: MERGE, status: "completed", conclusion: "success" });
    const summaries = check.history.map(
      (h) => (h.output as { summary?: string } | undefined)?.summary ?? "",
    );
    for (const group of ["system", "ingress", "workers"])
      for (const phase of PHASES) {
        const seen = summaries.map((s) => phaseCell(s, group, phase));
        expect(seen, `${group} ${phase}`).toContain("⏳ running");
        // Surge by detaching leaves nothing to scale down: that phase ends "skipped".
        expect(["✅ success", "— skipped"], `${group} ${phase}`).toContain(seen.at(-1));
      }
    // Updates are coalesced: far fewer than the roll's events, yet more than one per phase.
    expect(check.history.length).toBeGreaterThanOrEqual(3 * 4 * 2);
    expect(check.history.length).toBeLessThan(200);

    const comments = gh.comments.filter((c) => c.issue === 12);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect(body).toContain("### noderoll apply · `demo` · ✅ done");
    expect(body).toMatch(
      /^\*\*17 of 17 planned nodes replaced\*\* · started .* · ended \d\d:\d\d UTC · took [\dhms]+ \(estimated ~\d+m/m,
    );
    expect(body).toContain(`trigger: merge of #12 · commit \`${MERGE.slice(0, 7)}\``);
    expect(body).toContain(
      "| 3 | `workers` | ASG | ✅ success | ✅ success | ✅ success | — skipped | 8 / 8 | ✅ rolled |",
    );
    // The plan it rolled is there, folded away; the reviewed plan's marker is carried along.
    expect(body).toContain("<details>\n<summary>The plan this roll carries out</summary>");
    expect(body).toMatch(/<!-- noderoll:reviewed [\w-]+ -->/);
    expect(body).not.toContain("differs from the one reviewed");
    // The check run's text is the node-by-node timeline.
    const text = (check.history.at(-1)!.output as { text?: string }).text ?? "";
    expect(text).toMatch(/^#### Node by node\n/);
    expect(text).toMatch(/\d\d:\d\d:\d\d workers: drained ip-[\w.-]+ \(\d+ pods? evicted\)/);
    expect(r.summary).toContain("### noderoll apply · `demo` · ✅ done");
    expect(r.stdout).toContain("::group::workers: upgrade");

    // Converged: planning again finds nothing to do.
    const again = await runAction({
      served,
      cwd,
      event: "push",
      payload: pushPayload(MERGE, ["policies/demo.yaml"]),
      sha: MERGE,
      inputs: { policy: "policies/demo.yaml", mode: "plan", comment: "false" },
    });
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs).toMatchObject({ result: "planned", "has-changes": "false" });
    expect(again.stdout).toContain("No changes. The node groups match the policy.");
  });
});

describe("action on an emergency dispatch", () => {
  const blocking = DEMO_SCENARIO_YAML.replace(
    "pdb: { maxUnavailable: 1 }\n  - kind: Deployment\n    name: ingress-nginx",
    "pdb: { maxUnavailable: 0 }\n  - kind: Deployment\n    name: ingress-nginx",
  );

  it("with delete-after-drain-timeout and a reason gets past a PodDisruptionBudget that allows no disruption, and says so", async () => {
    expect(blocking).not.toBe(DEMO_SCENARIO_YAML);
    served = await serve(blocking);
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy("1s") });
    const sha = "4d".repeat(20);
    const inputs = { policy: "policies/demo.yaml", groups: "workers" };
    // Without delete-after-drain-timeout the plan is blocked and nothing is started.
    const blocked = await runAction({
      served,
      cwd,
      event: "workflow_dispatch",
      payload: dispatchPayload({}),
      sha,
      inputs,
    });
    expect(blocked.code).toBe(1);
    expect(blocked.outputs.result).toBe("failure");
    expect(
      served.server.log.mutating("kubernetes").filter((e) => e.resource === "pods/eviction"),
    ).toEqual([]);

    const reason = "CVE-2026-0001: kernel fix must land today";
    const r = await runAction({
      served,
      cwd,
      event: "workflow_dispatch",
      payload: dispatchPayload({ "delete-after-drain-timeout": "true", reason, groups: "workers" }),
      sha,
      inputs: { ...inputs, "delete-after-drain-timeout": "true", reason },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.result).toBe("success");
    const check = served.server.faces.github.checkRuns
      .filter((c) => c.name === "noderoll apply / demo")
      .at(-1)!;
    expect(check.conclusion).toBe("success");
    expect(check.output.title).toContain(`reason: ${reason}`);
    expect(check.output.summary).toContain(
      `trigger: workflow_dispatch · reason: ${reason} · **delete-after-drain-timeout**`,
    );
    expect(check.output.summary).not.toContain("**replace-all**");
    expect(check.output.summary).toMatch(
      /\*\*delete-after-drain-timeout\*\*: deleted past their PodDisruptionBudgets at the drain timeout/,
    );
    expect(r.summary).toContain(`reason: ${reason}`);
    expect(r.summary).toMatch(
      /deleted past their PodDisruptionBudgets at the drain timeout: `default\/db-/,
    );
    expect(r.stdout).toMatch(/deleted past their PodDisruptionBudgets at the drain timeout/);
  });

  it("refuses replace-all without a reason, and the old force input, before reading or changing anything", async () => {
    served = await serve();
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy() });
    const r = await runAction({
      served,
      cwd,
      event: "workflow_dispatch",
      payload: dispatchPayload({ "replace-all": "true" }),
      sha: "5e".repeat(20),
      inputs: { policy: "policies/demo.yaml", "replace-all": "true" },
    });
    expect(r.code).toBe(1);
    expect(r.outputs.result).toBe("refused");
    expect(r.stdout).toMatch(/::error::noderoll refused: replace-all needs a reason/);
    expect(r.summary).toContain("Refused, nothing was read or changed");
    expect(served.server.log.entries.filter((e) => e.face !== "github")).toEqual([]);

    // A workflow still written for force does not roll as if it had not asked, reason or not.
    const old = await runAction({
      served,
      cwd,
      event: "workflow_dispatch",
      payload: dispatchPayload({ force: "true", reason: "CVE" }),
      sha: "5e".repeat(20),
      inputs: { policy: "policies/demo.yaml", force: "true", reason: "CVE" },
    });
    expect(old.code).toBe(1);
    expect(old.stdout).toMatch(/::error::input force meant three things and was split/);
    expect(served.server.log.entries.filter((e) => e.face !== "github")).toEqual([]);
  });

  it("stops cleanly on SIGTERM (a cancelled workflow) and completes the check run as cancelled", async () => {
    served = await serve();
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy() });
    const r = await runAction({
      served,
      cwd,
      event: "workflow_dispatch",
      payload: dispatchPayload({}),
      sha: "6f".repeat(20),
      inputs: { policy: "policies/demo.yaml", groups: "workers" },
      killWhen: /workers: drained /,
    });
    expect(r.signal).toBeNull();
    expect(r.stdout).toMatch(/SIGTERM: the workflow was cancelled/);
    expect(r.outputs.result).toBe("cancelled");
    const check = served.server.faces.github.checkRuns.find(
      (c) => c.name === "noderoll apply / demo",
    )!;
    expect(check).toMatchObject({ status: "completed", conclusion: "cancelled" });
    expect(r.summary).toContain("⏹️ cancelled");
    // The next run finishes what the cancelled one started (the lock was released).
    const next = await runAction({
      served,
      cwd,
      event: "workflow_dispatch",
      payload: dispatchPayload({}),
      sha: "6f".repeat(20),
      inputs: { policy: "policies/demo.yaml", groups: "workers" },
    });
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect(next.outputs.result).toBe("success");
    const last = served.server.faces.github.checkRuns
      .filter((c) => c.name === "noderoll apply / demo")
      .at(-1)!;
    expect(last).toMatchObject({ status: "completed", conclusion: "success" });
  });
});
