// One roll per cluster: a coordination.k8s.io Lease names the run that holds the cluster (an
// identity no other run can share), its URL, and how long it stays valid without renewal.
//
// Expiry follows client-go's leader election (k8s.io/client-go/tools/leaderelection), not the
// clocks of other machines: a run never compares another holder's renewTime with its own clock
// (runners' clocks may be minutes apart). It watches the Lease, and only when the record has not
// changed for the Lease's whole duration, measured on its own clock, may it take it over. The
// holder renews well within that duration and, when it cannot renew for RENEW_DEADLINE_MS,
// aborts everything in flight — so it has stopped touching the cluster before anyone else could
// take the Lease. Compare-and-swap on resourceVersion keeps two runs from both winning.
import { KubeApiError, type Lease } from "../ports/index.js";
import { RollError, type RollContext } from "./context.js";

export const LEASE_NAMESPACE = "kube-system";
/** How long a Lease stays ours without renewal, as others measure it. */
export const LEASE_DURATION_SECONDS = 120;
/** Renew this often. */
const RENEW_EVERY_MS = 30_000;
/** Not renewed for this long: stop everything (well before others may take the Lease). */
export const RENEW_DEADLINE_MS = 60_000;
const RETRY_MS = 5_000;
/** How often a run waiting for the Lease looks at it again. */
const POLL_MS = 10_000;
/** A Lease that claims more than this is not waited for: its holder must release it. */
const LONGEST_WAIT_MS = 3600_000;
const RUN_URL_ANNOTATION = "noderoll.io/run-url";

export interface LeaseHolder {
  name: string;
  holder: string;
  runUrl?: string;
}

