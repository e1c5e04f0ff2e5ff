// Where the Kubernetes adapter retries an HTTP answer itself: a 500, 503 or 504 — the API
// server, or something in front of it, failing rather than refusing — gets a short exponential
// backoff. Nothing above retries those (src/ports/resilient.ts leaves a KubeApiError but a 429 to
// its caller), and every write the Cluster port makes is safe to repeat (a resourceVersion
// precondition, an eviction, a delete: resilient.ts's `repeatable`), so they are retried once,
// here. Throttling is not: a 429 (API Priority and Fairness shedding load,
// https://kubernetes.io/docs/concepts/cluster-administration/flow-control/) goes up at once as a
// KubeApiError carrying its Retry-After (retryAfterSeconds), waited out in the one layer that
// retries throttling over any port, resilient.ts — or by the lock, which renews through the raw
// port and times its own retries (src/roll/lease.ts). Anything else is the caller's business too
// (404, 409 conflicts, and the eviction API's answers that carry meaning: a budget's 429, which
// names the budget in a DisruptionBudget cause, and the 500 for a pod several budgets select).
// Connections that break or stall are NetworkErrors, retried over any port by resilient.ts,
// where reads and safe writes are told from the rest.

export interface KubeRetryOptions {
  sleep: (ms: number) => Promise<void>;
  /** Attempts in all at a server error, the first included. */
  attempts?: number;
  onRetry?: (info: { status: number; waitMs: number; attempt: number }) => void;
}

interface HttpLikeError {
  code?: number;
  statusCode?: number;
}

export function statusOf(e: unknown): number | undefined {
  const err = e as HttpLikeError;
  return typeof err?.code === "number" ? err.code : err?.statusCode;
}

/** A 429 from the eviction API that is a PodDisruptionBudget's refusal, not API throttling. */
export function isBudgetRefusal(e: unknown): boolean {
  return (e as { budget?: boolean })?.budget === true;
}

/** The eviction API's 500 for a pod that more than one PodDisruptionBudget selects. */
export function isSeveralBudgets(e: unknown): boolean {
  return /more than one PodDisruptionBudget/i.test((e as Error)?.message ?? "");
}

/**
 * Run `call`, retrying transient server errors (500, 503, 504); a 429 and every other answer go
 * to the caller at once. For `isEviction` calls the several-budgets 500 is an answer for the
 * drain, not a fault.
 */
export async function withKubeRetry<T>(
  call: () => Promise<T>,
  options: KubeRetryOptions,
  isEviction = false,
): Promise<T> {
  const attempts = options.attempts ?? 8;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (e) {
      const status = statusOf(e);
      const answer = isEviction && isSeveralBudgets(e);
      const transient = status === 503 || status === 504 || (status === 500 && !answer);
      if (!transient || attempt >= attempts) {
        // The attempts an answer took, for the message; not on a connection's failure, which
        // keeps its own count (resilient.ts repeats a read that got no answer on its first try).
        if (e && typeof e === "object" && status !== undefined)
          Object.assign(e, { attempts: attempt });
        throw e;
      }
      const waitMs = Math.min(30_000, 500 * 2 ** (attempt - 1));
      options.onRetry?.({ status: status as number, waitMs, attempt });
      await options.sleep(waitMs);
    }
  }
}
