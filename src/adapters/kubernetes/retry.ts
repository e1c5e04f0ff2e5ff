// Where the Kubernetes adapter retries HTTP answers. The API server answers 429 with Retry-After
// when API Priority and Fairness sheds load
// (https://kubernetes.io/docs/concepts/cluster-administration/flow-control/); we wait as told
// instead of hammering it. 500/503/504 get a short exponential backoff. Anything else is the
// caller's business (404, 409 conflicts, and the eviction API's answers that carry meaning: a
// budget's 429, which names the budget in a DisruptionBudget cause, and the 500 for a pod
// several budgets select). Connections that break or stall are NetworkErrors, retried over any
// port by src/ports/resilient.ts, where reads and safe writes are told from the rest; its time
// limit on throttling covers the waits made here.
import { retryAfterMs, retryAfterSeconds } from "../../ports/index.js";

export interface KubeRetryOptions {
  sleep: (ms: number) => Promise<void>;
  /** Attempts in all, the first included. */
  attempts?: number;
  /** When to wait if a 429 names no Retry-After. */
  defaultRetryAfterMs?: number;
  onRetry?: (info: { status: number; waitMs: number; attempt: number }) => void;
}

interface HttpLikeError {
  code?: number;
  statusCode?: number;
  headers?: Record<string, string | undefined>;
}

export function statusOf(e: unknown): number | undefined {
  const err = e as HttpLikeError;
  return typeof err?.code === "number" ? err.code : err?.statusCode;
}

/** The wait an error's Retry-After header asks for (capped as everywhere: errors.ts). */
function headerRetryAfterMs(e: unknown, fallbackMs: number): number {
  const h = (e as HttpLikeError)?.headers ?? {};
  const raw = h["retry-after"] ?? h["Retry-After"];
  return retryAfterMs(retryAfterSeconds(raw, h["date"] ?? h["Date"], Date.now()), fallbackMs);
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
 * Run `call`, retrying throttling and transient server errors. For `isEviction` calls a
 * budget's 429 and the several-budgets 500 are answers for the drain, not faults.
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
      const answer = isEviction && (isBudgetRefusal(e) || isSeveralBudgets(e));
      const throttled = status === 429 && !answer;
      const transient = status === 503 || status === 504 || (status === 500 && !answer);
      if ((!throttled && !transient) || attempt >= attempts) {
        // The attempts an answer took, for the message; not on a connection's failure, which
        // keeps its own count (resilient.ts repeats a read that got no answer on its first try).
        if (e && typeof e === "object" && status !== undefined)
          Object.assign(e, { attempts: attempt });
        throw e;
      }
      const waitMs = throttled
        ? headerRetryAfterMs(e, options.defaultRetryAfterMs ?? 1000)
        : Math.min(30_000, 500 * 2 ** (attempt - 1));
      options.onRetry?.({ status: status as number, waitMs, attempt });
      await options.sleep(waitMs);
    }
  }
}
