// Where a fleet keeps its state: on each cluster it rolls, a Lease of its own in kube-system
// beside the cluster's lock (roll/lease-record.ts), so that any run on any machine sees the same
// fleet and a lost runner loses nothing (issue 49). One annotation holds what the fleet rolled
// there (fleet/record.ts); another, a pause that stops every later start.
import { parseRecord, type FleetRecord } from "../fleet/record.js";
import type { ClusterView } from "../fleet/schedule.js";
import type { Cluster } from "../ports/index.js";
import { LEASE_DURATION_SECONDS, leaseName } from "../roll/lease.js";
import { readLease, rewriteAnnotation, type Leases } from "../roll/lease-record.js";

export const FLEET_ANNOTATION = "noderoll.io/fleet";
export const FLEET_PAUSE_ANNOTATION = "noderoll.io/fleet-pause";

/** The fleet's Lease on a cluster, beside its lock. */
export const fleetLeaseName = (cluster: string) => `${leaseName(cluster)}-fleet`.slice(0, 63);

export interface FleetPause {
  fleet: string;
  by?: string;
  reason?: string;
  at: string;
}

export interface StoredState {
  record?: FleetRecord;
  pause?: FleetPause;
  locked: boolean;
}

/** A pause as written; undefined when it does not parse or is another fleet's. */
function pauseOf(raw: string | undefined, fleet: string): FleetPause | undefined {
  if (!raw) return undefined;
  try {
    const p = JSON.parse(raw) as Partial<FleetPause>;
    return p.fleet === fleet && typeof p.at === "string" ? (p as FleetPause) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the cluster says of the fleet: its record (another fleet's is none of ours), a pause, and
 * whether a run holds its lock now — a holder renewing within the Lease's duration, by the
 * cluster's own clock (`now`, asked once the cluster has answered: a live clock follows the API
 * server's only from its first answer); one that stopped renewing was cut short, and resumes.
 */
export async function readStored(
  cluster: Pick<Cluster, "getLease">,
  clusterName: string,
  fleet: string,
  clock: () => Date,
): Promise<StoredState & { now: Date }> {
  const [mine, lock] = await Promise.all([
    readLease(cluster, fleetLeaseName(clusterName)),
    readLease(cluster, leaseName(clusterName)),
  ]);
  const now = clock();
  const record = parseRecord(mine?.metadata.annotations?.[FLEET_ANNOTATION]);
  const renewed = Date.parse(lock?.spec.renewTime ?? "");
  const duration = (lock?.spec.leaseDurationSeconds ?? LEASE_DURATION_SECONDS) * 1000;
  return {
    ...(record?.fleet === fleet && { record }),
    ...(pauseOf(mine?.metadata.annotations?.[FLEET_PAUSE_ANNOTATION], fleet) && {
      pause: pauseOf(mine?.metadata.annotations?.[FLEET_PAUSE_ANNOTATION], fleet),
    }),
    locked: Boolean(lock?.spec.holderIdentity) && now.getTime() - renewed < duration,
    now,
  };
}

/** Write the fleet's record on the cluster (compare-and-swap: another writer's keys are kept). */
export async function writeRecord(cluster: Leases, clusterName: string, record: FleetRecord) {
  await rewriteAnnotation(cluster, fleetLeaseName(clusterName), FLEET_ANNOTATION, () =>
    JSON.stringify(record),
  );
}

/** Set (a pause) or clear (undefined) the fleet's pause on the cluster. */
export async function writePause(
  cluster: Leases,
  clusterName: string,
  pause: FleetPause | undefined,
): Promise<void> {
  await rewriteAnnotation(cluster, fleetLeaseName(clusterName), FLEET_PAUSE_ANNOTATION, (was) =>
    pause ? JSON.stringify(pause) : was === undefined || was === "" ? undefined : "",
  );
}

/** A view of the cluster for the schedule, from what it stores. */
export function viewOf(
  base: Omit<ClusterView, "record" | "locked">,
  stored: StoredState,
): ClusterView {
  return { ...base, ...(stored.record && { record: stored.record }), locked: stored.locked };
}
