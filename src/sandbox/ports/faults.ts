// A scenario's faults at the port faces (faults in docs/sandbox.md): a proxy around the Cloud
// and Cluster faces that makes a share of calls meet a hostile network — reset before the server
// sees them, served but the answer lost, stalled until the client's request timeout, or slow —
// and AWS's "try later" refusals; and watches that stall (no bytes, no close), end with 410 Gone,
// or end early. The wire faces call the same ports, so `sandbox serve` shows the same faults to
// real clients (a lost answer resets the connection there, a stall never answers).
import type { WatchEvent } from "../../ports/cluster.js";
import { AwsApiError, KubeApiError, NetworkError } from "../../ports/errors.js";
import type { VirtualClock } from "../model/clock.js";
import type { Timeline } from "../model/observers.js";
import type { ApiGate, CallFault, WatchTrouble } from "./api-gate.js";

/** How the port faces name their calls (`world.calls`), by method. */
const CLUSTER_CALLS: Record<string, string> = {
  listNodes: "core.listNodes",
  getNode: "core.getNode",
  watchNodes: "core.watchNodes",
  patchNode: "core.patchNode",
  listPods: "core.listPods",
  getPod: "core.getPod",
  deletePod: "core.deletePod",
  watchPods: "core.watchPods",
  evictPod: "policy.evictPod",
  listPodDisruptionBudgets: "policy.listPodDisruptionBudgets",
  watchPodDisruptionBudgets: "policy.watchPodDisruptionBudgets",
  getWorkload: "apps.getWorkload",
  listWorkloads: "apps.listWorkloads",
  getPersistentVolumeClaim: "core.getPersistentVolumeClaim",
  getPersistentVolume: "core.getPersistentVolume",
  getLease: "coordination.getLease",
  createLease: "coordination.createLease",
  updateLease: "coordination.updateLease",
  deleteLease: "coordination.deleteLease",
};
const CLOUD_SERVICES: Record<string, string> = {
  eks: "eks",
  autoScaling: "autoscaling",
  ec2: "ec2",
  cloudWatch: "cloudwatch",
};

export interface FaultView {
  gate: ApiGate;
  clock: VirtualClock;
  timeline: Timeline;
}

function tryLater(name: string): AwsApiError {
  if (name.startsWith("eks."))
    return new AwsApiError(
      "ResourceInUseException",
      "The node group is busy with another operation; try again later.",
      409,
    );
  return new AwsApiError(
    "ScalingActivityInProgress",
    "Scaling activity is in progress; try again later.",
  );
}

/** The call as the fault has it: refused, reset, lost, stalled, or late. */
async function meet<T>(
  view: FaultView,
  fault: CallFault,
  name: string,
  run: () => Promise<T>,
): Promise<T> {
  view.timeline.record("api.fault", { call: name, fault: fault.kind });
  switch (fault.kind) {
    case "tryLater":
      throw tryLater(name);
    case "reset":
      throw new NetworkError("ECONNRESET", `read ECONNRESET (sandbox: ${name} never arrived)`);
    case "lostAnswer":
      await run().catch(() => undefined);
      throw new NetworkError("ECONNRESET", `read ECONNRESET (sandbox: ${name}'s answer was lost)`);
    case "stall":
      // The adapters give up on a silent request after their request timeout; in-process the
      // sandbox answers the way that timeout would.
      await view.clock.sleep(fault.timeoutMs);
      throw new NetworkError(
        "ETIMEDOUT",
        `no answer within ${fault.timeoutMs / 1000} s (sandbox: ${name} stalled)`,
      );
    case "slow":
      await view.clock.sleep(fault.delayMs);
      return run();
  }
}

/** A watch that misbehaves `afterMs` after it opens. */
function troubled<T>(
  source: AsyncIterable<WatchEvent<T>>,
  trouble: WatchTrouble,
  clock: VirtualClock,
  signal: AbortSignal | undefined,
): AsyncIterable<WatchEvent<T>> {
  const it = source[Symbol.asyncIterator]();
  const done = { done: true as const, value: undefined };
  // Resolves when the client lets go of the watch.
  const released = new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  let tripped = false;
  const struck = new Promise<void>((resolve) => {
    const timer = clock.after(trouble.afterMs, () => {
      tripped = true;
      clock.notify();
      resolve();
    });
    void released.then(() => timer.cancel());
  });
  const broken = async (): Promise<IteratorResult<WatchEvent<T>>> => {
    void it.return?.();
    if (signal?.aborted) return done;
    if (trouble.kind === "gone")
      throw new KubeApiError(410, "Expired", "too old resource version (sandbox: watch expired)");
    // A stalled connection: nothing more, and no end, until the client gives up on it.
    if (trouble.kind === "stall") await released;
    return done;
  };
  return {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        if (!tripped && !signal?.aborted) {
          const r = await Promise.race([it.next(), struck.then(() => undefined), released]);
          if (r) return r;
          if (signal?.aborted) return done;
        }
        return broken();
      },
      return: async () => {
        await it.return?.();
        return done;
      },
    }),
  };
}

/** The port face `target`, meeting the scenario's faults. */
export function withFaults<T extends object>(
  target: T,
  view: FaultView,
  api: "kubernetes" | "aws",
  service?: string,
): T {
  return new Proxy(target, {
    get(t, key) {
      const value = Reflect.get(t, key, t) as unknown;
      if (typeof key !== "string") return value;
      if (api === "aws" && value && typeof value === "object" && CLOUD_SERVICES[key])
        return withFaults(value as object, view, api, CLOUD_SERVICES[key]);
      if (typeof value !== "function") return value;
      const fn = value as (...a: unknown[]) => unknown;
      const name =
        api === "kubernetes"
          ? (CLUSTER_CALLS[key] ?? `core.${key}`)
          : key === "latestReleaseVersions"
            ? "ssm.getParameters"
            : `${service}.${key}`;
      if (key.startsWith("watch"))
        return (...args: unknown[]) => {
          const stream = fn.apply(t, args) as AsyncIterable<WatchEvent<unknown>>;
          const trouble = view.gate.watchFault();
          if (!trouble) return stream;
          view.timeline.record("api.fault", { call: name, fault: `watch-${trouble.kind}` });
          const signal = (
            args.find((a) => a && typeof a === "object" && "signal" in a) as
              { signal?: AbortSignal } | undefined
          )?.signal;
          return troubled(stream, trouble, view.clock, signal);
        };
      return (...args: unknown[]) => {
        const fault = view.gate.callFault(name, api);
        const run = () => Promise.resolve(fn.apply(t, args));
        return fault ? meet(view, fault, name, run) : fn.apply(t, args);
      };
    },
  });
}
