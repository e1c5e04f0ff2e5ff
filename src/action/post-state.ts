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
 * The held locks, if the state is what PostState wrote: a list, each entry checked on its own
 * (one that is not ours is dropped). The post step reads nothing else from it (the kubeconfig
 * comes from the step's own input): state can be forged by a workflow command in a log line, so
 * it must not be able to point the post step at a file or another cluster.
 */
export function parseLeaseState(raw: string): LeaseState[] {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return [];
  }
  return (Array.isArray(v) ? v : []).flatMap((x) => {
    const l = leaseEntry(x);
    return l ? [l] : [];
  });
}

function leaseEntry(v: unknown): LeaseState | undefined {
  const s = (v ?? {}) as Record<string, unknown>;
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

/**
 * What this job holds that its post step would have to undo: the locks it took and has not
 * given back (a job applying several policies may hold — or have failed to give back — more
 * than one), and the check runs it opened and has not completed. Saved at every change.
 */
export class PostState {
  private readonly leases = new Map<string, LeaseState>();
  private readonly checks = new Map<number, string>();

  /** The lock taken (lock.acquire) or given back (lock.release), for the policy's cluster. */
  record(e: RollEvent, policy: Policy): void {
    if (e.type === "lock.release") this.leases.delete(e.holder);
    else if (e.type === "lock.acquire")
      this.leases.set(e.holder, {
        cluster: policy.cluster.name,
        region: policy.cluster.region,
        name: leaseName(policy.cluster.name),
        holder: e.holder,
      });
    else return;
    core.saveState(LEASE_STATE, JSON.stringify([...this.leases.values()]));
  }

  checkOpened(id: number, name: string): void {
    this.checks.set(id, name);
    this.saveChecks();
  }

  checkClosed(id: number): void {
    if (this.checks.delete(id)) this.saveChecks();
  }

  private saveChecks(): void {
    const open: OpenCheck[] = [...this.checks].map(([id, name]) => ({ id, name }));
    core.saveState(CHECKS_STATE, JSON.stringify(open));
  }
}

export const CHECKS_STATE = "noderoll-check-runs";

/** A check run the main step created and has not completed: its id and name. */
export interface OpenCheck {
  id: number;
  name: string;
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
