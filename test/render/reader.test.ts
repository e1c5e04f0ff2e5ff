// What a reviewer reads in the plan and the roll, rendered as GitHub renders it (marked, GFM):
// the table's words, time limits against the window and max-duration, deleteAfterDrainTimeout's deletions, the
// reviewed plan's fingerprint and drift, the shortened note at the top, and the roll's comment
// and check run (planned counts, a blocked group, groups not started, each error once).
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/plan/index.js";
import type { EventInput, RollEvent } from "../../src/ports/index.js";
import {
  COMMENT_LIMIT,
  cutWords,
  fitMarkdown,
  foldEvents,
  planCheckRun,
  planDrift,
  planFingerprint,
  progressCheckRun,
  readReviewed,
  renderPlanMarkdown,
  renderProgressMarkdown,
  reviewedMarker,
} from "../../src/render/index.js";
import { blockedFirstPlan, manyGroupsPlan, rollingPlan } from "./plans.js";

const html = (md: string) => marked.parse(md, { gfm: true, async: false }) as string;
const text = (md: string) =>
  html(md)
    .replace(/<[^>]+>/g, "")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'");

function tableRows(md: string): string[][] {
  const table = /<table>[\s\S]*?<\/table>/.exec(html(md))?.[0] ?? "";
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) =>
      c[1]!.replace(/<[^>]+>/g, ""),
    ),
  );
}

describe("the plan's overview table", () => {
  it("says the kind in a word, why each group changes, and no budgets where nothing rolls", () => {
    const plan = manyGroupsPlan(1, 3);
    plan.groups.push({ ...plan.groups[0]!, name: "quiet", status: "no-change", replacements: [] });
    const rows = tableRows(renderPlanMarkdown(rollingPlan()));
    expect(rows[0]).toEqual([
      "#",
      "group",
      "kind",
      "status",
      "replace",
      "why",
      "budgets",
      "estimate",
    ]);
    expect(rows[1]!.slice(1, 7)).toEqual([
      "system",
      "managed",
      "🔄 roll",
      "6 of 6",
      "Kubernetes 1.32 → 1.33, AMI 1.32.9 → 1.33.5, maxUnavailable 1 → 2",
      "maxUnavailable 2 · EKS scale-up 6",
    ]);
    expect(rows[2]!.slice(2, 6)).toEqual(["ASG", "🔄 roll", "3 of 3", "launch template 3 → 4"]);
    const quiet = tableRows(renderPlanMarkdown(plan)).find((r) => r[1] === "quiet")!;
    expect(quiet.slice(4)).toEqual(["-", "-", "-", "-"]);
  });

  it("gives times a person reads, and which commit and run the plan is for", () => {
    const md = renderPlanMarkdown(rollingPlan(), undefined, {
      sha: "0123456789abcdef0123456789abcdef01234567",
      runUrl: "https://github.com/o/r/actions/runs/1",
    });
    expect(text(md)).toContain(
      // In the window's zone, named.
      "read Sat 21 Nov 2026 11:00 Europe/Berlin · commit 0123456 · workflow run · plan ",
    );
    expect(html(md)).toContain('<a href="https://github.com/o/r/actions/runs/1">workflow run</a>');
  });
});

describe("time limits", () => {
  it("says how many runs of max-duration and openings of the window a long roll needs", () => {
    const plan: Plan = { ...manyGroupsPlan(30, 10) };
    const md = text(renderPlanMarkdown(plan, undefined, { maxDurationMs: 5.5 * 3_600_000 }));
    const hours = plan.summary.estimatedMs / 3_600_000;
    expect(hours).toBeGreaterThan(5.5);
    const runs = Math.ceil(plan.summary.estimatedMs / (5.5 * 3_600_000));
    expect(md).toMatch(
      new RegExp(
        `Time: estimate ~[\\dhm]+ · max-duration 5h30m per run · needs ≈ ${runs} runs of 5h30m \\(max-duration\\)`,
      ),
    );
    expect(md).toContain(
      "does not finish in one go: apply starts no node once max-duration is reached, and ends early.",
    );
    expect(md).toContain(
      "keep the apply workflow's schedule trigger (it resumes the roll in the next opening)",
    );
  });

  it("names the window, closed when planned, and what a merge now would do", () => {
    const md = text(renderPlanMarkdown(rollingPlan()));
    expect(md).toContain(
      "Maintenance window: Mon–Thu 09:00–16:00 Europe/Berlin · closed when planned; next opening Mon 23 Nov 09:00",
    );
    expect(md).toContain(
      "a merge before Mon 23 Nov 09:00 (Europe/Berlin) ends skipped without starting a node",
    );
  });
});

