// The faults a scenario can ask for (docs/sandbox.md, "Scenario files"), and the EKS behaviours
// its documentation leaves open. Each applies in-process (at the port faces) and on the wire
// (`sandbox serve`), so the engine and the real adapters meet the same hostile world.
import { z } from "zod";
import { badRelease } from "./signals.js";
import { seconds, share } from "./units.js";

export const faults = z
  .strictObject({
    launchFailures: z
      .array(
        z.strictObject({
          zone: z.string().optional(),
          group: z.string().optional(),
          from: seconds.default(0),
          for: seconds,
        }),
      )
      .default([]),
    /** Instances launched from `from` on (for `for`, when given: the fix) never turn Ready. */
    nodesNeverReady: z
      .array(
        z.strictObject({
          group: z.string().optional(),
          from: seconds.default(0),
          for: seconds.optional(),
        }),
      )
      .default([]),
    /** Instances launched from `from` on run, but their kubelet never registers a node (a
     * bootstrap that fails, a wrong cluster endpoint in the user data). */
    nodesNeverJoin: z
      .array(z.strictObject({ group: z.string().optional(), from: seconds.default(0) }))
      .default([]),
    /**
     * Nodes whose kubelet stops reporting while their instances run on (a hung or partitioned
     * host): at `at`, the first `count` Ready nodes, by name, of `group` (default: any group).
     */
    nodesUnreachable: z
      .array(
        z.strictObject({
          group: z.string().optional(),
          count: z.number().int().min(1).default(1),
          at: seconds.default(0),
        }),
      )
      .default([]),
    /** Node images that break what runs on them (signals.ts): what health gates are for. */
    badRelease: z.array(badRelease).default([]),
    /** Workloads ("name" or "namespace/name") whose pods never finish terminating. */
    stuckTerminating: z.array(z.string()).default([]),
    throttle: z
      .array(
        z.strictObject({
          api: z.enum(["kubernetes", "aws"]),
          rate: z.number().min(0).max(1),
          retryAfter: seconds.default(1),
        }),
      )
      .default([]),
    /** Calls that get no timely answer: reset, answer lost, stalled, or slow. */
    network: z
      .array(
        z.strictObject({
          api: z.enum(["kubernetes", "aws"]),
          /** The connection is reset before the server sees the request. */
          reset: share,
          /** The server acts on the request, then the connection is reset: the answer is lost. */
          lostAnswer: share,
          /** No answer at all: in-process the call fails after `timeout`; on the wire it hangs. */
          stall: share,
          /** Answered `delay` late. */
          slow: share,
          delay: seconds.default(5),
          /** The adapters' request timeout, which ends a stalled call in-process. */
          timeout: seconds.default(30),
          /** Only these calls ("core.listNodes", "eks.describeUpdate", ...); default all. */
          calls: z.array(z.string()).optional(),
        }),
      )
      .default([]),
    /** Node, pod and PodDisruptionBudget watches that misbehave, each at a random moment within
     * `within`. */
    watch: z
      .array(
        z.strictObject({
          /** Events stop; the connection stays open (no bytes, no close). */
          stall: share,
          /** 410 Gone mid-watch ("too old resource version"). */
          gone: share,
          /** The server ends the watch early. */
          endEarly: share,
          within: seconds.default(120),
        }),
      )
      .default([]),
    /** AWS's "busy, try later" refusals of the writes a roll makes. */
    tryLater: z
      .array(
        z.strictObject({
          rate: z.number().min(0).max(1),
          /** Default: the Auto Scaling and EKS writes a roll makes. */
          calls: z.array(z.string()).optional(),
        }),
      )
      .default([]),
  })
  .prefault({});

/** The groups and workloads the faults name must exist. */
export function faultIssues(
  s: {
    nodeGroups: { name: string }[];
    workloads: { name: string; namespace: string }[];
    faults: z.output<typeof faults>;
  },
  ctx: z.RefinementCtx,
): void {
  s.faults.nodesUnreachable.forEach((f, i) => {
    if (f.group !== undefined && !s.nodeGroups.some((g) => g.name === f.group))
      ctx.addIssue({
        code: "custom",
        path: ["faults", "nodesUnreachable", i, "group"],
        message: `no node group "${f.group}" in this scenario`,
      });
  });
  s.faults.stuckTerminating.forEach((name, i) => {
    if (!s.workloads.some((w) => w.name === name || `${w.namespace}/${w.name}` === name))
      ctx.addIssue({
        code: "custom",
        path: ["faults", "stuckTerminating", i],
        message: `no workload "${name}" in this scenario`,
      });
  });
}

/** EKS behaviours that its documentation leaves open, selectable per scenario. */
export const eks = z
  .strictObject({
    /**
     * When EKS cordons the old nodes: after each one's drain (the user guide's text), or all of
     * them as soon as the new nodes are Ready (awsdocs/amazon-eks-user-guide pull request 1229).
     */
    cordon: z.enum(["after-drain", "when-new-nodes-ready"]).default("after-drain"),
    /** ListUpdates: the API promises no order; `pageSize` ids per page at most. */
    updates: z
      .strictObject({
        order: z.enum(["arbitrary", "newest-first"]).default("arbitrary"),
        pageSize: z.number().int().min(1).max(100).default(3),
      })
      .prefault({}),
    /**
     * Version updates someone else starts (a console click, another tool) at `at`: noderoll must
     * tell them from its own.
     */
    startedByOthers: z
      .array(
        z.strictObject({
          nodegroup: z.string(),
          version: z.string().optional(),
          releaseVersion: z.string().optional(),
          at: seconds.default(0),
        }),
      )
      .default([]),
  })
  .prefault({});
