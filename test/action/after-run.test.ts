// What a workflow can do after noderoll's step (issue 48, item 9), read as the workflow reads
// it: the outputs in GITHUB_OUTPUT (counts, group names, the comment's and the check run's
// pages, a line for chat, the event log's path), the event log itself (JSON lines naming the
// pods each drain evicted), the pull request's labels as tfcmt sets them (opt-in; a read-only
// token only warns), the policy's errors as `::error file=…,line=…` workflow commands when no
// check run carries them, and the job summary's result table rendered as GitHub renders it.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { marked } from "marked";
import { afterEach, describe, expect, it } from "vitest";
import type { RollEvent } from "../../src/ports/index.js";
import { DEMO_SCENARIO_YAML } from "../../src/sandbox/scenarios/demo.js";
import {
  fastDemoPolicy,
  pullRequestPayload,
  pushPayload,
  READ_ONLY_TOKEN,
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

/** The db StatefulSet's budget allows no disruption: the workers group is blocked. */
const BLOCKING = DEMO_SCENARIO_YAML.replace(
  "pdb: { maxUnavailable: 1 }\n  - kind: Deployment\n    name: ingress-nginx",
  "pdb: { maxUnavailable: 0 }\n  - kind: Deployment\n    name: ingress-nginx",
);

const html = (md: string) => marked.parse(md, { gfm: true, async: false }) as string;

/** The header cells of the job summary's result table, as GitHub renders it. */
function resultTableHeader(summary: string): string[] {
  const tables = html(summary).split("<table>").slice(1);
  const results = tables.find((t) => /<th(?:\s[^>]*)?>policy<\/th>/.test(t));
  if (!results) throw new Error(`no result table in:\n${summary}`);
  const head = results.slice(0, results.indexOf("</thead>"));
  return [...head.matchAll(/<th(?:\s[^>]*)?>([\s\S]*?)<\/th>/g)].map((m) => m[1]!.trim());
}

const readEvents = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RollEvent);

describe("after a plan on a pull request", () => {
  it("says what the plan would do in the outputs, labels the pull request, and keeps others' labels", async () => {
    expect(BLOCKING).not.toBe(DEMO_SCENARIO_YAML);
    const head = "5e".repeat(20);
    served = await serve(BLOCKING, {
      pulls: [
        {
          number: 21,
          headSha: head,
          files: ["policies/demo.yaml"],
          labels: ["needs-review", "noderoll/no-changes"],
        },
      ],
    });
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy() });
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(21, head),
      sha: "6f".repeat(20),
      inputs: { policy: "policies/*.yaml", labels: "true", rehearse: "false" },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const gh = served.server.faces.github;
    const plan = JSON.parse(readFileSync(r.outputs["plan-json"]!, "utf8")) as {
      summary: { nodesToReplace: number };
    };
    expect(r.outputs).toMatchObject({
      result: "planned",
      "nodes-replaced": String(plan.summary.nodesToReplace),
      "groups-rolled": "system,ingress",
      "groups-blocked": "workers",
      "comment-url": gh.comments.find((c) => c.issue === 21)!.html_url,
      "check-run-url": `https://github.com/octo-org/infra/runs/${gh.checkRuns[0]!.id}`,
    });
    expect(r.outputs.summary).toMatch(
      new RegExp(
        `^noderoll planned policies/demo\\.yaml on demo: ${plan.summary.nodesToReplace} nodes to replace in 2 groups, 1 blocked \\(workers: PDB\\), ~[\\dhms]+$`,
      ),
    );
    // A plan run has no roll: its event log is there, empty, for an upload step all the same.
    expect(readFileSync(r.outputs["events-file"]!, "utf8")).toBe("");
    expect(gh.labels.get(21)).toEqual(["needs-review", "noderoll/blocked"]);
    // The result table has no empty column: a plan's row has nothing to note.
    expect(resultTableHeader(r.summary)).toEqual(["policy", "file", "result"]);
  });

  it("with a read-only token (a fork) warns and still plans; labels stay as they were", async () => {
    const head = "7a".repeat(20);
    served = await serve(undefined, {
      pulls: [{ number: 22, headSha: head, files: ["policies/demo.yaml"], labels: ["x"] }],
      readOnlyTokens: [READ_ONLY_TOKEN],
    });
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy() });
    const r = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(22, head),
      sha: "8b".repeat(20),
      inputs: {
        policy: "policies/demo.yaml",
        labels: "true",
        rehearse: "false",
        "github-token": READ_ONLY_TOKEN,
      },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.result).toBe("planned");
    expect(r.stdout).toMatch(/^::warning::The token may not write to octo-org\/infra/m);
    expect(served.server.faces.github.labels.get(22)).toEqual(["x"]);
    expect(r.outputs["comment-url"]).toBe("");
    expect(r.outputs["nodes-replaced"]).toBe("17");
  });
});