describe("what stops or hurts, first", () => {
  it("the check run's title says where apply stops and what will not roll", () => {
    expect(planCheckRun(blockedFirstPlan()).output.title).toBe(
      "Apply stops at group 1 system (blocked); ingress-b, batch will not roll",
    );
    expect(planCheckRun(rollingPlan()).output.title).toBe(
      "Plan: 3 groups to roll (14 nodes), 1 config change, 0 blocked.",
    );
  });

  it("warns, above everything else, of the pods deleteAfterDrainTimeout will delete", () => {
    const plan = blockedFirstPlan();
    const forced: Plan = {
      ...plan,
      options: { replaceAll: false, deleteAfterDrainTimeout: true },
      groups: plan.groups.map((g) => ({
        ...g,
        status: g.status === "blocked" ? "roll" : g.status,
        findings: g.findings.map((f) =>
          f.code === "pdb-blocks" ? { ...f, severity: "warning" as const } : f,
        ),
      })),
    };
    const md = renderPlanMarkdown(forced);
    expect(md.split("\n").slice(2, 4)).toEqual([
      "> [!WARNING]",
      "> **2 pods will be deleted** (deleteAfterDrainTimeout), past their PodDisruptionBudgets at the drain timeout: `default/coredns-a1`, `default/coredns-b2`.",
    ]);
    expect(planCheckRun(forced).output.title).toMatch(/; 2 pods deleted at the drain timeout$/);
    // What the run forces, one line each: here only the deletions, not every node.
    expect(md).toContain(
      "> [!WARNING]\n> **delete-after-drain-timeout**: what a drain leaves at its timeout is deleted, past PodDisruptionBudgets.\n",
    );
    expect(md).not.toContain("**replace-all**");
    const all = renderPlanMarkdown({
      ...forced,
      options: { replaceAll: true, deleteAfterDrainTimeout: true },
    });
    expect(all).toContain(
      "> [!WARNING]\n> **replace-all**: every selected node is replaced, whatever its version.\n> **delete-after-drain-timeout**: what a drain leaves at its timeout is deleted, past PodDisruptionBudgets.\n",
    );
  });
});

describe("a node that is down already", () => {
  it("is marked in the plan's node table, and what its drain left behind is said in the roll", () => {
    const plan = rollingPlan();
    const g = plan.groups.find((x) => x.replacements.length > 0)!;
    const [first, second] = g.replacements;
    g.replacements = [
      { ...first!, down: "unreachable" },
      { ...second!, down: "not-ready" },
    ];
    const md = renderPlanMarkdown(plan);
    const rows = tableRows(md.slice(md.indexOf("Nodes to replace")));
    const why = (node: string | undefined) => rows.find((r) => r[0] === node)?.[3];
    expect(why(first!.node)).toMatch(/; node unreachable \(kubelet not reporting\)$/);
    expect(why(second!.node)).toMatch(/; node NotReady$/);
    expect(html(md)).toContain("<strong>node unreachable (kubelet not reporting)</strong>");
    const p = foldEvents(
      log([
        {
          type: "roll.start",
          cluster: "prod",
          policy: "prod",
          groups: [g.name],
          replaceAll: false,
          deleteAfterDrainTimeout: false,
        },
        { type: "node.drain.start", group: g.name, node: first!.node! },
        {
          type: "node.drain.end",
          group: g.name,
          node: first!.node!,
          evicted: 0,
          leftBehind: ["default/web-1", "default/web-2"],
        },
      ]),
      plan,
    );
    // The check run's text: the roll's per-node timeline.
    expect(progressCheckRun(p).output.text).toContain(
      `drained ${first!.node} (0 pods evicted, 2 left behind on the unreachable node, their deletion long past due: default/web-1, default/web-2)`,
    );
  });
});

