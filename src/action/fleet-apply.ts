// One cluster of a fleet (issue 49): a matrix job of the workflow's `roll` job, `fleet` with
// `policy` naming one member. The whole fleet is read (what is due is the fleet's to say, from
// every cluster's record: app/fleet.ts applyFleet with `only`), and the cluster is rolled only if
// it is due now — its groups' targets under the fleet's pinned release, recorded on the cluster
// as `noderoll fleet apply` records it. The roll is the action's ordinary apply of that policy
// (apply-flow.ts applyOne: its check run, comment, job summary, events file and outputs), over
// the connection the fleet was read through. A cluster that is not due ends skipped, with a
// notice saying why; nothing is changed and the job does not fail.
import * as core from "@actions/core";
import { applyFleet, fleetGated, type FleetDeps } from "../app/fleet.js";
import type { FleetPlan } from "../fleet/schedule.js";
import type { Result } from "../ports/index.js";
import { clusterWords, renderFleetMarkdown, stageWords } from "../render/fleet.js";
import { applyOne, type ApplyTarget } from "./apply-flow.js";
import type { PolicyOutcome, RunContext } from "./context.js";
import { runKeyOf } from "./env.js";
import {
  fleetConnector,
  invalidFleetMarkdown,
  logDiagnostics,
  readFleetInput,
} from "./fleet-files.js";
import { annotateInLog } from "./policy-file.js";
import { expandPolicies } from "./policies.js";

/** Why the cluster of `file` is not started now, in the fleet's words. */
export function notDue(plan: FleetPlan, file: string): { why: string; unreadable: boolean } {
  if (plan.paused) {
    const p = plan.paused;
    return {
      why: `the fleet is paused${p.by ? ` by ${p.by}` : ""}${p.reason ? ` (${p.reason})` : ""}; no cluster starts until noderoll fleet resume`,
      unreadable: false,
    };
  }
  const stage = plan.stages.find((s) => s.clusters.some((c) => c.view.policyFile === file));
  const cluster = stage?.clusters.find((c) => c.view.policyFile === file);
  if (!stage || !cluster) return { why: "the fleet's plan does not list it", unreadable: false };
  const state = cluster.state;
  const why =
    state.kind === "blocked"
      ? stageWords(stage.state)
      : stage.state.kind === "halted" && (state.kind === "queued" || state.kind === "failed")
        ? `stage ${stage.stage.name} ${stageWords(stage.state)}`
        : clusterWords(state);
  return { why, unreadable: state.kind === "unreadable" };
}

const ROLLED: ReadonlySet<string> = new Set(["success", "failure", "cancelled", "skipped"]);

/** The one member file `policy` names, or why the job is refused. */
function memberOf(
  ctx: RunContext,
  fleetName: string,
  fleetFile: string,
  files: readonly string[],
): { file: string } | { refuse: string } {
  const named = expandPolicies(ctx.inputs.policy, ctx.env.workspace);
  if (named.length !== 1)
    return {
      refuse: `with input fleet, input policy names the one cluster's policy this job rolls (a matrix job's \${{ matrix.policy }}); "${ctx.inputs.policy.join(", ")}" names ${named.length} files`,
    };
  const file = named[0] as string;
  if (!files.includes(file))
    return { refuse: `${file} is not a policy of fleet ${fleetName} (${fleetFile})` };
  return { file };
}

/** The outcome of the one cluster, or a refusal (nothing read); an invalid fleet applies nothing. */
export async function fleetApplyFlow(
  ctx: RunContext,
  target: ApplyTarget,
): Promise<PolicyOutcome[] | { refuse: string }> {
  const fleetFile = ctx.inputs.fleet as string;
  const f = readFleetInput(fleetFile, ctx.env.workspace);
  if (!f.ok) {
    logDiagnostics(f.errors);
    annotateInLog(f.errors, ctx.env.workspace);
    ctx.summary.add(
      invalidFleetMarkdown(f, {
        sha: target.sha,
        ...(ctx.env.runUrl && { runUrl: ctx.env.runUrl }),
      }),
    );
    return [
      {
        file: fleetFile,
        name: f.name,
        result: "invalid",
        hasChanges: false,
        message: "invalid fleet",
      },
    ];
  }
  const chosen = memberOf(
    ctx,
    f.name,
    fleetFile,
    f.members.map((m) => m.file),
  );
  if ("refuse" in chosen) return chosen;
  const member = f.members.find((m) => m.file === chosen.file)!;
  const name = member.policy.metadata.name;
  const { connect, opened } = fleetConnector(ctx);
  let rolled: PolicyOutcome | undefined;
  const deps: FleetDeps = {
    runId: runKeyOf(ctx.env),
    connect,
    roll: async (m, _session, policy) => {
      const ports = opened.get(m.file);
      const over = ports ? { ...ctx, connect: () => Promise.resolve(ports) } : ctx;
      core.notice(`${name}: fleet ${f.name} stage ${m.stage} is due: rolling ${m.file}`);
      rolled = await applyOne(over, m.file, policy, target, new Set());
      const result = ROLLED.has(rolled.result) ? (rolled.result as Result) : "failure";
      return { result, message: rolled.message ?? "" };
    },
  };
  const applied = await applyFleet(f.fleet, f.members, deps, {
    retryFailed: ctx.inputs.retryFailed,
    only: [member.file],
  });
  if (rolled) return [rolled];
  const { why, unreadable } = notDue(applied.read.plan, member.file);
  const message = `${member.policy.cluster.name} is not due: ${why}; nothing was changed`;
  if (unreadable) core.error(`noderoll: ${message}`);
  else core.notice(`noderoll: ${message}`);
  const about = { file: fleetFile, gated: fleetGated(f.members), now: applied.read.now };
  ctx.summary.add(renderFleetMarkdown(applied.read.plan, about, f.fleet.release));
  return [
    {
      file: member.file,
      name,
      result: unreadable ? "error" : "skipped",
      hasChanges: false,
      message,
    },
  ];
}
