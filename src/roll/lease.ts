// One roll per cluster: a coordination.k8s.io Lease names the run that holds the cluster, its
// URL and when it expires. A lease not renewed within its duration is stale and may be taken
// over; a live one makes the next run wait (up to a limit) or stop with the holder's name.
// Compare-and-swap on resourceVersion keeps two runs from both winning.
import { KubeApiError, type Lease } from "../ports/index.js";
import { RollError, type RollContext } from "./context.js";

export const LEASE_NAMESPACE = "kube-system";
export const LEASE_DURATION_SECONDS = 300;
const RUN_URL_ANNOTATION = "noderoll.io/run-url";

export interface LeaseHolder {
  name: string;
  holder: string;
  runUrl?: string;
}

const leaseName = (cluster: string) =>
  `noderoll-${cluster}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "-")
    .slice(0, 63);

function expired(lease: Lease, now: Date): boolean {
  const renewed = Date.parse(lease.spec.renewTime ?? lease.spec.acquireTime ?? "");
  const seconds = lease.spec.leaseDurationSeconds ?? LEASE_DURATION_SECONDS;
  return !Number.isFinite(renewed) || renewed + seconds * 1000 <= now.getTime();
}

function spec(holder: string, now: Date, previous?: Lease["spec"]): Lease["spec"] {
  const at = now.toISOString().replace(/\.\d{3}Z$/, ".000000Z");
  return {
    holderIdentity: holder,
    leaseDurationSeconds: LEASE_DURATION_SECONDS,
    acquireTime: at,
    renewTime: at,
    leaseTransitions: (previous?.leaseTransitions ?? 0) + (previous ? 1 : 0),
  };
}

async function tryAcquire(
  ctx: RollContext,
  me: LeaseHolder,
): Promise<{ ok: true; takenOver?: string } | { ok: false; holder: string; runUrl?: string }> {
  const now = ctx.clock.now();
  const meta = {
    name: me.name,
    namespace: LEASE_NAMESPACE,
    annotations: { ...(me.runUrl && { [RUN_URL_ANNOTATION]: me.runUrl }) },
  };
  let current: Lease;
  try {
    current = await ctx.cluster.getLease(LEASE_NAMESPACE, me.name);
  } catch (e) {
    if (!(e instanceof KubeApiError) || e.status !== 404) throw e;
    try {
      await ctx.cluster.createLease(LEASE_NAMESPACE, {
        metadata: meta,
        spec: spec(me.holder, now),
      });
      return { ok: true };
    } catch (c) {
      if (c instanceof KubeApiError && c.status === 409) return tryAcquire(ctx, me);
      throw c;
    }
  }
  const holder = current.spec.holderIdentity;
  if (holder && holder !== me.holder && !expired(current, now)) {
    return {
      ok: false,
      holder,
      ...(current.metadata.annotations?.[RUN_URL_ANNOTATION] && {
        runUrl: current.metadata.annotations[RUN_URL_ANNOTATION],
      }),
    };
  }
  try {
    await ctx.cluster.updateLease(LEASE_NAMESPACE, {
      metadata: { ...meta, resourceVersion: current.metadata.resourceVersion },
      spec: spec(me.holder, now, current.spec),
    });
  } catch (e) {
    if (e instanceof KubeApiError && e.status === 409) return tryAcquire(ctx, me);
    throw e;
  }
  return holder && holder !== me.holder ? { ok: true, takenOver: holder } : { ok: true };
}

export class ClusterLock {
  private renewing?: Promise<void>;
  private stop = new AbortController();
  readonly me: LeaseHolder;

  constructor(
    private readonly ctx: RollContext,
    cluster: string,
    holder: string,
    runUrl?: string,
    private readonly onLost?: (why: string) => void,
  ) {
    this.me = { name: leaseName(cluster), holder, ...(runUrl && { runUrl }) };
  }

  /** Take the lease, waiting up to `waitMs` for a live holder to finish. */
  async acquire(waitMs: number): Promise<void> {
    const until = this.ctx.clock.now().getTime() + waitMs;
    for (;;) {
      const r = await tryAcquire(this.ctx, this.me);
      if (r.ok) {
        this.ctx.emit({
          type: "lock.acquire",
          holder: this.me.holder,
          ...(r.takenOver && { takenOver: r.takenOver }),
        });
        this.renewing = this.renewLoop();
        return;
      }
      if (this.ctx.clock.now().getTime() + 30_000 > until) {
        throw new RollError(
          "LockHeld",
          `another roll holds cluster lock ${LEASE_NAMESPACE}/${this.me.name}: ${r.holder}${r.runUrl ? ` (${r.runUrl})` : ""}; wait for it to finish, or for its lease to expire ${LEASE_DURATION_SECONDS} s after its last renewal`,
        );
      }
      await this.ctx.clock.sleep(30_000, this.ctx.signal);
    }
  }

  /**
   * Renew every third of the lease's duration; a failed renewal is retried until shortly before
   * the lease would expire. If it cannot be renewed, or another run holds it now, the roll must
   * stop: `onLost` says so, and the caller aborts between nodes.
   */
  private async renewLoop(): Promise<void> {
    let renewed = this.ctx.clock.now().getTime();
    while (!this.stop.signal.aborted) {
      try {
        await this.ctx.clock.sleep((LEASE_DURATION_SECONDS * 1000) / 3, this.stop.signal);
        for (;;) {
          const outcome = await this.renewOnce().catch(() => "failed" as const);
          if (outcome === "renewed") break;
          if (
            outcome === "taken" ||
            this.ctx.clock.now().getTime() > renewed + (LEASE_DURATION_SECONDS - 30) * 1000
          ) {
            this.onLost?.(
              outcome === "taken"
                ? "another run holds the cluster lock now"
                : "the cluster lock could not be renewed",
            );
            return;
          }
          await this.ctx.clock.sleep(10_000, this.stop.signal);
        }
        renewed = this.ctx.clock.now().getTime();
      } catch {
        return; // stopped
      }
    }
  }

  private async renewOnce(): Promise<"renewed" | "taken"> {
    const current = await this.ctx.cluster.getLease(LEASE_NAMESPACE, this.me.name);
    if (current.spec.holderIdentity !== this.me.holder) return "taken";
    const renewTime = this.ctx.clock
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, ".000000Z");
    await this.ctx.cluster.updateLease(LEASE_NAMESPACE, {
      ...current,
      spec: { ...current.spec, renewTime },
    });
    return "renewed";
  }

  /** Give the lease up (empty holder) so the next run need not wait for it to expire. */
  async release(): Promise<void> {
    this.stop.abort();
    await this.renewing;
    try {
      const current = await this.ctx.cluster.getLease(LEASE_NAMESPACE, this.me.name);
      if (current.spec.holderIdentity !== this.me.holder) return;
      const { holderIdentity: _h, ...rest } = current.spec;
      await this.ctx.cluster.updateLease(LEASE_NAMESPACE, {
        ...current,
        spec: { ...rest, leaseDurationSeconds: 1 },
      });
    } finally {
      this.ctx.emit({ type: "lock.release", holder: this.me.holder });
    }
  }
}
