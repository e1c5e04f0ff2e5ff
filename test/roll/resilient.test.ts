// The one retry place over any port (src/ports/resilient.ts): what is retried and what is not,
// how failures are named, and that cancellation rejects at once.
import { describe, expect, it } from "vitest";
import {
  ApiCallError,
  AwsApiError,
  callOf,
  KubeApiError,
  NetworkError,
  resilient,
  RETRY_AFTER_CAP_MS,
  retryAfterMs,
  THROTTLE_PATIENCE_MS,
} from "../../src/ports/index.js";
import { watchBackoffMs } from "../../src/roll/watch.js";
import { VirtualClock } from "../../src/sandbox/model/clock.js";

/** A port whose methods fail with the given errors, then answer; counts the calls. */
function flaky(errors: unknown[]) {
  const calls: string[] = [];
  const next = async (name: string) => {
    calls.push(name);
    const e = errors.shift();
    if (e) throw e;
    return name;
  };
  return {
    calls,
    cluster: {
      getNode: (_n: string) => next("getNode"),
      patchNode: (_n: string, _p: object) => next("patchNode"),
    },
    cloud: {
      autoScaling: { detachInstances: (_i: object) => next("detachInstances") },
      eks: { updateNodegroupVersion: (_i: object) => next("updateNodegroupVersion") },
    },
  };
}

const reset = () => new NetworkError("ECONNRESET", "read ECONNRESET");

