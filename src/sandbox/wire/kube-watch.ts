// Watches for the Kubernetes face. The face keeps its own short history of node, pod and
// PodDisruptionBudget events,
// stamped with increasing resourceVersions, because a client that lists and then watches "from
// the list's resourceVersion" must see what happened in between (virtual time may jump between
// two requests). Older versions than the history holds answer 410 Gone, as the watch cache does.
import type { ServerResponse } from "node:http";
import type { Node, Pod, PodDisruptionBudget, WatchEvent } from "../../ports/cluster.js";
import type { KubeSim, Watcher } from "../sim/kube/kube.js";

/** What the hub needs of the Kubernetes simulator: its resourceVersions and its watchers. */
export type KubeEvents = Pick<
  KubeSim,
  | "rv"
  | "nextRv"
  | "addNodeWatcher"
  | "removeNodeWatcher"
  | "addPodWatcher"
  | "removePodWatcher"
  | "addPdbWatcher"
  | "removePdbWatcher"
>;

export type WatchKind = "nodes" | "pods" | "poddisruptionbudgets";
export type KubeObject = Node | Pod | PodDisruptionBudget;

export interface StampedEvent {
  rv: number;
  kind: WatchKind;
  type: WatchEvent<KubeObject>["type"];
  object: KubeObject;
}

interface Subscriber {
  kind: WatchKind;
  filter: (o: KubeObject) => boolean;
  send: (e: StampedEvent) => void;
}

/** Taps the world's node and pod events and fans them out to HTTP watchers. */
export class WatchHub {
  readonly history: StampedEvent[] = [];
  /** The oldest resourceVersion a watch may start from; older ones are 410 Gone. */
  floor: number;
  /** The newest stamp handed out. */
  last: number;
  readonly #subs = new Set<Subscriber>();