describe("the plan reviewed, and the plan applied", () => {
  it("keeps the fingerprint when only times move, and says what changed otherwise", () => {
    const plan = rollingPlan();
    const later: Plan = { ...plan, takenAt: "2026-11-23T08:00:00.000Z" };
    expect(planFingerprint(later)).toBe(planFingerprint(plan));
    const reviewed = readReviewed(`text\n${reviewedMarker(plan, "abc")}\n`)!;
    expect(reviewed.sha).toBe("abc");
    expect(planDrift(reviewed, later)).toEqual([]);
    const moved: Plan = {
      ...plan,
      groups: plan.groups.map((g) =>
        g.name === "system"
          ? { ...g, target: { ...g.target, releaseVersion: "1.33.6-20251201" } }
          : g,
      ),
    };
    expect(planDrift(reviewed, moved)).toEqual([
      "`system`: releaseVersion 1.33.5-20251101 → 1.33.6-20251201",
    ]);
  });

  it("covers every decision: a budget alone (maxSurge 2 → 1) changes the fingerprint, and is named", () => {
    const plan = rollingPlan();
    const reviewed = readReviewed(reviewedMarker(plan))!;
    const g = plan.groups.find((x) => x.kind === "self-managed" && x.budgets.maxSurge > 0)!;
    const tighter: Plan = {
      ...plan,
      groups: plan.groups.map((x) =>
        x.name === g.name
          ? { ...x, budgets: { ...x.budgets, maxSurge: x.budgets.maxSurge - 1 } }
          : x,
      ),
    };
    expect(planFingerprint(tighter)).not.toBe(planFingerprint(plan));
    expect(planDrift(reviewed, tighter)).toEqual([
      `\`${g.name}\`: budgets maxUnavailable/maxSurge ${g.budgets.maxUnavailable}/${g.budgets.maxSurge} → ${g.budgets.maxUnavailable}/${g.budgets.maxSurge - 1}`,
    ]);
    const slower: Plan = {
      ...plan,
      groups: plan.groups.map((x) =>
        x.name === g.name ? { ...x, settings: { ...x.settings!, drainTimeoutMs: 3_600_000 } } : x,
      ),
    };
    expect(planFingerprint(slower)).not.toBe(planFingerprint(plan));
  });
});

describe("a plan too long for a comment", () => {
  it("says so at the top, with a link to the job summary, and keeps one bar per group", () => {
    const plan = manyGroupsPlan(40, 250);
    const body = fitMarkdown(
      (d) => renderPlanMarkdown(plan, d),
      COMMENT_LIMIT,
      "",
      "https://github.com/o/r/actions/runs/9",
    );
    const lines = body.split("\n");
    expect(lines[2]).toBe("> [!NOTE]");
    expect(lines[3]).toMatch(
      /^> Shortened to fit GitHub's limit of 65536 characters: .*\[job summary\]\(https:\/\/github\.com\/o\/r\/actions\/runs\/9\)/,
    );
  });
});

function log(events: EventInput[]): RollEvent[] {
  let t = Date.parse("2026-11-23T08:00:00Z");
  return events.map((e) => ({ ...e, t: new Date((t += 60_000)).toISOString() }) as RollEvent);
}

