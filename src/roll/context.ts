// What every part of the roll engine needs: the ports, the reporter its events go to,
// cancellation and the deadline. The engine reaches the world only through this.
import type { Cloud, Cluster, Clock, EventInput, Metrics, StopReason } from "../ports/index.js";

export type { StopReason };

export interface RollContext {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
  /** Prometheus, for the gates that query it; absent where the run has no client. */
  metrics?: Metrics;
  emit(e: EventInput): void;
  /** Aborted on SIGTERM/SIGINT (a cancelled workflow): start nothing new, stop waiting. */
  signal: AbortSignal;
  /** Start no new node after this instant (GitHub's 6-hour job limit); undefined: no limit. */
  deadline?: Date;
  /** What the run keeps across its groups (watched caches, budgets' turns); closed with it. */
  state: RunState;
}

/**
 * A part of a run's state, named by the module that keeps it (`const PART = new RunPart(…)`):
 * how to close it when the run is over.
 */
export class RunPart<T> {
  constructor(
    readonly name: string,
    readonly close: (part: T) => Promise<void> | void = () => {},
  ) {}
}

/**
 * The run's state, owned by the run (made with its context, closed once when it ends): each part
 * is made the first time it is asked for and lives until it is dropped or the run ends. Nothing
 * of one run reaches another, whatever else runs in the process.
 */
export class RunState {
  private readonly parts = new Map<RunPart<never>, unknown>();

  /** The run's `part`, made by `make` the first time. */
  of<T>(part: RunPart<T>, make: () => T): T {
    if (!this.parts.has(part as RunPart<never>)) this.parts.set(part as RunPart<never>, make());
    return this.parts.get(part as RunPart<never>) as T;
  }

  /** The run's `part`, if it has one now. */
  peek<T>(part: RunPart<T>): T | undefined {
    return this.parts.get(part as RunPart<never>) as T | undefined;
  }

  /** Forget `part` (the caller has closed it, or it never started): the next ask makes it anew. */
  drop<T>(part: RunPart<T>): void {
    this.parts.delete(part as RunPart<never>);
  }

  /** Close every part, in the order they were made; the state is empty after. */
  async close(): Promise<void> {
    const parts = [...this.parts];
    this.parts.clear();
    for (const [part, value] of parts) await part.close(value as never);
  }
}

/** Raised to stop a group or the roll with a named reason (PodEvictionFailure, …). */
export class RollError extends Error {
  override name = "RollError";
  constructor(
    readonly code:
      | "PodEvictionFailure"
      | "PodsUnschedulable"
      | "NodeCreationFailure"
      | "ValidationFailed"
      | "LockHeld"
      | "UpdateFailed"
      | "Cancelled"
      | "LockLost"
      | "Deadline"
      | "WindowClosed"
      | "ClusterMismatch"
      /** Asked on the cluster's Lease (`noderoll pause` / `abort`, lease-request.ts). */
      | "Paused"
      | "Aborted"
      /** A decision of the plan no longer holds: refused, not re-made (run apply again). */
      | "StalePlan"
      /** A health gate failed (roll/gates.ts): the roll halted before its next cordon. */
      | "GateFailed",
    message: string,
  ) {
    super(message);
  }
}

export function isAbort(e: unknown): boolean {
  return (e as Error)?.name === "AbortError";
}

/**
 * A decision of the plan no longer holds against fresh state (plan/decisions.ts): refused, not
 * re-made — the plan is the contract, and a changed one is to be reviewed again.
 */
export class StalePlan extends RollError {
  constructor(
    /** The group whose decisions no longer hold; absent when it is the plan as a whole's. */
    readonly group: string | undefined,
    readonly stale: readonly { decision: string; detail: string }[],
  ) {
    super(
      "StalePlan",
      `${group ? `${group}: ` : ""}the plan no longer holds — ${stale.map((s) => `${s.decision}: ${s.detail}`).join("; ")}. Nothing of it was started${group ? ` on ${group}` : ""}; plan again and review it`,
    );
  }
}

/** A stop in words. */
export function describeStop(s: StopReason): string {
  switch (s.kind) {
    case "cancelled":
      return "the run was cancelled";
    case "lock-lost":
      return s.why;
    case "deadline":
      return `--max-duration reached at ${s.at}`;
    case "window-closed":
      return `the maintenance window is closed${s.nextOpening ? ` (next opening ${s.nextOpeningLocal ? `${s.nextOpeningLocal}, ` : ""}${s.nextOpening})` : ""}`;
    case "paused":
    case "aborted":
      return `${s.kind} by ${s.by ?? "someone"}${s.at ? ` at ${s.at}` : ""}${s.reason ? ` (reason: ${s.reason})` : ""}`;
  }
}

const STOP_CODE = {
  cancelled: "Cancelled",
  "lock-lost": "LockLost",
  deadline: "Deadline",
  "window-closed": "WindowClosed",
  paused: "Paused",
  aborted: "Aborted",
} as const;

/** Asked for on the cluster's Lease (a pause or an abort): it stands until resumed. */
export const byRequest = (
  s: StopReason,
): s is Extract<StopReason, { kind: "paused" | "aborted" }> =>
  s.kind === "paused" || s.kind === "aborted";

/**
 * What a stop comes to: cancelled (the run ended by others' hand), skipped (deferred: a pause
 * too, exit 3), or failure (an abort: someone judged the roll wrong, exit 1).
 */
export function resultOfStop(s: StopReason): "cancelled" | "skipped" | "failure" {
  if (s.kind === "aborted") return "failure";
  return s.kind === "cancelled" || s.kind === "lock-lost" ? "cancelled" : "skipped";
}

/**
 * How to go on after `s`: run apply again; or, after a pause or an abort (which stands on the
 * Lease, and makes every apply refuse), resume — the command line's or the action's.
 */
export function howToContinue(s: StopReason | undefined, policyFile = "P"): string {
  // The application layer rolls back next, clearing the abort (app/apply.ts): nothing to resume.
  if (s?.kind === "aborted" && s.rollback)
    return "The rollback the abort asks for follows: the groups go back to what they ran before.";
  if (s && byRequest(s))
    return `The ${s.kind === "paused" ? "pause" : "abort"} stands: apply refuses to start until \`noderoll resume --policy ${policyFile}\` (the action: \`mode: resume\`) clears it and continues.`;
  return "Run apply again to continue: it picks up where this run stopped.";
}

/** The run stopped for `stop`, where it was: the rest left for the next run. */
export class Stopped extends RollError {
  constructor(
    readonly stop: StopReason,
    where: string,
  ) {
    super(STOP_CODE[stop.kind], `${describeStop(stop)}; ${where}`);
  }
}
