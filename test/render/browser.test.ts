// The plan comment as a reviewer sees it on GitHub: GFM through `marked`, the gantt drawn by
// Mermaid in headless Chromium. One browser for the file; each test reads what is on screen.
// UPDATE_SCREENSHOTS=1 also writes the README's picture, docs/images/plan-comment.png, from the
// same rendering (npm run screenshots).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/plan/index.js";
import { gantt, renderPlanMarkdown, scheduleStart } from "../../src/render/index.js";
import { ROOT } from "../helpers/cli.js";
import { CommentBrowser, type Bar } from "./browser.js";
import { blockedFirstPlan, manyGroupsPlan, rollingPlan } from "./plans.js";

let browser: CommentBrowser;
beforeAll(async () => {
  browser = await CommentBrowser.open();
});
afterAll(async () => {
  await browser?.close();
});

/** Where each bar should start and end, ms from the chart's start, as the plan schedules it. */
function expectedBars(plan: Plan): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let offset = 0;
  for (const g of plan.groups.filter((x) => x.schedule.waves.length > 0)) {
    const first = g.schedule.waves[0]!;
    if (first.startMs > 0) out.push({ start: offset, end: offset + first.startMs });
    for (const w of g.schedule.waves)
      out.push({ start: offset + w.startMs, end: offset + w.startMs + w.durationMs });
    offset += g.schedule.estimatedMs;
  }
  return out;
}

/** Every bar's left and right edge where the schedule puts it, to within a pixel and a half. */
function expectBarsFollow(bars: Bar[], expected: { start: number; end: number }[]): void {
  expect(bars).toHaveLength(expected.length);
  const total = expected.at(-1)!.end;
  const left = bars[0]!.x;
  const pxPerMs = (bars.at(-1)!.x + bars.at(-1)!.width - left) / total;
  expect(pxPerMs).toBeGreaterThan(0);
  const near = (px: number, ms: number, what: string) =>
    expect(Math.abs(px - left - ms * pxPerMs), what).toBeLessThan(1.5);
  bars.forEach((b, i) => {
    near(b.x, expected[i]!.start, `bar ${i} (${b.label}) starts`);
    near(b.x + b.width, expected[i]!.end, `bar ${i} (${b.label}) ends`);
  });
}

describe("the plan comment in a browser", () => {
  it("draws one gantt bar per wave where the schedule puts it, in the window's time zone", async () => {
    const plan = rollingPlan();
    const shown = await browser.show(renderPlanMarkdown(plan));
    expectBarsFollow(shown.bars, expectedBars(plan));
    // Bars do not all start at 0: the last group starts after the first has finished.
    expect(shown.bars.at(-1)!.x).toBeGreaterThan(shown.bars[0]!.x + shown.bars[0]!.width);
    expect(shown.bars.map((b) => b.label)).toContain("canary (1)");
    // The window is closed on Saturday 21 Nov: the chart starts at Monday's opening, 09:00 Berlin.
    expect(scheduleStart(plan).timeZone).toBe("Europe/Berlin");
    expect(shown.chart.title).toBe(
      "Predicted schedule from Mon 23 Nov 09:00 (Europe/Berlin), estimate",
    );
    expect(shown.chart.ticks[0]).toMatch(/^09:\d\d$/);
    await shown.page.close();
  });

  it("puts where apply stops, and the window, above the first group", async () => {
    const shown = await browser.show(renderPlanMarkdown(blockedFirstPlan()));
    const { text, alerts } = shown;
    expect(alerts[0]).toEqual({
      kind: "caution",
      text: expect.stringMatching(
        /^Caution\n+apply stops at group 1 system \(blocked\): ingress-b and batch will not roll\.\n+PodDisruptionBudget default\/coredns never allows a disruption/,
      ),
    });
    const caution = text.indexOf("apply stops at group 1 system");
    expect(caution).toBeGreaterThan(0);
    // Apply stops at the first group: the counts under it say it rolls nothing.
    expect(caution).toBeLessThan(text.indexOf("Plan: 0 groups to roll (0 nodes)"));
    expect(caution).toBeLessThan(text.indexOf("1. system"));
    expect(text).toContain(
      "Maintenance window: Mon–Thu 09:00–16:00 Europe/Berlin · closed when planned; next opening Mon 23 Nov 09:00",
    );
    // Apply starts nothing here whatever the window: one statement of it (the caution), not a
    // second about the window that a merge would not reach either.
    expect(alerts.filter((a) => a.kind === "important")).toEqual([]);
    if (process.env.UPDATE_SCREENSHOTS) {
      mkdirSync(join(ROOT, "docs/images"), { recursive: true });
      await shown.page.evaluate(() => {
        for (const d of document.querySelectorAll("details"))
          if (d.querySelector("summary")?.textContent?.startsWith("Nodes to replace"))
            d.open = false;
      });
      const body = await shown.page.$("body");
      await body!.screenshot({ path: join(ROOT, "docs/images/plan-comment.png") });
    }
    await shown.page.close();
  });

  it("draws one bar per group when waves are too many to read, so the chart survives", async () => {
    const plan = manyGroupsPlan(12, 6);
    expect(gantt(plan).filter((l) => / : /.test(l))).toHaveLength(12);
    const shown = await browser.show(renderPlanMarkdown(plan));
    const perGroup = plan.groups.reduce<{ start: number; end: number }[]>((acc, g) => {
      const start = acc.at(-1)?.end ?? 0;
      return [...acc, { start, end: start + g.schedule.estimatedMs }];
    }, []);
    expect(shown.bars.map((b) => b.label)).toEqual(plan.groups.map((g) => `${g.name} (6 nodes)`));
    expectBarsFollow(shown.bars, perGroup);
    await shown.page.close();
  });
});
