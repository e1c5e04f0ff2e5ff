// What the main step leaves for the post step (GITHUB_STATE): the cluster lock it holds (written
// when the lock is taken, cleared only once it is given back) and the check runs it has open
// (written when one is created, cleared as each is completed). A main step cancelled or killed
// before it could finish leaves them to the post step, which gives the lock back and completes
// the check runs as cancelled.
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

export const CHECKS_STATE = "noderoll-check-runs";

/** A check run the main step created and has not completed: its id and name. */
export interface OpenCheck {
  id: number;
  name: string;
}

/** The open check runs, as the main step saved them. */
export function saveOpenChecks(open: readonly OpenCheck[]): void {
  core.saveState(CHECKS_STATE, JSON.stringify(open));
}

/**
 * The saved open check runs, if the state is what saveOpenChecks wrote: ids, and names of
 * noderoll's own check runs only (state can be forged from a log line; the post step completes
 * nothing else).
 */
export function parseOpenChecks(raw: string): OpenCheck[] {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  return v.flatMap((c: Record<string, unknown>) =>
    c &&
    Number.isSafeInteger(c.id) &&
    (c.id as number) > 0 &&
    typeof c.name === "string" &&
    /^noderoll (plan|apply) \/ [^\n]{1,200}$/.test(c.name)
      ? [{ id: c.id as number, name: c.name }]
      : [],
  );
}
