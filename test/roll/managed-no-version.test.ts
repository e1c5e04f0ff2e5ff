// A managed node group at its target already, with nodes to replace for another reason (replace-all,
// maxNodeAge, the needs-update annotation): EKS replaces a managed group's nodes only through an
// update to another release, Kubernetes version or launch template version, and answers one to
// where it is with InvalidParameterException "already at release version" (issue 46, item 6).
// The plan must not promise what apply cannot do: a blocker with the reason, and apply changes
// nothing.
import { describe, expect, it } from "vitest";
import { observeAndPlan } from "../../src/engine/index.js";
import { apply } from "../../src/engine/apply.js";
import { EventLog } from "../../src/ports/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor, roll } from "./scenarios.js";

const world = () => World.from(managedScenario({ nodes: 4 }));

describe("a managed node group at its target, with nodes to replace for another reason", () => {
  it.each([
    ["replace-all", "groups: [{ name: ng }]\n", { replaceAll: true }],
    ["maxNodeAge", "groups: [{ name: ng, rollingUpdate: { maxNodeAge: 7d } }]\n", {}],
  ] as const)(
    "(%s) is blocked with the reason, not planned as a roll EKS refuses",
    async (_, body, o) => {
      const w = world();
      const { plan } = await w.run(observeAndPlan(policyFor(body, "test"), "policy.yaml", w, o));
      const g = plan.groups[0]!;
      expect(g.replacements).toHaveLength(4);
      expect(g.status).toBe("blocked");
      const f = g.findings.find((x) => x.code === "no-version-change");
      expect(f?.severity).toBe("blocker");
      expect(f?.message).toMatch(
        /^node group ng is at its target already \(Kubernetes 1\.32, release 1\.32\.3-20250519\): EKS replaces/,
      );
    },
  );

  it("is refused by apply before anything is changed", async () => {
    const w = world();
    const r = await roll(w, policyFor("groups: [{ name: ng }]\n", "test"), {
      replaceAll: true,
      reason: "CVE-2026-0001",
    });
    expect(r.result.result).toBe("failure");
    expect(r.result.message).toMatch(/not started, it would fail: node group ng is at its target/);
    expect(ofType(r.events, "eks.update")).toEqual([]);
    expect(w.calls.get("eks.updateNodegroupVersion") ?? 0).toBe(0);
  });

  it("is not blocked when the target moves it (a newer release)", async () => {
    const w = world();
    const p = policyFor(
      `groups: [{ name: ng, target: { releaseVersion: "1.32.5-20250715" } }]\n`,
      "test",
    );
    const { plan } = await w.run(observeAndPlan(p, "policy.yaml", w, { replaceAll: true }));
    expect(plan.groups[0]!.findings.map((f) => f.code)).not.toContain("no-version-change");
    expect(plan.groups[0]!.status).toBe("roll");
  });

  it("a forced plan to a newer release, applied again once done, finds nothing left (not a stale plan)", async () => {
    const w = world();
    const p = policyFor(
      `groups: [{ name: ng, target: { releaseVersion: "1.32.5-20250715" } }]\n`,
      "test",
    );
    const { plan } = await w.run(
      observeAndPlan(p, "policy.yaml", w, { replaceAll: true, deleteAfterDrainTimeout: true }),
    );
    const run = () =>
      w.run(apply(p, plan, w, new EventLog(w.clock), { runId: "again", reason: "CVE" }));
    expect((await run()).result).toBe("success");
    expect(w.eks.nodegroups.get("ng")!.releaseVersion).toBe("1.32.5-20250715");
    const again = await run();
    expect(again).toMatchObject({ result: "success" });
    expect(w.calls.get("eks.updateNodegroupVersion")).toBe(1);
  });
});
