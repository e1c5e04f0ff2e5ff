// Throttling answered the same way whoever implements a port: a 429 (Kubernetes) or a
// throttling error (AWS) is retried after its Retry-After, or with exponential backoff, on the
// port's own clock. The real adapters already retry on the wire; this keeps the engine correct
// over any port, the sandbox's included.
import type { Clock } from "./clock.js";
import { AwsApiError, isThrottle, KubeApiError } from "./errors.js";

const ATTEMPTS = 8;

function waitMs(e: unknown, attempt: number): number {
  const seconds = e instanceof KubeApiError ? e.retryAfterSeconds : undefined;
  if (seconds !== undefined) return seconds * 1000;
  return Math.min(20_000, 500 * 2 ** attempt) * (e instanceof AwsApiError ? 2 : 1);
}

async function retrying<T>(clock: Clock, call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (e) {
      if (!isThrottle(e) || attempt + 1 >= ATTEMPTS) throw e;
      await clock.sleep(waitMs(e, attempt));
    }
  }
}

const RESILIENT = Symbol("resilient");

/**
 * The same object, with every promise-returning method retried on throttling. Wrapping an
 * object that already retries returns it as it is: retries never multiply.
 */
export function resilient<T extends object>(target: T, clock: Clock): T {
  if ((target as { [RESILIENT]?: boolean })[RESILIENT]) return target;
  return new Proxy(target, {
    get(t, key) {
      if (key === RESILIENT) return true;
      const value = Reflect.get(t, key, t) as unknown;
      if (typeof value === "function") {
        return (...args: unknown[]) => {
          const first = (value as (...a: unknown[]) => unknown).apply(t, args);
          if (!(first instanceof Promise)) return first;
          let used = false;
          return retrying(clock, () => {
            if (!used) {
              used = true;
              return first as Promise<unknown>;
            }
            return (value as (...a: unknown[]) => Promise<unknown>).apply(t, args);
          });
        };
      }
      // Nested services (cloud.eks, cloud.autoScaling, cloud.ec2).
      return value && typeof value === "object" && !(value instanceof Date)
        ? resilient(value as object, clock)
        : value;
    },
  });
}