  /** `kinds`: what to keep history of — a tap on budgets makes the simulator compute their
   * status at every pod event (pdb-events.ts), so a hub that serves no budget watch leaves them. */
  constructor(
    private readonly kube: KubeEvents,
    private readonly limit = 10_000,
    private readonly kinds: readonly WatchKind[] = ["nodes", "pods", "poddisruptionbudgets"],
  ) {
    this.floor = kube.rv;
    this.last = kube.rv;
    // Taps that keep no filter of their own: every event passes through the history.
    this.#nodeTap = {
      filter: () => true,
      stream: { push: (e: WatchEvent<Node>) => this.#record("nodes", e) },
    };
    this.#podTap = {
      filter: () => true,
      stream: { push: (e: WatchEvent<Pod>) => this.#record("pods", e) },
    };
    this.#pdbTap = {
      filter: () => true,
      stream: {
        push: (e: WatchEvent<PodDisruptionBudget>) => this.#record("poddisruptionbudgets", e),
      },
    };
    if (kinds.includes("nodes")) kube.addNodeWatcher(this.#nodeTap);
    if (kinds.includes("pods")) kube.addPodWatcher(this.#podTap);
    if (kinds.includes("poddisruptionbudgets")) kube.addPdbWatcher(this.#pdbTap);
  }

  readonly #nodeTap: Watcher<Node>;
  readonly #podTap: Watcher<Pod>;
  readonly #pdbTap: Watcher<PodDisruptionBudget>;

  /** Stop listening to the world (the server is closing). */
  close(): void {
    if (this.kinds.includes("nodes")) this.kube.removeNodeWatcher(this.#nodeTap);
    if (this.kinds.includes("pods")) this.kube.removePodWatcher(this.#podTap);
    if (this.kinds.includes("poddisruptionbudgets")) this.kube.removePdbWatcher(this.#pdbTap);
  }

  #record(kind: WatchKind, e: WatchEvent<KubeObject>): void {
    const kube = this.kube;
    const objectRv = Number(e.object.metadata.resourceVersion ?? 0);
    // Deletions carry the object's last version in the sandbox; a watch needs a newer one.
    let rv = objectRv > this.last ? objectRv : this.last;
    let object = e.object;
    if (e.type === "DELETED") {
      rv = kube.nextRv();
      object = { ...e.object, metadata: { ...e.object.metadata, resourceVersion: String(rv) } };
    }
    this.last = Math.max(this.last, rv);
    const stamped: StampedEvent = { rv, kind, type: e.type, object };
    this.history.push(stamped);
    // Trimmed a quarter at a time, not one event per event: a splice moves the whole array.
    if (this.history.length > this.limit + (this.limit >> 2)) {
      const dropped = this.history.splice(0, this.history.length - this.limit);
      this.floor = Math.max(this.floor, dropped[dropped.length - 1]!.rv);
    }
    for (const s of this.#subs) if (s.kind === kind && s.filter(object)) s.send(stamped);
  }

  /** Events after `rv`, or undefined when `rv` is older than the history reaches. */
  since(
    rv: number,
    kind: WatchKind,
    filter: (o: KubeObject) => boolean,
  ): StampedEvent[] | undefined {
    if (rv < this.floor) return undefined;
    return this.history.filter((e) => e.rv > rv && e.kind === kind && filter(e.object));
  }

  subscribe(s: Subscriber): () => void {
    this.#subs.add(s);
    return () => this.#subs.delete(s);
  }

  /** Watches open now (what the time driver asks: is every client just waiting?). */
  get open(): number {
    return this.#subs.size;
  }
}

export interface WatchPlan {
  hub: WatchHub;
  kind: WatchKind;
  filter: (o: KubeObject) => boolean;
  /** Events to send first: synthetic ADDEDs or a replay (objects as the world gives them). */
  initial: { type: string; object: KubeObject }[];
  /** How an event's object goes on the wire (with kind and apiVersion, or as a Table). */
  render: (object: KubeObject) => unknown;
  bookmarks: boolean;
  bookmarkMs: number;
  timeoutMs?: number;
  bookmarkObject: () => unknown;
  /** Extra events after the initial ones (the initial-events-end bookmark). */
  afterInitial?: unknown[];
  /** A fault (faults.watch): after `afterMs`, stall, answer 410 Gone, or end early. */
  trouble?: { kind: "stall" | "gone" | "endEarly"; afterMs: number };
  /** Runs `fn` after `ms` of the world's (virtual) time; what cancels it. */
  after?: (ms: number, fn: () => void) => { cancel(): void };
}

const GONE = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "too old resource version (sandbox: watch expired)",
  reason: "Expired",
  code: 410,
};

/**
 * Stream a watch as newline-delimited JSON. Subscribes at once (before the response is written)
 * and buffers, so no event falls between the initial batch and the live ones.
 */
export function watchStream(plan: WatchPlan): (res: ServerResponse) => void {
  let out: ServerResponse | undefined;
  // A stalled watch writes nothing more and never ends: no bytes, no close.
  let stalled = false;
  const line = (type: string, object: KubeObject) =>
    JSON.stringify({ type, object: plan.render(object) }) + "\n";
  const pending: string[] = plan.initial.map((e) => line(e.type, e.object));
  for (const e of plan.afterInitial ?? []) pending.push(JSON.stringify(e) + "\n");
  // Nothing is written once the response has ended or its client has gone.
  const write = (text: string) =>
    stalled
      ? false
      : out
        ? !out.writableEnded && !out.destroyed && out.write(text)
        : pending.push(text);
  const unsubscribe = plan.hub.subscribe({
    kind: plan.kind,
    filter: plan.filter,
    send: (e) => write(line(e.type, e.object)),
  });
  return (res) => {
    out = res;
    res.on("error", () => undefined);
    for (const text of pending.splice(0)) res.write(text);
    const timers: NodeJS.Timeout[] = [];
    if (plan.bookmarks) {
      const bookmark = () =>
        write(JSON.stringify({ type: "BOOKMARK", object: plan.bookmarkObject() }) + "\n");
      timers.push(setInterval(bookmark, plan.bookmarkMs).unref());
    }
    if (plan.timeoutMs !== undefined) timers.push(setTimeout(() => res.end(), plan.timeoutMs));
    const trouble = plan.trouble;
    const struck =
      trouble &&
      plan.after?.(trouble.afterMs, () => {
        if (trouble.kind === "gone")
          res.end(JSON.stringify({ type: "ERROR", object: GONE }) + "\n");
        else if (trouble.kind === "endEarly") res.end();
        else stalled = true;
      });
    res.on("close", () => {
      unsubscribe();
      struck?.cancel();
      for (const t of timers) clearTimeout(t);
    });
  };
}
