// What the main step leaves for the post step about the cluster lock it holds (GITHUB_STATE):
// written when the lock is taken, cleared when it is released.
import * as core from "@actions/core";
import type { Policy } from "../policy/index.js";
import type { RollEvent } from "../ports/index.js";
import { leaseName } from "../roll/lease.js";

export const LEASE_STATE = "noderoll-lease";

export interface LeaseState {
  cluster: string;
  region: string;
  name: string;
  holder: string;
}

/**
 * The state, if it is what recordLease wrote. The post step reads nothing else from it (the
 * kubeconfig comes from the step's own input): state can be forged by a workflow command in a
 * log line, so it must not be able to point the post step at a file or another cluster.
 */
export function parseLeaseState(raw: string): LeaseState | undefined {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const s = v as Record<string, unknown>;
  const ok = (x: unknown, re: RegExp) => typeof x === "string" && re.test(x);
  if (
    !ok(s.cluster, /^[0-9A-Za-z][A-Za-z0-9\-_]{0,99}$/) ||
    !ok(s.region, /^[a-z]{2}(-[a-z]+)+-\d+$/) ||
    !ok(s.holder, /^[\w.:@-]{1,200}\/[0-9a-f]{8}$/) ||
    s.name !== leaseName(s.cluster as string)
  )
    return undefined;
  return {
    cluster: s.cluster as string,
    region: s.region as string,
    name: s.name as string,
    holder: s.holder as string,
  };
}

export function recordLease(e: RollEvent, policy: Policy): void {
  if (e.type === "lock.release") core.saveState(LEASE_STATE, "");
  if (e.type !== "lock.acquire") return;
  const state: LeaseState = {
    cluster: policy.cluster.name,
    region: policy.cluster.region,
    name: leaseName(policy.cluster.name),
    holder: e.holder,
  };
  core.saveState(LEASE_STATE, JSON.stringify(state));
}