describe("the roll's comment and check run", () => {
  const plan = blockedFirstPlan();
  const stopped = log([
    {
      type: "roll.start",
      cluster: "prod",
      policy: "prod",
      groups: ["system", "ingress-b", "batch"],
      replaceAll: false,
      deleteAfterDrainTimeout: false,
    },
    { type: "group.start", group: "system", kind: "managed", nodes: 6, replace: 6 },
    {
      type: "group.end",
      group: "system",
      result: "failure",
      message:
        "UpdateFailed: not started, it would fail: PodDisruptionBudget default/coredns never allows a disruption",
    },
    {
      type: "roll.end",
      result: "failure",
      message:
        "UpdateFailed: not started, it would fail: PodDisruptionBudget default/coredns never allows a disruption.",
    },
  ]);

  it("marks the blocked group, shows the others' planned counts as not started, and says each error once", () => {
    const p = foldEvents(stopped, plan);
    const md = renderProgressMarkdown(p);
    const rows = tableRows(md);
    expect(rows.map((r) => [r[1], r[7], r[8]])).toEqual([
      ["group", "nodes", "state"],
      ["system", "0 / 6", "⛔ blocked, not started"],
      ["ingress-b", "0 / 3", "not started"],
      ["batch", "0 / 5", "not started"],
    ]);
    expect(md.match(/never allows a disruption/g)).toHaveLength(1);
    expect(progressCheckRun(p).output.title).toBe(
      "Failed: blocked at system; 2 groups not started",
    );
  });

  it("says why a roll stopped early, as typed: cancelled, the lock lost, paused by the deadline or the window", () => {
    const start = stopped.slice(0, 1);
    const end = (
      stop: NonNullable<Extract<RollEvent, { type: "roll.end" }>["stop"]>,
      result: "cancelled" | "skipped",
    ) =>
      foldEvents(
        [
          ...start,
          ...log([{ type: "roll.end", result, message: "m. Run apply again to continue.", stop }]),
        ],
        // A plan apply reaches every group of: 14 nodes planned.
        rollingPlan(),
      );
    const cases = [
      [
        end({ kind: "cancelled" }, "cancelled"),
        "Cancelled 0/14 nodes: m.",
        "cancelled",
        "⏹️ cancelled",
      ],
      [
        end({ kind: "lock-lost", why: "w" }, "cancelled"),
        "Stopped, the cluster lock lost 0/14 nodes: m.",
        "cancelled",
        "⏹️ stopped, the cluster lock lost",
      ],
      [
        end({ kind: "deadline", at: "2026-11-21T10:00:00.000Z" }, "skipped"),
        "Paused at --max-duration 0/14 nodes: m.",
        "neutral",
        "⏸️ paused at --max-duration",
      ],
      [
        end({ kind: "window-closed" }, "skipped"),
        "Paused, the maintenance window closed 0/14 nodes: m.",
        "neutral",
        "⏸️ paused, the maintenance window closed",
      ],
    ] as const;
    for (const [p, title, conclusion, state] of cases) {
      expect(progressCheckRun(p)).toMatchObject({ conclusion, output: { title } });
      expect(renderProgressMarkdown(p)).toContain(state);
    }
  });

  it("counts every planned node in the title while pending, and cuts long titles between words", () => {
    const p = foldEvents(stopped.slice(0, 1), rollingPlan());
    expect(progressCheckRun(p).output.title).toBe("starting · 0/14 nodes");
    // Apply stops at the first group: no node is planned, none counted.
    expect(progressCheckRun(foldEvents(stopped.slice(0, 1), plan)).output.title).toBe("starting");
    const cut = cutWords(`${"word ".repeat(80)}end`, 40);
    expect(cut.length).toBeLessThanOrEqual(40);
    expect(cut).toMatch(/^(word )+word…$/);
  });

  it("says PodDisruptionBudgets were honoured when a roll that waited on them succeeded", () => {
    const p = foldEvents(
      log([
        {
          type: "roll.start",
          cluster: "prod",
          policy: "prod",
          groups: ["batch"],
          replaceAll: false,
          deleteAfterDrainTimeout: false,
        },
        { type: "eviction.blocked", group: "batch", node: "n1", pod: "default/web-1", pdb: "web" },
        { type: "roll.end", result: "success", message: "1 group rolled" },
      ]),
      plan,
    );
    const md = renderProgressMarkdown(p);
    expect(md).toContain(
      "PodDisruptionBudgets made 1 eviction wait (default/web-1 (web)); they were retried until allowed, and honoured",
    );
    expect(md).not.toContain("Evictions refused");
  });

  it("does not say they were honoured when pods were deleted past them at the drain timeout", () => {
    const p = foldEvents(
      log([
        {
          type: "roll.start",
          cluster: "prod",
          policy: "prod",
          groups: ["batch"],
          replaceAll: false,
          deleteAfterDrainTimeout: true,
        },
        { type: "eviction.blocked", group: "batch", node: "n1", pod: "default/web-1", pdb: "web" },
        {
          type: "node.drain.end",
          group: "batch",
          node: "n1",
          evicted: 0,
          deleted: ["default/web-1"],
        },
        { type: "roll.end", result: "success", message: "1 group rolled" },
      ]),
      plan,
    );
    const md = renderProgressMarkdown(p);
    expect(md).not.toContain("honoured");
    expect(md).toContain(
      "PodDisruptionBudgets made 1 eviction wait (default/web-1 (web)); retried until allowed or until the drain timeout",
    );
    expect(md).toContain(
      "deleted past their PodDisruptionBudgets at the drain timeout: `default/web-1`",
    );
    // One deletion, said once.
    expect(md.match(/deleted/g)).toHaveLength(1);
  });
});
