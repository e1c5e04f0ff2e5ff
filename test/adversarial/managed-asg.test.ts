// Adversarial review of issue 44, defect 1's "every Auto Scaling group the policy names must
// belong to that cluster (its kubernetes.io/cluster/<name> tag, or the EKS node group's cluster)".
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { EventLog } from "../../src/ports/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { managedScenario } from "../sandbox/helpers.js";
import { ofType, policyFor } from "../roll/scenarios.js";

describe("a policy naming the Auto Scaling group behind an EKS managed node group", () => {
  // The console and `aws autoscaling describe-auto-scaling-groups` show a managed node group's
  // group as eks-<nodegroup>-<uuid>, tagged eks:cluster-name and eks:nodegroup-name (and the
  // cluster autoscaler's discovery tags): a policy generated from that list names it. It is
  // looked up as a self-managed group (src/kinds/registry.ts: "any other is looked up as an Auto
  // Scaling group"), belongs to the cluster by its eks:cluster-name tag, and a forced roll
  // (an emergency dispatch) suspends AZRebalance on EKS's group, detaches and terminates its
  // instances behind EKS's back — and the replacements come from EKS's own launch template, so
  // nothing is upgraded. Expected: an error of the group that names node group ng (roll it by
  // that name; EKS rolls it), and no write to EKS's Auto Scaling group.
  it("is an error of its group naming the node group; nothing of it is detached or terminated", async () => {
    const world = World.from(managedScenario({ zones: 2, nodes: 4 }));
    const asg = world.eks.nodegroups.get("ng")!.asg;
    const policy = policyFor(`groups: [{ name: ${asg} }]\n`, "test");
    const { plan } = await world.run(
      observeAndPlan(policy, "p.yaml", world, { replaceAll: true, deleteAfterDrainTimeout: true }),
    );
    const log = new EventLog(world.clock);
    await world.run(
      planAndApply(policy, "p.yaml", world, log, {
        runId: "dispatch",
        replaceAll: true,
        deleteAfterDrainTimeout: true,
        reason: "CVE",
      }),
    );
    expect({
      status: plan.groups[0]?.status,
      namesNodegroup: (plan.groups[0]?.errors ?? []).some((e) => /\bng\b/.test(e)),
      detached: ofType(log.events, "instance.detach").length,
      terminated: ofType(log.events, "instance.terminate").length,
    }).toEqual({ status: "error", namesNodegroup: true, detached: 0, terminated: 0 });
  });
});
