// Octokit as @actions/github makes it, and one place that retries GitHub's rate limits:
// 429, or 403 with Retry-After / an exhausted x-ratelimit-remaining (secondary limits).
import { getOctokit } from "@actions/github";

export type Octokit = ReturnType<typeof getOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

interface HttpError {
  status?: number;
  response?: { headers?: Record<string, string | number | undefined> };
}

export function isRateLimited(e: unknown): boolean {
  const err = e as HttpError;
  const h = err.response?.headers ?? {};
  if (err.status === 429) return true;
  return (
    err.status === 403 &&
    (h["retry-after"] !== undefined || String(h["x-ratelimit-remaining"]) === "0")
  );
}

/** A 403 that is not a rate limit: the token may not write (a fork's pull request). */
export function isForbidden(e: unknown): boolean {
  return (e as HttpError).status === 403 && !isRateLimited(e);
}

function waitMs(e: unknown, attempt: number, now: number): number {
  const h = (e as HttpError).response?.headers ?? {};
  const retryAfter = Number(h["retry-after"]);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  const reset = Number(h["x-ratelimit-reset"]);
  if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now);
  return Math.min(60_000, 1000 * 2 ** attempt);
}

export interface RetryOptions {
  attempts?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Longest single wait; past it the error is reported instead of waited out. */
  maxWaitMs?: number;
}

export async function withRateLimitRetry<T>(
  call: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (e) {
      const wait = waitMs(e, attempt, (options.now ?? Date.now)());
      if (!isRateLimited(e) || attempt + 1 >= attempts || wait > (options.maxWaitMs ?? 120_000))
        throw e;
      await sleep(wait);
    }
  }
}

export function makeOctokit(token: string, baseUrl: string): Octokit {
  return getOctokit(token, { baseUrl });
}