describe("after a roll on a merge", () => {
  it("says what was replaced, writes the event log with each drain's evicted pods, labels the merged pull request", async () => {
    const prHead = "9c".repeat(20);
    const merge = "ad".repeat(20);
    served = await serve(undefined, {
      pulls: [
        {
          number: 31,
          headSha: prHead,
          mergeCommitSha: merge,
          files: ["policies/demo.yaml"],
          state: "closed",
          merged: true,
        },
      ],
    });
    const cwd = workspace({ "policies/demo.yaml": fastDemoPolicy() });
    const gh = served.server.faces.github;
    const planned = await runAction({
      served,
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(31, prHead),
      sha: "be".repeat(20),
      inputs: { policy: "policies/demo.yaml", labels: "true", rehearse: "false" },
    });
    expect(planned.code, planned.stdout).toBe(0);
    expect(gh.labels.get(31)).toEqual(["noderoll/to-roll"]);

    const r = await runAction({
      served,
      cwd,
      event: "push",
      payload: pushPayload(merge, ["policies/demo.yaml"]),
      sha: merge,
      // One group of three nodes keeps the roll short; its pods are in namespace "ingress".
      inputs: {
        policy: "policies/demo.yaml",
        groups: "ingress",
        labels: "true",
        "events-file": "out/roll.jsonl",
      },
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({
      result: "success",
      "nodes-replaced": "3",
      "groups-rolled": "ingress",
      "groups-blocked": "",
      "events-file": join(cwd, "out/roll.jsonl"),
      "check-run-url": `https://github.com/octo-org/infra/runs/${gh.checkRuns.find((c) => c.name === "noderoll apply / demo")!.id}`,
      "comment-url": gh.comments.find((c) => c.issue === 31)!.html_url,
    });
    expect(r.outputs.summary).toMatch(
      /^noderoll applied policies\/demo\.yaml on demo: 3 nodes replaced in 1 group in [\dhms]+$/,
    );
    expect(gh.labels.get(31)).toEqual(["noderoll/to-roll", "noderoll/applied"]);

    const events = readEvents(r.outputs["events-file"]!);
    expect(events[0]).toMatchObject({ type: "roll.start", policy: "demo", cluster: "demo" });
    expect(events.at(-1)).toMatchObject({ type: "roll.end", result: "success" });
    const drains = events.filter((e) => e.type === "node.drain.end");
    expect(drains.length).toBeGreaterThan(0);
    for (const d of drains) {
      expect(d.evictedPods ?? [], JSON.stringify(d)).toHaveLength(d.evicted);
      for (const pod of d.evictedPods ?? []) expect(pod).toMatch(/^[a-z0-9-]+\/[a-z0-9.-]+$/);
    }
    expect(drains.some((d) => (d.evictedPods ?? []).some((p) => p.startsWith("ingress/")))).toBe(
      true,
    );
    // The result table's note column is there when a row has something to say.
    expect(resultTableHeader(r.summary)).toEqual(["policy", "file", "result", "note"]);
  });
});

const BAD =
  "apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata: { name: bad }\ncluster: { name: demo, region: eu-west-1 }\ngroups:\n  - name: a\n    rollingUpdate:\n      maxSurge: -2\n";

describe("policy errors in the log", () => {
  it("are ::error workflow commands on their lines when check runs are off, and only the check run's when on", async () => {
    const head = "cf".repeat(20);
    served = await serve(undefined, {
      pulls: [{ number: 41, headSha: head, files: ["policies/bad.yaml"] }],
    });
    const cwd = workspace({ "policies/bad.yaml": BAD });
    const run = (checkRun: string) =>
      runAction({
        served,
        cwd,
        event: "pull_request",
        payload: pullRequestPayload(41, head),
        sha: "d0".repeat(20),
        inputs: { policy: "policies/*.yaml", "check-run": checkRun },
      });
    const line = /^::error title=noderoll policy,file=policies\/bad\.yaml,line=8,col=17::/m;
    const off = await run("false");
    expect(off.code).toBe(1);
    expect(off.stdout).toMatch(line);
    expect(served.server.faces.github.checkRuns).toEqual([]);
    const on = await run("true");
    expect(on.code).toBe(1);
    expect(on.stdout).not.toMatch(line);
    expect(served.server.faces.github.checkRuns[0]!.annotations).toContainEqual(
      expect.objectContaining({ path: "policies/bad.yaml", start_line: 8, start_column: 17 }),
    );
    expect(off.outputs.summary).toBe(
      "noderoll found policies/bad.yaml invalid: nothing was read or changed",
    );
  });

  it("an events-file the action cannot write is refused before anything is read", async () => {
    const cwd = workspace({ "policies/bad.yaml": BAD });
    mkdirSync(join(cwd, "taken"));
    const r = await runAction({
      cwd,
      event: "pull_request",
      payload: pullRequestPayload(41, "cf".repeat(20)),
      sha: "d0".repeat(20),
      inputs: { policy: "policies/*.yaml", "events-file": "taken" },
    });
    expect(r.code).toBe(1);
    expect(r.outputs.result).toBe("refused");
    expect(r.stdout).toMatch(/^::error::input events-file: cannot write .*taken/m);
    expect(existsSync(join(cwd, "taken", "events.jsonl"))).toBe(false);
  });
});
