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
//
// A pause or an abort asked from elsewhere rides on the same Lease (lease-request.ts): the holder
// sees it in what each renewal reads or gets back — every RENEW_EVERY_MS — keeps it through its
// renewals and release, and a run finding one as it takes the Lease refuses to start.
import { KubeApiError, monotonicMs, type Cluster, type Lease } from "../ports/index.js";
import { inFlightOf, sameWork, withRecord, type InFlight } from "./in-flight.js";
import { RollError, type RollContext } from "./context.js";
import { keepRequest, requestChange, requestOf, requestStands } from "./lease-request.js";
import type { LeaseRequest } from "./lease-request.js";

export const LEASE_NAMESPACE = "kube-system";
/** How long a Lease stays ours without renewal, as others measure it. */
export const LEASE_DURATION_SECONDS = 120;
/** Renew this often. */
export const RENEW_EVERY_MS = 30_000;
/** Not renewed for this long: stop everything (well before others may take the Lease). */
export const RENEW_DEADLINE_MS = 60_000;
/** A failed renewal is tried again this soon (sooner when the server says so). */
const RETRY_MS = 2_000;
/** How often a run waiting for the Lease looks at it again. */
const POLL_MS = 10_000;
/**
 * A Lease that claims more than this is a hold (an operator freezing rolls, say), not a run: it
 * is never taken over, whatever it looks like; its holder must release it.
 */
const LONGEST_WAIT_MS = 3600_000;
export const RUN_URL_ANNOTATION = "noderoll.io/run-url";
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
  | {
      ok: false;
      holder: string;
      runUrl?: string;
      expiresAt: number;
      alive: boolean;
      /** Held for longer than any run: never taken over. */
      hold: boolean;
    };

export class ClusterLock {
  private renewing?: Promise<void>;
  private readonly stop = new AbortController();
  private observed?: Observed;
  /** The Lease as this run last wrote it, while it holds it. */
  private written?: Lease;
  /** The renewTime of the last write we saw land (ours: taking or renewing the Lease). */
  private confirmed?: string;
  /** Work in flight on the cluster: found on the Lease when taken, and this run's own. */
  private work: InFlight[] = [];
  /** A pause or an abort standing on the Lease, as this run last read it. */
  private asked?: LeaseRequest;
  readonly me: LeaseHolder;

  /**
   * The Lease API for renewals, not retried underneath: the lock times its own retries against
   * its renew deadline. Taking the Lease goes through the run's ports (retried, named, cancelled).
   */
  private readonly leases: Cluster;

  constructor(
    private readonly ctx: RollContext,
    cluster: string,
    holder: string,
    runUrl?: string,
    private readonly onLost?: (why: string) => void,
    leases: Cluster = ctx.cluster,
  ) {
    this.me = { name: leaseName(cluster), holder, ...(runUrl && { runUrl }) };
    this.leases = leases;
  }

  private meta(resourceVersion?: string): Lease["metadata"] {
    return {
      name: this.me.name,
      namespace: LEASE_NAMESPACE,
      ...(resourceVersion && { resourceVersion }),
      annotations:
        withRecord(
          {
            name: this.me.name,
            annotations: { ...(this.me.runUrl && { [RUN_URL_ANNOTATION]: this.me.runUrl }) },
          },
          this.work,
        ).annotations ?? {},
    };
  }

  /** Work in flight on the cluster, as the Lease records it (another run's, and this one's). */
  get inFlight(): readonly InFlight[] {
    return this.work;
  }

  /**
   * A pause or an abort someone asked for on the Lease while this run holds it (lease-request.ts),
   * as of the last renewal: the engine stops at its next safe point for it.
   */
  get request(): LeaseRequest | undefined {
    return this.asked;
  }

  /** What the Lease says of requests now: a change is said in the log, once. */
  private noteRequest(lease: Lease): void {
    const [was, now] = [this.asked, requestOf(lease)];
    this.asked = now;
    const message = requestChange(was, now);
    if (message) this.ctx.emit({ type: "note", message });
  }

