// Scaling processes suspended on the Auto Scaling group behind a node group, and what they do to
// a roll (the EC2 Auto Scaling user guide, "Suspend and resume Amazon EC2 Auto Scaling processes"
// and its "Considerations"): with Launch suspended the group launches nothing, so every node
// drained and terminated leaves it a node short for good; with Terminate suspended it terminates
// none of its InService instances, so an old node never leaves it. Either stops the group, and
// deleteAfterDrainTimeout does not help: it goes past pods, and nothing a roll does brings back capacity the
// group will not launch. AddToLoadBalancer suspended: replacements are not registered with the
// group's load balancers and target groups, which empty as the old nodes go. The rest change
// nothing a roll relies on (AZRebalance is one a self-managed roll suspends itself).
import type { AutoScalingGroup } from "../ports/index.js";
import type { LiveGroup, SuspendedProcesses } from "./snapshot.js";
import type { Finding } from "./types.js";

/** The group's suspended processes, when it has any. */
export function suspendedOf(asg: AutoScalingGroup): SuspendedProcesses | undefined {
  const processes = (asg.SuspendedProcesses ?? []).map((p) => ({
    name: p.ProcessName,
    ...(p.SuspensionReason && { reason: p.SuspensionReason }),
  }));
  return processes.length > 0
    ? { autoScalingGroup: asg.AutoScalingGroupName, processes }
    : undefined;
}

/** What each stopping process costs, by who rolls the group. */
const COST: Record<"Launch" | "Terminate", Record<LiveGroup["kind"], string>> = {
  Launch: {
    "self-managed":
      "it launches no instance, so every node drained and terminated would leave the group a node short for good",
    managed:
      "EKS's update launches its new nodes through it: none would come, and the update would fail (NodeCreationFailure) with the group's nodes cordoned",
  },
  Terminate: {
    "self-managed":
      "it terminates none of its InService instances, so no old node would leave the group",
    managed: "EKS could not terminate the old nodes it drained, nor scale the group back down",
  },
};

function resume(asg: string, names: string[]): string {
  return `aws autoscaling resume-processes --auto-scaling-group-name ${asg} --scaling-processes ${names.join(" ")}`;
}

/** Findings about the group's suspended processes: Launch and Terminate stop it, whatever deleteAfterDrainTimeout says. */
export function suspendedFindings(group: LiveGroup): Finding[] {
  const s = group.suspended;
  if (!s) return [];
  const asg = s.autoScalingGroup;
  const out: Finding[] = [];
  const stopping = s.processes.filter((p) => p.name === "Launch" || p.name === "Terminate");
  if (stopping.length > 0) {
    const each = stopping.map(
      (p) =>
        `${p.name}${p.reason ? ` (${p.reason})` : ""}: ${COST[p.name as "Launch" | "Terminate"][group.kind]}`,
    );
    out.push({
      code: "processes-suspended",
      severity: "blocker",
      message: `Auto Scaling group ${asg} has ${stopping.length === 1 ? "a process" : "processes"} suspended that a roll needs — ${each.join("; ")}. deleteAfterDrainTimeout does not get past this: once whoever suspended ${stopping.length === 1 ? "it" : "them"} agrees, ${resume(
        asg,
        stopping.map((p) => p.name),
      )}`,
      objects: [asg],
    });
  }
  if (s.processes.some((p) => p.name === "AddToLoadBalancer"))
    out.push({
      code: "processes-suspended",
      severity: "warning",
      message: `Auto Scaling group ${asg} has AddToLoadBalancer suspended: replacements are not registered with its load balancers or target groups, if it has any, which lose an instance with each old node terminated (${resume(asg, ["AddToLoadBalancer"])})`,
      objects: [asg],
    });
  return out;
}
