// The action's post step (action.yml `post:`), as aws-actions/configure-aws-credentials has one for
// its clean-up: it undoes only what the main step left behind when it was cancelled or killed
// before it could finish — the cluster's Lease, released only if this run still holds it
// (compare-and-swap on its resourceVersion), so the next run need not wait out its duration; and
// the check runs it left in progress, completed as cancelled, so none stays "in progress" for
// ever. It never fails the job: the Lease frees itself anyway once its holder stops renewing it.
import * as core from "@actions/core";
import { info } from "./log.js";
import { connectLive } from "../adapters/connect.js";
import { makeOctokit } from "../adapters/github/client.js";
import { cancelIfOpen } from "../adapters/github/check-run.js";
import { LEASE_DURATION_SECONDS, releaseLease } from "../roll/lease.js";
import { errorMessage } from "./context.js";
import { readRunEnv, runKeyOf } from "./env.js";
import {
  CHECKS_STATE,
  LEASE_STATE,
  parseLeaseState,
  parseOpenChecks,
  type LeaseState,
} from "./post-state.js";

async function releaseLock(): Promise<void> {
  const raw = core.getState(LEASE_STATE);
  const held = raw ? parseLeaseState(raw) : [];
  if (held.length === 0) {
    if (raw && raw !== "[]")
      core.warning(
        "noderoll: the saved cluster lock state is not one this action wrote; left alone",
      );
    else info("noderoll: no cluster lock left to release");
    return;
  }
  for (const s of held) await releaseOne(s);
}

/**
 * Give one lock back. Only a holder this job could have been: the state can be forged from a log
 * line, and another run's holder is printed in every log.
 */
async function releaseOne(s: LeaseState): Promise<void> {
  if (!s.holder.startsWith(`${runKeyOf(readRunEnv())}/`)) {
    core.warning("noderoll: the saved cluster lock state is not one this action wrote; left alone");
    return;
  }
  const kubeconfig = core.getInput("kubeconfig");
  const where = `kube-system/${s.name} of cluster ${s.cluster}`;
  try {
    const ports = await connectLive({
      clusterName: s.cluster,
      region: s.region,
      ...(kubeconfig && { kubeconfig }),
    });
    const released = await releaseLease(ports.cluster, s.name, s.holder);
    info(
      released
        ? `noderoll: released the cluster lock ${where}, which this run (${s.holder}) still held`
        : `noderoll: the cluster lock ${where} is no longer this run's (${s.holder}); left alone`,
    );
  } catch (e) {
    core.warning(
      `noderoll: could not release the cluster lock ${where}: ${errorMessage(e)}; it frees itself once unchanged for ${LEASE_DURATION_SECONDS} s`,
    );
  }
}

const KILLED = {
  title: "Cancelled: the job stopped before noderoll could finish",
  summary:
    "The action's main step was cancelled or killed before it could report how the roll ended; its post step completed this check run. What was in flight was abandoned, leaving only marks the next run resumes from: run apply again (or wait for the next scheduled run) to continue, and read its plan for where the cluster stands.",
};

async function completeChecks(): Promise<void> {
  const open = parseOpenChecks(core.getState(CHECKS_STATE) || "[]");
  if (open.length === 0) return;
  const env = readRunEnv();
  const token = core.getInput("github-token");
  if (!token || !env.repo) {
    core.warning(
      `noderoll: ${open.length} check run(s) left in progress; no token to complete them`,
    );
    return;
  }
  const octokit = makeOctokit(token, env.apiUrl);
  for (const c of open) {
    try {
      const r = await cancelIfOpen(octokit, env.repo, { ...c, externalId: runKeyOf(env) }, KILLED);
      info(`noderoll: check run "${c.name}" (${c.id}): ${r}`);
    } catch (e) {
      core.warning(
        `noderoll: could not complete check run "${c.name}" (${c.id}): ${errorMessage(e)}`,
      );
    }
  }
}

await releaseLock();
await completeChecks();
process.exit(0);
