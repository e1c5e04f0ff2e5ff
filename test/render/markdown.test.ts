// The plan's Markdown as GitHub renders it (marked, in GFM mode): the table, the details
// blocks and the gantt block come out as intended; the size guard keeps bodies under limits.
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { buildPlan } from "../../src/engine/index.js";
import {
  COMMENT_LIMIT,
  fitMarkdown,
  renderPlanMarkdown,
  renderPlanText,
} from "../../src/render/index.js";
import {
  instances,
  managed,
  pdb,
  pod,
  policy,
  selfManaged,
  snapshot,
  nodesFor,
} from "../plan/fixtures.js";

const zones = ["eu-west-1a", "eu-west-1b", "eu-west-1c"];

/** workers is blocked (a budget that never allows) unless the run deletes past it. */
function demoPlan(options: Parameters<typeof buildPlan>[3] = {}) {
  const system = managed("system", instances("m", 6, zones, 3));
  const workers = selfManaged("workers", instances("w", 8, zones, 4), { latest: 5 });
  const nodes = [...nodesFor(system), ...nodesFor(workers)];
  const pods = [
    pod("web-a1", nodes[6]!.name),
    pod("web-b2", nodes[7]!.name),
    pod("legacy-x", nodes[8]!.name),
  ];
  const p = policy(
    'order: [system, workers]\ngroups:\n  - name: system\n    target: { kubernetesVersion: "1.33", releaseVersion: latest }\n    rollingUpdate: { maxUnavailable: 2 }\n  - name: workers\n    rollingUpdate: { maxSurge: "25%" }\n',
  );
  return buildPlan(
    p,
    "policies/prod.yaml",
    snapshot([system, workers], {
      nodes,
      pods,
      pdbs: [
        pdb("web", "web", {
          minAvailable: 2,
          expectedPods: 2,
          currentHealthy: 2,
          desiredHealthy: 2,
          disruptionsAllowed: 0,
        }),
      ],
      workloads: [
        { id: "Deployment/default/web", replicas: 2 },
        { id: "Deployment/default/legacy", replicas: 1 },
      ],
    }),
    options,
  );
}

function html(md: string): string {
  return marked.parse(md, { gfm: true, async: false }) as string;
}

describe("plan Markdown", () => {
  it("opens with where apply stops, then the Terraform-style summary line", () => {
    const lines = renderPlanMarkdown(demoPlan()).split("\n");
    expect(lines.slice(2, 4)).toEqual([
      "> [!CAUTION]",
      "> **apply stops at group 2 `workers`** (blocked): the groups before it roll first.",
    ]);
    expect(lines).toContain("**Plan: 1 group to roll (6 nodes), 1 config change, 1 blocked.**");
  });

  it("renders the overview as a real table with one row per group", () => {
    const out = html(renderPlanMarkdown(demoPlan()));
    const table = /<table>[\s\S]*?<\/table>/.exec(out)?.[0] ?? "";
    expect(table).toContain("<th>group</th>");
    const rows = [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
      .slice(1)
      .map((m) => [...m[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]));
    expect(rows.map((r) => [r[1], r[3], r[4]])).toEqual([
      ["<code>system</code>", "🔄 roll", "6 of 6"],
      ["<code>workers</code>", "⛔ blocked", "8 of 8"],
    ]);
  });

  it("puts node lists and the schedule in details blocks, and the gantt in a mermaid code block", () => {
    // Both groups roll (the budget is gone past at the drain timeout): both are charted.
    const md = renderPlanMarkdown(demoPlan({ deleteAfterDrainTimeout: true }));
    const out = html(md);
    expect(out.match(/<details>/g)).toHaveLength(3);
    expect(out).toContain("<summary>Nodes to replace (8)</summary>");
    expect(out).toContain("<summary>Predicted schedule</summary>");
    const code =
      /<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/.exec(out)?.[1] ?? "";
    // Wall-clock times in UTC (no window), from the moment live state was read.
    expect(code.split("\n").slice(0, 6)).toEqual([
      "gantt",
      "  title Predicted schedule from Sat 21 Nov 10:00 (UTC), estimate",
      "  dateFormat YYYY-MM-DD HH:mm:ss",
      "  axisFormat %H:%M",
      "  section system",
      "  scale-up : 2026-11-21 10:00:00, 2026-11-21 10:02:30",
    ]);
    expect(code).toMatch(
      / {2}section workers\n {2}surge : 2026-11-21 10:08:00, 2026-11-21 10:10:30\n {2}canary \(1\) : 2026-11-21 10:10:30, /,
    );
    // Node tables inside details still render as tables (a blank line after <summary>).
    expect(out).toMatch(/<summary>Nodes to replace \(6\)<\/summary>\s*<table>/);
  });

  it("names the blocking PDB and the downtime risk", () => {
    const md = renderPlanMarkdown(demoPlan());
    expect(md).toContain(
      "- ⛔ **blocker**: PodDisruptionBudget default/web never allows a disruption (minAvailable 2 of 2 pods)",
    );
    expect(md).toContain(
      "- ⚠️ **warning**: single-replica workloads go down while their node drains: Deployment/default/legacy",
    );
  });

  it("keeps a huge plan under GitHub's comment limit and says what was cut", () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      selfManaged(`group-${String(i).padStart(2, "0")}`, instances(`g${i}x`, 250, zones, 1), {
        latest: 2,
      }),
    );
    const p = policy(`groups:\n${many.map((g) => `  - name: ${g.name}\n`).join("")}`);
    const plan = buildPlan(p, "p.yaml", snapshot(many));
    expect(renderPlanMarkdown(plan).length).toBeGreaterThan(COMMENT_LIMIT);
    const marker = "\n<!-- noderoll:plan:prod -->";
    const body = fitMarkdown((d) => renderPlanMarkdown(plan, d), COMMENT_LIMIT, marker);
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body.endsWith(marker)).toBe(true);
    expect(body).toMatch(
      /Shortened to fit GitHub's limit of 65536 characters: node lists cut to (50|10) rows/,
    );
    expect(body).toContain(
      "**Plan: 40 groups to roll (10000 nodes), 0 config changes, 0 blocked.**",
    );
  });

  it("leaves a plan that fits untouched", () => {
    const plan = demoPlan();
    expect(fitMarkdown((d) => renderPlanMarkdown(plan, d), COMMENT_LIMIT)).toBe(
      renderPlanMarkdown(plan),
    );
  });
});

describe("plan text", () => {
  it("pins the terminal format", () => {
    expect(renderPlanText(demoPlan())).toMatchSnapshot();
  });
});

describe("plan Markdown snapshot", () => {
  it("pins the PR comment format", () => {
    expect(renderPlanMarkdown(demoPlan())).toMatchSnapshot();
  });
});
