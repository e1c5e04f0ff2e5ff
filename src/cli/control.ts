// `noderoll pause|abort --policy P [--reason TEXT] [--sandbox S] [--kubeconfig PATH]` (abort:
// [--rollback]): ask the
// run that holds the policy's cluster — on this machine or any other — to stop at its next node
// boundary, and every apply to refuse until `noderoll resume` (cli/apply.ts, an apply that first
// clears the request). The request is written on the cluster's Lease (src/app/control.ts).
// Exit: 0 asked, 1 error (the cluster not reached, not the policy's), 2 usage.
import { hostname, userInfo } from "node:os";
import { requestStop } from "../app/control.js";
import type { RequestAction } from "../roll/lease-request.js";
import { parseFlags, policyOrExit } from "./args.js";
import { runApply } from "./apply.js";
import { ABORT_OPTIONS, CONTROL_OPTIONS } from "./flags.js";
import type { HintContext } from "./hints.js";
import { liveSession, sandboxSession } from "./session.js";

/** Who asks, as the Lease records it: the user at this host. */
function asker(): string {
  let user = process.env.USER ?? "someone";
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (a container's uid): the environment's name will do.
  }
  return `${user}@${hostname()}`;
}

export async function runControl(
  action: RequestAction,
  args: string[],
  hints: HintContext,
): Promise<number> {
  const { values } = parseFlags(args, action === "abort" ? ABORT_OPTIONS : CONTROL_OPTIONS);
  const rollback = "rollback" in values && values.rollback === true;
  const loaded = policyOrExit(values.policy, hints);
  if ("exitCode" in loaded) return loaded.exitCode;
  const { policy } = loaded;
  const session =
    values.sandbox !== undefined
      ? sandboxSession(values.sandbox)
      : await liveSession(policy, values.kubeconfig, hints);
  try {
    const asked = await requestStop(session, policy, values.policy as string, {
      action,
      by: asker(),
      ...(values.reason?.trim() && { reason: values.reason.trim() }),
      ...(rollback && { rollback: true }),
    });
    process.stdout.write(`${asked.message}\n`);
    if (!rollback || asked.holder) return 0;
  } finally {
    session.close();
  }
  // No run holds the cluster to roll back once stopped: this command does, as `noderoll rollback`
  // (which clears the abort that asked for it).
  return runApply(
    args.filter((a) => a !== "--rollback"),
    hints,
    "rollback",
  );
}