describe("resilient ports", () => {
  it("retries a read that got no answer, with backoff on the port's clock", async () => {
    const clock = new VirtualClock(0);
    const f = flaky([reset(), reset()]);
    const r = await clock.run(resilient(f.cluster, clock).getNode("a"));
    expect(r).toBe("getNode");
    expect(f.calls).toHaveLength(3);
    expect(clock.nowMs()).toBe(500 + 1000);
  });

  it("repeats a patch only when a resourceVersion precondition makes it safe", async () => {
    const clock = new VirtualClock(0);
    const safe = flaky([reset()]);
    await clock.run(resilient(safe.cluster, clock).patchNode("a", { resourceVersion: "7" }));
    expect(safe.calls).toHaveLength(2);
    const unsafe = flaky([reset()]);
    const e = await clock
      .run(resilient(unsafe.cluster, clock).patchNode("a", { unschedulable: true }))
      .catch((x: unknown) => x);
    expect(unsafe.calls).toHaveLength(1);
    expect(e).toBeInstanceOf(ApiCallError);
    expect((e as ApiCallError).cause).toBeInstanceOf(NetworkError);
    expect(callOf(e)).toEqual({ api: "Kubernetes API", call: "PATCH nodes/a", attempts: 1 });
    expect((e as Error).message).toMatch(/not repeated: it may have taken effect/);
  });

  it("never repeats DetachInstances after a lost answer, but retries AWS's try-later refusals", async () => {
    const clock = new VirtualClock(0);
    const lost = flaky([reset()]);
    await expect(
      clock.run(resilient(lost.cloud, clock).autoScaling.detachInstances({})),
    ).rejects.toMatchObject({ name: "ApiCallError", cause: expect.any(NetworkError) });
    expect(lost.calls).toHaveLength(1);
    const busy = flaky([
      new AwsApiError("ScalingActivityInProgress", "Scaling activity in progress"),
      new AwsApiError("ResourceContention", "contention"),
    ]);
    await clock.run(resilient(busy.cloud, clock).autoScaling.detachInstances({}));
    expect(busy.calls).toHaveLength(3);
  });

  it("names the API, the call and the attempts when the retries run out", async () => {
    const clock = new VirtualClock(0);
    const f = flaky(
      Array.from({ length: 20 }, () => new AwsApiError("ResourceInUseException", "busy", 409)),
    );
    const e = (await clock
      .run(resilient(f.cloud, clock).eks.updateNodegroupVersion({}))
      .catch((x: unknown) => x)) as ApiCallError;
    expect(e).toBeInstanceOf(ApiCallError);
    expect(e.message).toMatch(
      /^EKS UpdateNodegroupVersion failed after 8 attempts: ResourceInUseException: busy\. Running it again continues/,
    );
  });

  it("gives throttling and lost answers budgets of their own", async () => {
    const clock = new VirtualClock(0);
    const throttled = () => new KubeApiError(429, "TooManyRequests", "slow down", 1);
    // Throttled in between: the resets still get their six attempts, and the call succeeds.
    const f = flaky([
      reset(),
      throttled(),
      reset(),
      throttled(),
      reset(),
      throttled(),
      reset(),
      reset(),
    ]);
    expect(await clock.run(resilient(f.cluster, clock).getNode("a"))).toBe("getNode");
    expect(f.calls).toHaveLength(9);
  });

  it("counts the attempts an implementation already made (the SDK retries on its own)", async () => {
    const clock = new VirtualClock(0);
    const f = flaky([new NetworkError("ETIMEDOUT", "socket timeout", 3)]);
    const e = await clock.run(resilient(f.cluster, clock).getNode("a")).catch((x: unknown) => x);
    expect(f.calls).toHaveLength(1);
    expect(callOf(e)?.attempts).toBe(3);
    // A read changes nothing: no "it may have taken effect" for it.
    expect((e as Error).message).not.toMatch(/may have taken effect/);
  });

  it("waits out a 429's Retry-After", async () => {
    const clock = new VirtualClock(0);
    const f = flaky([new KubeApiError(429, "TooManyRequests", "slow down", 7)]);
    await clock.run(resilient(f.cluster, clock).getNode("a"));
    expect(clock.nowMs()).toBe(7000);
  });

  it("waits a minute at most, however long a Retry-After asks for (a day, here)", async () => {
    const clock = new VirtualClock(0);
    const f = flaky([new KubeApiError(429, "TooManyRequests", "come back tomorrow", 86_400)]);
    await clock.run(resilient(f.cluster, clock).getNode("a"));
    expect(f.calls).toHaveLength(2);
    expect(clock.nowMs()).toBe(RETRY_AFTER_CAP_MS);
    expect(retryAfterMs(86_400, 1)).toBe(60_000);
    for (const bad of [undefined, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(retryAfterMs(bad, 1234)).toBe(1234);
  });

  it("watches again within a minute when a watch is refused with a day's Retry-After", () => {
    const refused = (seconds?: number) =>
      new KubeApiError(429, "TooManyRequests", "too many requests", seconds);
    expect(watchBackoffMs(refused(7), 0)).toBe(7_000);
    expect(watchBackoffMs(refused(86_400), 0)).toBe(RETRY_AFTER_CAP_MS);
    expect(watchBackoffMs(refused(), 0)).toBe(1_000);
  });

  it("stops waiting out throttling ten minutes after the call began, however long the layer underneath waited", async () => {
    const clock = new VirtualClock(0);
    const calls: number[] = [];
    // A layer underneath that retries within each attempt (as the AWS SDK does): 8 minutes each.
    const port = {
      getNode: async () => {
        calls.push(clock.nowMs());
        await clock.sleep(8 * 60_000);
        throw Object.assign(new KubeApiError(429, "TooManyRequests", "slow down", 60), {
          attempts: 8,
        });
      },
    };
    const e = await clock.run(resilient(port, clock).getNode()).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiCallError);
    // 8 min, a minute's wait, 8 min more: past the limit, so no third round.
    expect(calls).toEqual([0, 9 * 60_000]);
    expect(clock.nowMs()).toBe(17 * 60_000);
    expect(callOf(e)?.attempts).toBe(16);
    expect(THROTTLE_PATIENCE_MS).toBe(10 * 60_000);
  });

  it("counts the time limit from the first throttled attempt, not from minutes of lost answers before it", async () => {
    const clock = new VirtualClock(0);
    let calls = 0;
    const port = {
      getNode: async () => {
        calls++;
        if (calls <= 2) {
          await clock.sleep(5 * 60_000);
          throw reset();
        }
        if (calls === 3) throw new KubeApiError(429, "TooManyRequests", "slow down", 60);
        return "node";
      },
    };
    expect(await clock.run(resilient(port, clock).getNode())).toBe("node");
    expect(calls).toBe(4);
  });

  it("rejects at once when the run's signal aborts, while the call underneath hangs", async () => {
    const clock = new VirtualClock(0);
    const stop = new AbortController();
    const port = { getNode: () => new Promise<never>(() => {}) };
    const pending = resilient(port, clock, { signal: stop.signal }).getNode();
    clock.after(1000, () => {
      stop.abort();
      clock.notify();
    });
    await expect(clock.run(pending)).rejects.toMatchObject({ name: "AbortError" });
    expect(clock.nowMs()).toBe(1000);
    await expect(resilient(port, clock, { signal: stop.signal }).getNode()).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});