export const leaseName = (cluster: string) =>
  `noderoll-${cluster}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "-")
    .slice(0, 63);

/** A run's identity: its id plus a nonce, so that no two runs ever share one. */
export function holderIdentity(runId: string): string {
  return `${runId}/${globalThis.crypto.randomUUID().slice(0, 8)}`;
}

const microTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, ".000000Z");

function spec(holder: string, now: Date, previous?: Lease["spec"]): Lease["spec"] {
  return {
    holderIdentity: holder,
    leaseDurationSeconds: LEASE_DURATION_SECONDS,
    acquireTime: microTime(now),
    renewTime: microTime(now),
    leaseTransitions: (previous?.leaseTransitions ?? 0) + (previous ? 1 : 0),
  };
}

/** What a waiting run has seen of someone else's Lease, on its own clock. */
interface Observed {
  resourceVersion: string;
  /** When this record was first seen (own clock, ms). */
  since: number;
  /** The record changed while we watched: its holder is alive. */
  alive: boolean;
}

type Attempt =
  | { ok: true; takenOver?: string }
  | { ok: false; holder: string; runUrl?: string; expiresAt: number; alive: boolean };

export class ClusterLock {
  private renewing?: Promise<void>;
  private readonly stop = new AbortController();
  private observed?: Observed;
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

  private meta(resourceVersion?: string): Lease["metadata"] {
    return {
      name: this.me.name,
      namespace: LEASE_NAMESPACE,
      ...(resourceVersion && { resourceVersion }),
      annotations: { ...(this.me.runUrl && { [RUN_URL_ANNOTATION]: this.me.runUrl }) },
    };
  }

  /** Create the Lease, or take it when it is free or has not changed for its whole duration. */
  private async attempt(): Promise<Attempt> {
    const now = this.ctx.clock.now();
    let current: Lease;
    try {
      current = await this.ctx.cluster.getLease(LEASE_NAMESPACE, this.me.name);
    } catch (e) {
      if (!(e instanceof KubeApiError) || e.status !== 404) throw e;
      return this.write(() =>
        this.ctx.cluster.createLease(LEASE_NAMESPACE, {
          metadata: this.meta(),
          spec: spec(this.me.holder, now),
        }),
      );
    }
    const holder = current.spec.holderIdentity;
    const stale = holder ? this.observe(current) : undefined;
    if (holder && holder !== this.me.holder && stale && !stale.free)
      return {
        ok: false,
        holder,
        expiresAt: stale.expiresAt,
        alive: this.observed?.alive ?? false,
        ...(current.metadata.annotations?.[RUN_URL_ANNOTATION] && {
          runUrl: current.metadata.annotations[RUN_URL_ANNOTATION],
        }),
      };
    const r = await this.write(() =>
      this.ctx.cluster.updateLease(LEASE_NAMESPACE, {
        metadata: this.meta(current.metadata.resourceVersion),
        spec: spec(this.me.holder, now, current.spec),
      }),
    );
    return r.ok && holder && holder !== this.me.holder ? { ok: true, takenOver: holder } : r;
  }

  /** A write that loses a race (409) is tried again from a fresh read. */
  private async write(call: () => Promise<Lease>): Promise<Attempt> {
    try {
      await call();
      return { ok: true };
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 409) return this.attempt();
      throw e;
    }
  }

  /** Note what the record is now; it is free once unchanged for its duration on our clock. */
  private observe(current: Lease): { free: boolean; expiresAt: number } {
    const now = this.ctx.clock.now().getTime();
    const rv = current.metadata.resourceVersion ?? "";
    if (this.observed?.resourceVersion !== rv)
      this.observed = { resourceVersion: rv, since: now, alive: this.observed !== undefined };
    const seconds = current.spec.leaseDurationSeconds ?? LEASE_DURATION_SECONDS;
    const expiresAt = this.observed.since + Math.min(seconds * 1000, LONGEST_WAIT_MS);
    return { free: now >= expiresAt, expiresAt };
  }

  /**
   * Take the Lease. A holder that renews it is waited for up to `waitMs`; one that has stopped
   * renewing is waited out (its Lease unchanged for its duration), however short `waitMs` is.
   */
  async acquire(waitMs: number): Promise<void> {
    const until = this.ctx.clock.now().getTime() + waitMs;
    for (;;) {
      const r = await this.attempt();
      if (r.ok) {
        this.ctx.emit({
          type: "lock.acquire",
          holder: this.me.holder,
          ...(r.takenOver && { takenOver: r.takenOver }),
        });
        this.renewing = this.renewLoop();
        return;
      }
      const now = this.ctx.clock.now().getTime();
      const waitingOut = !r.alive && r.expiresAt <= now + LONGEST_WAIT_MS;
      if (now + POLL_MS > until && !waitingOut) throw this.held(r);
      await this.ctx.clock.sleep(POLL_MS, this.ctx.signal);
    }
  }

  private held(r: Extract<Attempt, { ok: false }>): RollError {
    const state = r.alive
      ? "it is renewing it"
      : `it stopped renewing it; it is free once unchanged for its duration`;
    return new RollError(
      "LockHeld",
      `another roll holds cluster lock ${LEASE_NAMESPACE}/${this.me.name}: ${r.holder}${r.runUrl ? ` (${r.runUrl})` : ""}; ${state}. Wait for it to finish (or run with a longer --lock-wait / lock-wait)`,
    );
  }

  /**
   * Renew every RENEW_EVERY_MS; a failed renewal is retried every few seconds. Not renewed for
   * RENEW_DEADLINE_MS, or taken by another run: `onLost` says so, and the caller aborts
   * everything in flight at once.
   */
  private async renewLoop(): Promise<void> {
    let renewed = this.ctx.clock.now().getTime();
    try {
      for (;;) {
        await this.ctx.clock.sleep(RENEW_EVERY_MS, this.stop.signal);
        for (;;) {
          const outcome = await this.renewOnce().catch(() => "failed" as const);
          if (outcome === "renewed") break;
          if (outcome === "taken") return this.onLost?.("another run holds the cluster lock now");
          if (this.ctx.clock.now().getTime() - renewed >= RENEW_DEADLINE_MS)
            return this.onLost?.(
              `the cluster lock could not be renewed for ${RENEW_DEADLINE_MS / 1000} s`,
            );
          await this.ctx.clock.sleep(RETRY_MS, this.stop.signal);
        }
        renewed = this.ctx.clock.now().getTime();
      }
    } catch {
      return; // stopped
    }
  }

  private async renewOnce(): Promise<"renewed" | "taken"> {
    const current = await this.ctx.cluster.getLease(LEASE_NAMESPACE, this.me.name);
    if (current.spec.holderIdentity !== this.me.holder) return "taken";
    await this.ctx.cluster.updateLease(LEASE_NAMESPACE, {
      ...current,
      spec: { ...current.spec, renewTime: microTime(this.ctx.clock.now()) },
    });
    return "renewed";
  }

  /**
   * Give the lease up (no holder) so the next run need not wait for it; through `cluster` when
   * the run's own ports no longer answer (a cancelled run).
   */
  async release(cluster: RollContext["cluster"] = this.ctx.cluster): Promise<void> {
    this.stop.abort();
    await this.renewing;
    try {
      await releaseLease(cluster, this.me.name, this.me.holder);
    } finally {
      this.ctx.emit({ type: "lock.release", holder: this.me.holder });
    }
  }
}

/**
 * Release a Lease if, and only if, `holder` holds it (compare-and-swap on its resourceVersion):
 * also what the action's post step does when the main step was cancelled or killed.
 */
export async function releaseLease(
  cluster: RollContext["cluster"],
  name: string,
  holder: string,
): Promise<boolean> {
  const current = await cluster.getLease(LEASE_NAMESPACE, name);
  if (current.spec.holderIdentity !== holder) return false;
  const { holderIdentity: _h, ...rest } = current.spec;
  await cluster.updateLease(LEASE_NAMESPACE, {
    ...current,
    spec: { ...rest, leaseDurationSeconds: 1 },
  });
  return true;
}
