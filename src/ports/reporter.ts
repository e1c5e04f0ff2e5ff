// The reporter port: the event log of a roll, one object per line in `apply --events FILE`, and
// the single feed every reporter (console, check run, PR comment, job summary) reads. The engine
// emits events through it; renderers fold them. `t` is ISO-8601, virtual time in the sandbox.
import type { Clock } from "./clock.js";
import type { GroupKindId } from "./cloud.js";

export const PHASES = ["setup", "scale-up", "upgrade", "scale-down"] as const;
export type Phase = (typeof PHASES)[number];
export type Result = "success" | "failure" | "cancelled" | "skipped";

/**
 * Why a run stops before it is done — one type from where it is decided (the engine) to the exit
 * code, the event log (roll.end), the comment and the check run: cancelled (SIGTERM, SIGINT) or
 * its lock lost end the run as cancelled; a deadline (--max-duration) or the maintenance window
 * closing leave the rest for the next run, which picks up where this one stopped. A pause or an
 * abort is asked for on the cluster's Lease (`noderoll pause|abort`, roll/lease-request.ts) by
 * `by`, at `at`, for `reason`: paused is deferred like a deadline, aborted ends as a failure, and
 * either stands — the next apply refuses to start — until `noderoll resume` clears it.
 */
export type StopReason =
  | { kind: "cancelled" }
  | { kind: "lock-lost"; why: string }
  | { kind: "deadline"; at: string }
  | {
      kind: "window-closed";
      nextOpening?: string;
      /** The next opening on the window's clock, its zone named ("Tue 13 Jan 15:00 Europe/Berlin"). */
      nextOpeningLocal?: string;
    }
  | { kind: "paused"; by?: string; reason?: string; at?: string }
  | { kind: "aborted"; by?: string; reason?: string; at?: string; rollback?: boolean };

/** A gate's verdict, as Argo Rollouts' analysis has them: go on, stop, or not known. */
export type GateVerdict = "pass" | "fail" | "inconclusive";

interface Base {
  t: string;
  group?: string;
}

/**
 * Whether an eviction.blocked event's `pdb` says that no budget held the pod: after EKS's
 * failure it reads "none (why)" (being deleted, tolerating every taint) or "unknown".
 */
export function noBudgetHeld(pdb: string): boolean {
  return pdb.startsWith("none") || pdb === "unknown";
}

export type RollEvent = Base &
  (
    | {
        type: "roll.start";
        cluster: string;
        policy: string;
        groups: string[];
        /** kOps' --force: every node of the groups, whatever its version. */
        replaceAll: boolean;
        /** EKS's force: what a drain leaves at its timeout is deleted. */
        deleteAfterDrainTimeout: boolean;
        reason?: string;
        run?: string;
        /** A rollback: the groups go back to what they ran before (app/rollback.ts). */
        rollback?: boolean;
      }
    | {
        type: "roll.end";
        result: Result;
        message?: string;
        /** Why the roll stopped before it was done. */
        stop?: StopReason;
      }
    | { type: "lock.acquire"; holder: string; takenOver?: string }
    | { type: "lock.release"; holder: string }
    /** The lock could not be given back: it stays the run's until the post step (or its
     * duration, unchanged) frees it. */
    | { type: "lock.kept"; holder: string; why: string }
    /**
     * One gate's evaluation (roll/gates.ts): every one is recorded. `value` is what was read
     * ("ALARM", "0.031", "2 pods"), `nodes` the replacements the verdict is about.
     */
    | {
        type: "gate.verdict";
        group: string;
        gate: string;
        verdict: GateVerdict;
        value: string;
        detail?: string;
        nodes?: string[];
      }
    /** The run waits for something outside it (an EKS update another run left going). */
    | { type: "wait.start"; group?: string; what: string }
    | { type: "wait.end"; group?: string }
    /** Another run holds the cluster: this one waits (said once per holder). */
    | {
        type: "lock.wait";
        holder: string;
        runUrl?: string;
        /** It renews the Lease (a live run), or stopped (waited out until `freeBy`). */
        alive: boolean;
        freeBy?: string;
      }
    | {
        type: "group.start";
        group: string;
        /** "missing" when the policy names a group the cluster does not have. */
        kind: GroupKindId | "missing";
        nodes: number;
        replace: number;
      }
    | { type: "group.end"; group: string; result: Result; message?: string }
    | { type: "phase.start"; group: string; phase: Phase }
    | { type: "phase.end"; group: string; phase: Phase; result: Result; message?: string }
    | { type: "validation"; group?: string; ok: boolean; failures: string[] }
    | { type: "asg.resize"; group: string; from: Capacity; to: Capacity }
    | { type: "instance.detach"; group: string; instance: string }
    | {
        /** Auto Scaling refused a detach: the surge not yet made (`nodes`) is given up, and that
         * many more nodes may be out of service at once (`maxUnavailable` now). */
        type: "surge.given-up";
        group: string;
        instance: string;
        nodes: number;
        reason: string;
        maxUnavailable: number;
      }
    | { type: "node.taint"; group: string; node: string; taint: string }
    | { type: "node.cordon"; group: string; node: string }
    | { type: "node.label"; group: string; node: string; label: string }
    | { type: "node.drain.start"; group: string; node: string }
    | {
        type: "node.drain.end";
        group: string;
        node: string;
        evicted: number;
        /** The pods it evicted, "namespace/name" sorted: the first EVICTED_PODS_SHOWN (roll/drain.ts). */
        evictedPods?: string[];
        /** How many more it evicted than `evictedPods` names. */
        evictedPodsNotShown?: number;
        deleted?: string[];
        /** Pods of an unreachable node, not waited for past their deletion (drain-wait.ts). */
        leftBehind?: string[];
      }
    | {
        type: "eviction.blocked";
        group: string;
        node: string;
        pod: string;
        pdb: string;
        /** Not asked again: the eviction API's answer is final, or EKS's update has failed. */
        final?: true;
      }
    | {
        type: "instance.terminate";
        group: string;
        instance: string;
        decrement: boolean;
        /** A warm pool's instance (no node, not one of the planned nodes). */
        warmPool?: true;
      }
    | {
        type: "eks.update";
        group: string;
        updateId: string;
        updateType: string;
        status: string;
        errors: { code: string; message: string; resources: string[] }[];
      }
    | { type: "window.wait"; until: string }
    | { type: "note"; message: string }
  );

export interface Capacity {
  min: number;
  max: number;
  desired: number;
}

/** An event as the engine emits it; the sink stamps the time. */
export type EventInput = RollEvent extends infer E
  ? E extends RollEvent
    ? Omit<E, "t">
    : never
  : never;

/** Where the engine reports what it does. */
export interface Reporter {
  emit(e: EventInput): void;
}

export type Listener = (e: RollEvent) => void;

/** The event sink: stamps each event with the clock's time and hands it to every listener. */
export class EventLog implements Reporter {
  readonly events: RollEvent[] = [];
  private readonly listeners: Listener[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly keep = true,
  ) {}

  on(listener: Listener): void {
    this.listeners.push(listener);
  }

  emit = (e: EventInput): void => {
    const event = { t: this.clock.now().toISOString(), ...e } as RollEvent;
    if (this.keep) this.events.push(event);
    for (const l of this.listeners) l(event);
  };
}
