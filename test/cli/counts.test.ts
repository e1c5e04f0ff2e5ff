// The command line's closing line and the check runs it previews (--out) count the groups the
// plan counts (issue 48, item 1): in policies/mixed.yaml, ingress-b has nothing to change — the
// plan says 3 groups to roll, and so does everything after the roll.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

describe("noderoll apply of the mixed example", () => {
  it("closes with the plan's count of groups to roll, as the check run and the comment do", () => {
    const out = mkdtempSync(join(tmpdir(), "noderoll-counts-"));
    const args = ["--policy", "policies/mixed.yaml", "--sandbox", "policies/sandbox/mixed.yaml"];
    const r = runCli(["apply", ...args, "--auto-approve", "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      "\nPlan: 3 groups to roll (13 nodes), 1 config change, 0 blocked.\n",
    );
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("success: 3 groups rolled");
    const runs = JSON.parse(readFileSync(join(out, "check-runs.json"), "utf8")) as {
      output: { title: string };
    }[];
    expect(runs.at(-1)!.output.title).toBe("Rolled 13/13 nodes: 3 groups rolled");
    expect(readFileSync(join(out, "comment.md"), "utf8")).toContain("\n- 3 groups rolled\n");
  });
});
