// The action's post step (action.yml `post:`), as aws-actions/configure-aws-credentials has one for
// its clean-up: when the main step was cancelled or killed while it held a cluster's Lease, the
// post step releases it — only if this run still holds it (compare-and-swap on its
// resourceVersion) — so the next run need not wait out the Lease's duration. It never fails
// the job: the Lease frees itself anyway once its holder stops renewing it.
import * as core from "@actions/core";
import { info } from "./log.js";
import { connectLive } from "../adapters/connect.js";
import { LEASE_DURATION_SECONDS, releaseLease } from "../roll/lease.js";
import { errorMessage } from "./context.js";
import { LEASE_STATE, parseLeaseState } from "./lease-state.js";

async function post(): Promise<void> {
  const raw = core.getState(LEASE_STATE);
  if (!raw) {
    info("noderoll: no cluster lock left to release");
    return;
  }
  const s = parseLeaseState(raw);
  if (!s) {
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

await post();
process.exit(0);
