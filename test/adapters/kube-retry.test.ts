// The Kubernetes adapter's own retries (src/adapters/kubernetes/retry.ts): a 429 waits out its
// Retry-After, capped as everywhere (a day asked, a minute waited), and the attempts an answer
// took go up with the error; a connection's failure keeps its own count; a budget's refusal of an
// eviction is an answer, not retried.
import { describe, expect, it } from "vitest";
import { withKubeRetry } from "../../src/adapters/kubernetes/retry.js";
import { NetworkError, RETRY_AFTER_CAP_MS } from "../../src/ports/index.js";

const throttled = (retryAfter: string) =>
  Object.assign(new Error("too many requests"), {
    code: 429,
    headers: { "retry-after": retryAfter },
  });

describe("withKubeRetry", () => {
  it("waits out a Retry-After, a minute at most, and passes the attempts it made up with the error", async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    let calls = 0;
    const e = await withKubeRetry(
      async () => {
        calls++;
        throw throttled(calls === 1 ? "3" : "86400");
      },
      { sleep, attempts: 4 },
    ).catch((x: unknown) => x);
    expect(calls).toBe(4);
    expect(waits).toEqual([3_000, RETRY_AFTER_CAP_MS, RETRY_AFTER_CAP_MS]);
    expect(e).toMatchObject({ attempts: 4 });
  });

  it("answers a budget's refusal of an eviction at once", async () => {
    const waits: number[] = [];
    const refusal = Object.assign(throttled("10"), { budget: true });
    const e = await withKubeRetry(
      async () => {
        throw refusal;
      },
      { sleep: async (ms) => void waits.push(ms) },
      true,
    ).catch((x: unknown) => x);
    expect(e).toBe(refusal);
    expect(waits).toEqual([]);
  });

  it("leaves a connection's failure its own count of attempts, so that a read is still repeated above", async () => {
    let calls = 0;
    const reset = new NetworkError("ECONNRESET", "read ECONNRESET");
    const e = await withKubeRetry(
      async () => {
        if (++calls === 1) throw throttled("1");
        throw reset;
      },
      { sleep: async () => undefined },
    ).catch((x: unknown) => x);
    expect(calls).toBe(2);
    expect(e).toBe(reset);
    expect(reset.attempts).toBe(1);
  });
});
