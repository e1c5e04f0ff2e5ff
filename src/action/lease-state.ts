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
  kubeconfig?: string;
}

export function recordLease(e: RollEvent, policy: Policy, kubeconfig?: string): void {
  if (e.type === "lock.release") core.saveState(LEASE_STATE, "");
  if (e.type !== "lock.acquire") return;
  const state: LeaseState = {
    cluster: policy.cluster.name,
    region: policy.cluster.region,
    name: leaseName(policy.cluster.name),
    holder: e.holder,
    ...(kubeconfig && { kubeconfig }),
  };
  core.saveState(LEASE_STATE, JSON.stringify(state));
}
