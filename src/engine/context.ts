// The engine's view of the ports for one run: retried, bounded and cancelled in one place
// (ports/resilient.ts), with the retries a person should know of said in the event log.
import {
  KubeApiError,
  resilient,
  type Clock,
  type Reporter,
  type RetryInfo,
} from "../ports/index.js";
import type { Cloud, Cluster, Metrics } from "../ports/index.js";
import { RunState, type RollContext } from "../roll/context.js";

/** How often, at most, the log says that one API keeps asking the run to slow down or wait. */
const RETRY_NOTE_EVERY_MS = 5 * 60_000;

/**
 * A note in the event log when an API throttles the run, is busy or does not answer — at most
 * one per API and reason every few minutes. A throttled eviction is named as throttling, apart
 * from a PodDisruptionBudget's refusal (an eviction.blocked event).
 */
function retryNotes(clock: Clock, log: Reporter): (info: RetryInfo) => void {
  const last = new Map<string, number>();
  return (info) => {
    const key = `${info.api}/${info.why}`;
    const now = clock.now().getTime();
    if (now - (last.get(key) ?? -Infinity) < RETRY_NOTE_EVERY_MS) return;
    last.set(key, now);
    const what =
      info.why === "throttled"
        ? `throttled ${info.call} (${info.error instanceof KubeApiError ? "429 TooManyRequests, API Priority and Fairness" : "ThrottlingException"}); not a PodDisruptionBudget's refusal`
        : info.why === "busy"
          ? `refused ${info.call} for now (${(info.error as { code?: string }).code ?? "busy"})`
          : `gave no answer to ${info.call} (${(info.error as Error).message})`;
    log.emit({
      type: "note",
      message: `${info.api} ${what}; retrying in ${Math.round(info.waitMs / 1000)} s (attempt ${info.attempts})`,
    });
  };
}

/** The engine's view of the ports: retried, bounded and cancelled in one place (resilient.ts). */
export function rollContext(
  ports: { cloud: Cloud; cluster: Cluster; clock: Clock; metrics?: Metrics },
  log: Reporter,
  options: { maxDurationMs?: number },
  signal: AbortSignal,
): RollContext {
  const start = ports.clock.now();
  const onRetry = retryNotes(ports.clock, log);
  return {
    cloud: resilient(ports.cloud, ports.clock, { signal, onRetry }),
    cluster: resilient(ports.cluster, ports.clock, { signal, onRetry }),
    clock: ports.clock,
    ...(ports.metrics && { metrics: resilient(ports.metrics, ports.clock, { signal, onRetry }) }),
    emit: log.emit,
    signal,
    state: new RunState(),
    ...(options.maxDurationMs !== undefined && {
      deadline: new Date(start.getTime() + options.maxDurationMs),
    }),
  };
}
