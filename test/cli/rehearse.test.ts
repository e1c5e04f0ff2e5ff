// `plan --rehearse` as a user runs it: the text, the Markdown a pull request shows (the down
// workload first, as a GitHub alert, then the rehearsal's section) and the documented JSON.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const base = ["plan", "--policy", "policies/demo.yaml", "--sandbox", "demo", "--rehearse"];

describe("noderoll plan --rehearse", () => {
  it("prints the rehearsal in the terminal, with the workload it takes down", () => {
    const r = runCli(base);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /rehearsal on a twin of the cluster \(nothing live touched\): success in \d+m/,
    );
    expect(r.stdout).toMatch(/✗ down: Deployment\/default\/legacy \d+s \(ready at least 0 of 1\)/);
  });

  it("puts a down workload at the top of the Markdown, then the rehearsal's section", () => {
    const md = runCli([...base, "--format", "markdown"]).stdout;
    const alert = md.indexOf(
      "> **The rehearsal takes 1 workload down:** `Deployment/default/legacy` for",
    );
    const summary = md.indexOf("**Plan: 3 groups to roll");
    expect(alert).toBeGreaterThan(0);
    expect(alert).toBeLessThan(summary);
    expect(md).toContain("#### Rehearsal on a twin of the cluster");
    expect(md).toContain("title Rehearsed schedule from");
  });

  it("writes the documented JSON and the twin's event log", () => {
    const dir = mkdtempSync(join(tmpdir(), "noderoll-rehearse-"));
    const events = join(dir, "twin.jsonl");
    const r = runCli([
      ...base,
      "--format",
      "json",
      "--rehearse-events",
      events,
      "--rehearse-timing",
      "boot=70s",
    ]);
    const plan = JSON.parse(r.stdout);
    expect(Object.keys(plan.rehearsal).sort()).toEqual(
      [
        "durationMs",
        "groups",
        "message",
        "peakExtraNodes",
        "peakRequestsPerMinute",
        "result",
        "stalls",
        "timings",
        "workloads",
      ].sort(),
    );
    expect(plan.rehearsal.groups[0]).toMatchObject({ group: "system", phases: expect.any(Array) });
    expect(plan.rehearsal.workloads.find((w: { name: string }) => w.name === "web")).toMatchObject({
      desired: 3,
      msAtZero: 0,
    });
    expect(plan.rehearsal.timings.values.boot).toBe(70);
    expect(plan.rehearsal.timings.sources.boot).toBe("given");
    expect(plan.summary.estimatedMs).toBe(
      plan.rehearsal.groups.reduce((n: number, g: { durationMs: number }) => n + g.durationMs, 0),
    );
    const log = readFileSync(events, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log[0].type).toBe("roll.start");
    expect(log.at(-1).type).toBe("roll.end");
  });

  it("refuses a timing it does not know, before reading anything", () => {
    const r = runCli([...base, "--rehearse-timing", "bot=70s"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /--rehearse-timing: "bot" is not a rehearsal timing; they are boot, bootJitter/,
    );
  });
});