  /**
   * Record work this run started that goes on without it (in-flight.ts). The record rides on the
   * Lease as this run writes it: at once, in a renewal of its own, and in every renewal and the
   * release after — so a write that fails now (a throttled API) is made good within a renewal
   * period, and never holds a renewal up.
   */
  async track(w: InFlight): Promise<void> {
    if (this.work.some((x) => sameWork(x, w))) return;
    this.work = [...this.work, w];
    await this.renewNow().catch(() => undefined);
  }

  /** What work on the record turned out to be (`now`), or that none goes on: said at release. */
  amend(w: InFlight, now: InFlight | undefined): void {
    this.work = this.work.flatMap((x) => (sameWork(x, w) ? (now ? [now] : []) : [x]));
  }

  /** The work is over: off the record, the same way. */
  async untrack(w: InFlight): Promise<void> {
    if (!this.work.some((x) => sameWork(x, w))) return;
    this.work = this.work.filter((x) => !sameWork(x, w));
    await this.renewNow().catch(() => undefined);
  }

  /** Create the Lease, or take it when it is free or has not changed for its whole duration. */
  private async attempt(): Promise<Attempt> {
    const now = this.ctx.clock.now();
    let current: Lease;
    try {
      current = await this.ctx.cluster.getLease(LEASE_NAMESPACE, this.me.name);
    } catch (e) {
      if (!(e instanceof KubeApiError) || e.status !== 404) throw e;
      // Deleted under a holder we saw: it may not know yet (it learns at its next renewal), so
      // the deletion counts as a change of the record and is waited out like one.
      if (this.observed) {
        const since = this.observed.resourceVersion === "" ? this.observed.since : undefined;
        const now = monotonicMs(this.ctx.clock);
        if (since === undefined) this.observed = { resourceVersion: "", since: now, alive: true };
        const from = this.observed.since;
        if (now - from < LEASE_DURATION_SECONDS * 1000)
          return {
            ok: false,
            holder: "(deleted)",
            expiresAt: from + LEASE_DURATION_SECONDS * 1000,
            alive: false,
            hold: false,
          };
      }
      return this.write(() =>
        this.ctx.cluster.createLease(LEASE_NAMESPACE, {
          metadata: this.meta(),
          spec: spec(this.me.holder, now),
        }),
      );
    }
    // Paused or aborted by someone: nothing is started, nothing written, until resumed.
    const standing = requestOf(current);
    if (standing) throw requestStands(standing, LEASE_NAMESPACE, this.me.name);
    const holder = current.spec.holderIdentity;
    const stale = holder ? this.observe(current) : undefined;
    // Whatever the last holder left going goes on: taking the Lease takes its record too.
    this.work = inFlightOf(current);
    if (holder && holder !== this.me.holder && stale && !stale.free)
      return {
        ok: false,
        holder,
        expiresAt: stale.expiresAt,
        alive: this.observed?.alive ?? false,
        hold: stale.hold,
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
      this.confirm(await call());
      return { ok: true };
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 409) return this.attempt();
      throw e;
    }
  }

  /**
   * Note what the record is now; it is free once unchanged for its duration, measured on our own
   * monotonic clock (a clock that steps, or another machine's, must not shorten it).
   */
  private observe(current: Lease): { free: boolean; expiresAt: number; hold: boolean } {
    const now = monotonicMs(this.ctx.clock);
    const rv = current.metadata.resourceVersion ?? "";
    if (this.observed?.resourceVersion !== rv)
      this.observed = { resourceVersion: rv, since: now, alive: this.observed !== undefined };
    const ms = (current.spec.leaseDurationSeconds ?? LEASE_DURATION_SECONDS) * 1000;
    if (ms > LONGEST_WAIT_MS) return { free: false, expiresAt: Infinity, hold: true };
    const expiresAt = this.observed.since + ms;
    return { free: now >= expiresAt, expiresAt, hold: false };
  }

  /**
   * Take the Lease. A holder that renews it is waited for up to `waitMs`; one that has stopped
   * renewing is waited out (its Lease unchanged for its duration), however short `waitMs` is.
   */
  async acquire(waitMs: number): Promise<void> {
    const until = monotonicMs(this.ctx.clock) + waitMs;
    let said: string | undefined;
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
      const now = monotonicMs(this.ctx.clock);
      if (r.hold) throw this.held(r);
      const waitingOut = !r.alive && r.expiresAt <= now + LONGEST_WAIT_MS;
      if (now + POLL_MS > until && !waitingOut) throw this.held(r);
      // Whoever waits says for whom, once per holder and state: a log silent for minutes is not.
      const state = `${r.holder}/${r.alive}`;
      if (said !== state) {
        said = state;
        this.ctx.emit({
          type: "lock.wait",
          holder: r.holder,
          ...(r.runUrl && { runUrl: r.runUrl }),
          alive: r.alive,
          ...(!r.alive && {
            freeBy: new Date(this.ctx.clock.now().getTime() + (r.expiresAt - now)).toISOString(),
          }),
        });
      }
      await this.ctx.clock.sleep(POLL_MS, this.ctx.signal);
    }
  }

  private held(r: Extract<Attempt, { ok: false }>): RollError {
    const who = `${r.holder}${r.runUrl ? ` (${r.runUrl})` : ""}`;
    if (r.hold)
      return new RollError(
        "LockHeld",
        `cluster lock ${LEASE_NAMESPACE}/${this.me.name} is held by ${who} for longer than any roll runs: a hold, not a run. It is never taken over; its holder must release it`,
      );
    const state = r.alive
      ? "it is renewing it"
      : "it stopped renewing it; it is free once unchanged for its duration";
    return new RollError(
      "LockHeld",
      `another roll holds cluster lock ${LEASE_NAMESPACE}/${this.me.name}: ${who}; ${state}. Wait for it to finish, then run again (the command line's --lock-wait waits for it)`,
    );
  }

  /**
   * Renew every RENEW_EVERY_MS; a failed renewal is retried every few seconds. Not renewed by
   * RENEW_DEADLINE_MS, or the Lease taken or deleted: `onLost` says so, and the caller aborts
   * everything in flight.
   */
  private async renewLoop(): Promise<void> {
    let renewed = monotonicMs(this.ctx.clock);
    try {
      for (;;) {
        await this.ctx.clock.sleep(RENEW_EVERY_MS, this.stop.signal);
        const lost = await this.renewBy(renewed + RENEW_DEADLINE_MS);
        if (this.stop.signal.aborted) return;
        if (lost) return this.onLost?.(lost);
        renewed = monotonicMs(this.ctx.clock);
      }
    } catch {
      return; // stopped
    }
  }

  /**
   * Renew before `deadline` (monotonic ms): undefined when renewed, else why the lock is lost.
   * An attempt that fails once the deadline has passed loses the lock, and so does one still
   * unanswered when it passes: the port may retry underneath (the Kubernetes adapter backs off
   * from a 500, 503 or 504), and a renewal that outlasts the deadline must not keep
   * the run going while another may take the Lease (client-go's leader election bounds its
   * renewal by its renew deadline the same way). A renewal that succeeds before the deadline
   * holds it, however late in the wait: the record changed, so no other run can have seen it
   * unchanged for its duration.
   */
  private async renewBy(deadline: number): Promise<string | undefined> {
    const lostMessage = `the cluster lock could not be renewed for ${RENEW_DEADLINE_MS / 1000} s`;
    for (;;) {
      let retryAfter: number | undefined;
      const attempt = this.renewNow().catch((e: unknown) => {
        if (e instanceof KubeApiError && e.status === 404) return "gone" as const;
        if (e instanceof KubeApiError && e.retryAfterSeconds !== undefined)
          retryAfter = Math.min(e.retryAfterSeconds * 1000, RETRY_MS);
        return "failed" as const;
      });
      const outcome = await this.byDeadline(attempt, deadline);
      if (outcome === "late") return lostMessage;
      if (outcome === "renewed") return undefined;
      if (outcome === "taken") return "another run holds the cluster lock now";
      if (outcome === "gone") return "the cluster lock was deleted";
      if (this.stop.signal.aborted) return undefined;
      if (monotonicMs(this.ctx.clock) >= deadline) return lostMessage;
      await this.ctx.clock.sleep(retryAfter ?? RETRY_MS, this.stop.signal);
    }
  }

  /** What `attempt` settles to, or "late" when `deadline` (monotonic ms) comes first. */
  private async byDeadline<T>(attempt: Promise<T>, deadline: number): Promise<T | "late"> {
    const done = new AbortController();
    const ms = Math.max(0, deadline - monotonicMs(this.ctx.clock));
    const late = new Promise<"late">((resolve) => {
      this.ctx.clock.sleep(ms, done.signal).then(
        () => resolve("late"),
        () => undefined, // the attempt settled first
      );
    });
    try {
      return await Promise.race([attempt, late]);
    } finally {
      done.abort();
    }
  }

  /**
   * One write, from the Lease as we last wrote it (its resourceVersion the precondition): a
   * renewal is one request, not two, so it gets through a throttled or flaky API. A conflict
   * means the record changed under us: it is read again, and may be another run's now — or carry
   * a request (lease-request.ts), which the renewal then keeps, and this run sees at once.
   */
  private async renewNow(again = true): Promise<"renewed" | "taken"> {
    if (!this.written) {
      const current = await this.leases.getLease(LEASE_NAMESPACE, this.me.name);
      if (current.spec.holderIdentity !== this.me.holder) return "taken";
      this.written = current;
      // Still ours yet changed since our last confirmed write: only a write of ours whose
      // answer was lost can have done that (taking over or releasing changes the holder).
      if (current.spec.renewTime !== this.confirmed) return this.confirm(current);
    }
    const held = this.written;
    try {
      this.confirm(
        await this.leases.updateLease(LEASE_NAMESPACE, {
          ...held,
          // A pause or an abort on the Lease is not ours to erase: it stays until resumed.
          metadata: { ...held.metadata, annotations: keepRequest(held, this.meta().annotations) },
          spec: { ...held.spec, renewTime: microTime(this.ctx.clock.now()) },
        }),
      );
    } catch (e) {
      // Only a conflict says our copy is stale (a lost answer to a write that landed shows up
      // as one next time); a throttled or failed call leaves it good for the next attempt. A
      // conflict is read again at once, once: what changed the record (a request, mostly) is
      // seen within this renewal period, not a retry later.
      if (!(e instanceof KubeApiError && e.status === 409)) throw e;
      this.written = undefined;
      if (again) return this.renewNow(false);
      throw e;
    }
    return "renewed";
  }

  private confirm(lease: Lease): "renewed" {
    this.written = lease;
    this.confirmed = lease.spec.renewTime;
    this.noteRequest(lease);
    return "renewed";
  }

  /**
   * Give the lease up (no holder) so the next run need not wait for it; through `cluster` when
   * the run's own ports no longer answer (a cancelled run). True when given back; false when it
   * was no longer ours. The caller says which (lock.release only when it was).
   */
  async release(cluster: Cluster = this.leases): Promise<boolean> {
    this.stop.abort();
    await this.renewing;
    return releaseLease(cluster, this.me.name, this.me.holder, this.work);
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
  /** The work in flight the holder knows of (its own record); absent: the record as it is. */
  work?: readonly InFlight[],
): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await cluster.getLease(LEASE_NAMESPACE, name);
    // After a write of ours whose answer was lost (repeated, it conflicts): no holder means it
    // landed — only the holder gives a Lease up; a takeover names another.
    if (current.spec.holderIdentity !== holder)
      return attempt > 0 && current.spec.holderIdentity === undefined;
    const { holderIdentity: _h, ...rest } = current.spec;
    try {
      await cluster.updateLease(LEASE_NAMESPACE, {
        ...current,
        ...(work && { metadata: withRecord(current.metadata, work) }),
        spec: { ...rest, leaseDurationSeconds: 1 },
      });
      return true;
    } catch (e) {
      // A conflict, or an answer that never came: the next read tells whether it landed.
      if (e instanceof KubeApiError && e.status !== 409) throw e;
      if (attempt === 2) throw e;
    }
  }
  return false;
}
