// Octokit as @actions/github makes it, and one place that retries GitHub's rate limits, primary
// and secondary, as GitHub's docs ask (see isRateLimited and waitMs).
import { getOctokit } from "@actions/github";
import { retryAfterSeconds } from "../../ports/index.js";

export type Octokit = ReturnType<typeof getOctokit>;

export interface RepoRef {
  owner: string;
  repo: string;
}

interface HttpError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/**
 * GitHub's words for a secondary limit, in the message of the error it answers with (older
 * GitHub Enterprise Server says "abuse detection mechanism").
 */
const SECONDARY_LIMIT = /secondary rate limit|abuse detection/i;

/** A header's whole number of seconds (x-ratelimit-reset), or undefined. */
function seconds(value: string | number | undefined): number | undefined {
  return value !== undefined && /^\s*\d+\s*$/.test(String(value)) ? Number(value) : undefined;
}

/**
 * A rate limit, as GitHub tells one apart
 * (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit):
 * 429; or 403 with Retry-After (its seconds or its date waited out, else as if absent), with no
 * requests left this hour (the primary limit), or with a message that says it is a secondary
 * limit (which need not carry either header).
 */
export function isRateLimited(e: unknown): boolean {
  const err = e as HttpError;
  const h = err.response?.headers ?? {};
  if (err.status === 429) return true;
  if (err.status !== 403) return false;
  return (
    h["retry-after"] !== undefined ||
    String(h["x-ratelimit-remaining"]) === "0" ||
    SECONDARY_LIMIT.test(messageOf(err))
  );
}

function messageOf(err: HttpError): string {
  const data = err.response?.data;
  const fromBody =
    data && typeof data === "object" ? (data as { message?: unknown }).message : data;
  return `${typeof fromBody === "string" ? fromBody : ""} ${err.message ?? ""}`;
}

/** A 403 that is not a rate limit: the token may not write (a fork's pull request). */
export function isForbidden(e: unknown): boolean {
  return (e as HttpError).status === 403 && !isRateLimited(e);
}

/**
 * How long to wait before try `attempt + 1`, by the same page of GitHub's docs: Retry-After's
 * wait (its seconds, or its date counted from the answer's Date); with no requests left, until
 * x-ratelimit-reset (not otherwise: it is when the hour's requests renew, an hour away for a
 * secondary limit); else a minute, doubled each try.
 */
function waitMs(e: unknown, attempt: number, now: number): number {
  const h = (e as HttpError).response?.headers ?? {};
  const date = h["date"];
  const retryAfter = retryAfterSeconds(
    h["retry-after"],
    typeof date === "string" ? date : undefined,
    now,
  );
  if (retryAfter !== undefined) return Math.max(1, retryAfter) * 1000;
  const reset = seconds(h["x-ratelimit-reset"]);
  // A reset already past (clocks differ): a second, not a retry at once.
  if (String(h["x-ratelimit-remaining"]) === "0" && reset !== undefined)
    return Math.max(1000, reset * 1000 - now);
  return 60_000 * 2 ** attempt;
}

export interface RetryOptions {
  attempts?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Longest single wait; past it the error is reported instead of waited out. */
  maxWaitMs?: number;
  /**
   * Aborted (the workflow is cancelled): no more waiting; the error is reported at once, so
   * that what the job still writes (the cancelled check run) is not held up by a limit.
   */
  signal?: AbortSignal;
}

/** `ms` of waiting, cut short when `signal` aborts. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

export async function withRateLimitRetry<T>(
  call: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 4;
  const sleep = options.sleep ?? abortableSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (e) {
      const wait = waitMs(e, attempt, (options.now ?? Date.now)());
      if (!isRateLimited(e) || attempt + 1 >= attempts || wait > (options.maxWaitMs ?? 120_000))
        throw e;
      if (options.signal?.aborted) throw e;
      await sleep(wait, options.signal);
      if (options.signal?.aborted) throw e;
    }
  }
}

export function makeOctokit(token: string, baseUrl: string): Octokit {
  return getOctokit(token, { baseUrl });
}
