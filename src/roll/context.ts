// What every part of the roll engine needs: the ports, the event sink, cancellation and the
// deadline. The engine reaches the world only through this.
import type { Cloud, Cluster, Clock } from "../ports/index.js";
import type { RollEvent } from "./events.js";

/** An event as the engine emits it; the sink stamps the time. */
export type EventInput = RollEvent extends infer E
  ? E extends RollEvent
    ? Omit<E, "t">
    : never
  : never;

export interface RollContext {
  cloud: Cloud;
  cluster: Cluster;
  clock: Clock;
  emit(e: EventInput): void;
  /** Aborted on SIGTERM/SIGINT (a cancelled workflow): start nothing new, stop waiting. */
  signal: AbortSignal;
  /** Start no new node after this instant (GitHub's 6-hour job limit); undefined: no limit. */
  deadline?: Date;
}

export type Listener = (e: RollEvent) => void;

/** The event sink: stamps each event with the clock's time and hands it to every listener. */
export class EventLog {
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

/** Raised to stop a group or the roll with a named reason (PodEvictionFailure, …). */
export class RollError extends Error {
  override name = "RollError";
  constructor(
    readonly code:
      | "PodEvictionFailure"
      | "NodeCreationFailure"
      | "ValidationFailed"
      | "LockHeld"
      | "UpdateFailed"
      | "Cancelled"
      | "Deadline"
      | "WindowClosed",
    message: string,
  ) {
    super(message);
  }
}

export function isAbort(e: unknown): boolean {
  return (e as Error)?.name === "AbortError";
}
