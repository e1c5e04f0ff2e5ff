// The terminal's plan says what the pull request's comment says (issue 48, item 6): the same plans
// rendered both ways, the comment read as GitHub shows it (marked, GFM, its text content), and
// every fact of it looked for in the text — what stops or hurts first, the window and the time,
// the gates, what the run forces, each group's lines, the Terraform line.
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { withRehearsal, type Plan } from "../../src/plan/index.js";
import { renderPlanMarkdown, renderPlanText } from "../../src/render/index.js";
import { blockedFirstPlan, blockedSecondPlan, rollingPlan } from "./plans.js";

const html = (md: string) => marked.parse(md, { gfm: true, async: false }) as string;
const decode = (s: string) =>
  s
    .replace(/<[^>]+>/g, "")
    .replace(/&gt;/g, ">")
    .replace(/&lt;/g, "<")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'");
const flat = (s: string) => s.replace(/\s+/g, " ").trim();

/** What the comment says, fact by fact, as a reader sees it (the node tables and chart aside). */
function commentFacts(md: string): string[] {
  const page = html(md.replace(/<details>[\s\S]*?<\/details>/g, ""));
  const alerts = [...page.matchAll(/<blockquote>([\s\S]*?)<\/blockquote>/g)].flatMap((m) =>
    decode(m[1]!)
      .replace(/\[!\w+\]/, "")
      .split("\n")
      .map(flat)
      .filter(Boolean),
  );
  const items = [...page.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => flat(decode(m[1]!)));
  const headline = flat(decode(/<p><strong>(Plan: [^<]*)<\/strong><\/p>/.exec(page)?.[1] ?? ""));
  const read = /read ([^·]*?) ·/.exec(decode(page))?.[1];
  return [
    ...alerts,
    // Group items in the comment carry an icon ("⛔ blocker: …"); the terminal a mark of its own.
    ...items.map((i) => i.replace(/^(⛔|⚠️|ℹ️|⚙️|🧹|❌) /u, "")),
    headline,
    `read ${read}`,
  ];
}

const plans: Record<string, () => Plan> = {
  "a blocked second group (apply stops), inside its window": () => blockedSecondPlan(),
  "a blocked first group, outside its window": () => blockedFirstPlan(),
  "a plan outside its window": () => rollingPlan(),
  "a forced plan (deleteAfterDrainTimeout, replace-all)": () =>
    blockedSecondPlan({ deleteAfterDrainTimeout: true, replaceAll: true }),
  "a plan with gates of its own": () =>
    blockedSecondPlan(
      { deleteAfterDrainTimeout: true },
      "defaults:\n  gates: { bake: 5m, alarms: [api-5xx], checkpoints: [50%], checkpointDelay: 10m }\n",
    ),
  "a rehearsed plan that takes a workload down": () => {
    const plan = blockedSecondPlan({ deleteAfterDrainTimeout: true });
    return withRehearsal(plan, {
      result: "success",
      message: "rolled",
      durationMs: 1_200_000,
      groups: [
        { group: "system", durationMs: 600_000, result: "success", phases: [] },
        { group: "workers", durationMs: 600_000, result: "success", phases: [] },
      ],
      workloads: [
        {
          kind: "Deployment",
          namespace: "default",
          name: "legacy",
          desired: 1,
          minReady: 0,
          msBelowPdb: 0,
          msAtZero: 11_000,
        },
      ],
      stalls: [],
      peakExtraNodes: 6,
      peakRequestsPerMinute: 40,
      timings: { values: {}, sources: {} },
    });
  },
};

describe("the terminal's plan beside the comment", () => {
  for (const [name, make] of Object.entries(plans))
    it(`says every fact of the comment: ${name}`, () => {
      const plan = make();
      const text = flat(renderPlanText(plan));
      const facts = commentFacts(renderPlanMarkdown(plan));
      expect(facts.length).toBeGreaterThan(5);
      const missing = facts.filter((f) => !text.includes(f));
      expect(missing, renderPlanText(plan)).toEqual([]);
    });

  it("names the window with its times in the window's zone, and where apply stops", () => {
    const text = renderPlanText(blockedSecondPlan());
    expect(text).toContain(
      "Maintenance window: Mon–Thu 09:00–16:00 Europe/Berlin · open when planned, closes Tue 24 Nov 16:00",
    );
    expect(text).toContain("read Tue 24 Nov 2026 11:00 Europe/Berlin");
    expect(text).toContain(
      "apply stops at group 2 workers (blocked): the groups before it roll first.",
    );
    const closed = renderPlanText(rollingPlan());
    expect(closed).toContain(
      "The window is closed now: a merge before Mon 23 Nov 09:00 (Europe/Berlin) ends skipped without starting a node.",
    );
  });

  it("says each fact once: where apply stops, and the estimate", () => {
    const text = renderPlanText(blockedSecondPlan());
    expect(text.match(/apply stops at/gi)).toHaveLength(1);
    expect(text.match(/estimate/gi)).toHaveLength(1);
  });
});
