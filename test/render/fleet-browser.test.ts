// The fleet's sticky comment as a reviewer sees it on GitHub (issue 49): GFM through `marked`,
// the stages' gantt drawn by Mermaid in headless Chromium — dev rolled and soaking, staging and
// prod after it — and the table saying each cluster's release and state.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyFleet, readFleet } from "../../src/app/fleet.js";
import { renderFleetMarkdown } from "../../src/render/fleet.js";
import { fleetWorld, HOUR } from "../fleet/helpers.js";
import { CommentBrowser } from "./browser.js";

let browser: CommentBrowser;
beforeAll(async () => {
  browser = await CommentBrowser.open();
});
afterAll(async () => {
  await browser?.close();
});

describe("the fleet comment in a browser", () => {
  it("draws dev's rolls and its 24 h soak, then the stages waiting on it, and says why", async () => {
    const w = fleetWorld();
    await applyFleet(w.fleet, w.members, w.deps);
    await w.account.advance(2 * HOUR);
    const read = await readFleet(w.fleet, w.members, w.deps);
    const md = renderFleetMarkdown(
      read.plan,
      { file: "fleet.yaml", gated: false, now: read.now },
      w.fleet.release,
    );
    const shown = await browser.show(md);
    expect(shown.bars.map((b) => b.label)).toEqual(["rolls", "soak", "not started", "not started"]);
    const [rolls, soak, staging] = shown.bars as [
      (typeof shown.bars)[0],
      (typeof shown.bars)[0],
      (typeof shown.bars)[0],
    ];
    // The soak follows the rolls and is far longer (24 h against minutes); staging after it.
    expect(soak.x).toBeGreaterThanOrEqual(rolls.x + rolls.width - 1);
    expect(soak.width).toBeGreaterThan(10 * rolls.width);
    expect(staging.x).toBeGreaterThanOrEqual(soak.x + soak.width - 1);
    expect(shown.chart.title).toBe("Stages (UTC)");
    expect(shown.text).toContain(
      "pinned to Kubernetes 1.33, release 1.33.4-20250904, launch templates' $Latest at ami-00000000000000002 for every stage",
    );
    expect(shown.text).toMatch(
      /The next run starts nothing: stage dev is soaking until \w{3} \d+ \w{3} \d{4} \d\d:\d\d UTC\./,
    );
    expect(shown.text).toMatch(
      /staging: waiting for stage dev, soaking until .*\tstaging-a \(eu-west-1\)\t.*\twaiting for stage dev/,
    );
    await shown.page.close();
  }, 60_000);
});
