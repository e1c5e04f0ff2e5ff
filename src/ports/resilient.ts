// The one place the engine retries, over any implementation of the ports (the real adapters,
// the sandbox in-process or on the wire), and the one place a call is bounded in time and
// cancelled:
//
// - throttling (Kubernetes 429, AWS ThrottlingException): waited out after its Retry-After (at
//   most RETRY_AFTER_CAP_MS, errors.ts), or with exponential backoff, for THROTTLE_PATIENCE_MS
//   at most (the API server's API Priority and Fairness asks clients to come back later:
//   https://kubernetes.io/docs/concepts/cluster-administration/flow-control/). The Kubernetes
//   adapter retries no 429 itself: this is the one layer that does; a Prometheus that asks to
//   come back later is a 429 too (src/adapters/metrics/prometheus.ts);
// - AWS's "busy, try later" refusals (errors.ts, TRY_LATER_CODES), which change nothing;
// - no answer (a reset, a refused or stalled connection, a call past its deadline): reads always,
//   writes only where a precondition or a re-read makes a repeat safe (see `repeatable`).
//
// A call that still fails is named (API, call, attempts) in an ApiCallError; any other error keeps
// its class (the engine acts on 404s, 409s and 410s) and is tagged with the call it came from.
// Every call rejects at once when the run's signal aborts (SIGTERM, a lost lock): the request
// underneath ends by its own timeout, or when the adapters are closed. Waits are on the port's
// clock, so the sandbox's virtual time drives them as it drives everything else.
import { abortError, monotonicMs, SETTLED, type Clock } from "./clock.js";
import type { Lease, NodePatch } from "./cluster.js";
import {
  ApiCallError,
  AwsApiError,
  isThrottle,
  isTryLater,
  KubeApiError,
  NetworkError,
  retryAfterMs,
  tagCall,
  type CallInfo,
} from "./errors.js";

export interface ResilientOptions {
  /** The run's signal: every call rejects at once when it aborts. */
  signal?: AbortSignal;
  /**
   * A call unanswered for this long (on the port's clock) fails as ETIMEDOUT. Off by default:
   * each implementation bounds its own requests (the adapters' request timeouts; the sandbox
   * answers a stalled call as the adapters' timeout would), and a timer per call would cost
   * the sandbox's virtual clock a timer per request.
   */
  callTimeoutMs?: number;
  /** Told of each retry: what failed, why (throttled, busy, no answer) and the wait. */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo extends CallInfo {
  why: "throttled" | "busy" | "no answer";
  waitMs: number;
  error: unknown;
}
/**
 * Attempts per kind of failure, the first included. A throttled client is asked to come back
 * later, and a roll can be patient: up to 24 attempts, each after the server's Retry-After (at
 * most a minute) or a backoff capped at 20 s (40 s for AWS) — minutes, not seconds — and none
 * past THROTTLE_PATIENCE_MS.
 */
export const ATTEMPTS = { throttle: 24, tryLater: 8, network: 6 } as const;
type Transient = keyof typeof ATTEMPTS;
/**
 * No wait for throttling starts past this long after the call's first throttled attempt began.
 * An attempt may take long itself (the AWS SDK retries throttling within one; the Kubernetes
 * adapter backs off from a 5xx), and that time counts. A Kubernetes 429 is retried here only:
 * the adapter hands it up at once with its Retry-After.
 */
export const THROTTLE_PATIENCE_MS = 10 * 60_000;

const SERVICES: Record<string, string> = {
  eks: "EKS",
  autoScaling: "Auto Scaling",
  ec2: "EC2",
  cloudWatch: "CloudWatch",
};

/** What a person reads for a call: "EKS DescribeNodegroup", "Kubernetes API PATCH nodes/x". */
function callInfo(service: string | undefined, method: string, args: unknown[]): CallInfo {
  if (service && SERVICES[service]) {
    if (method === "latestReleaseVersions")
      return { api: "SSM", call: "GetParameters", attempts: 0 };
    return {
      api: SERVICES[service],
      call: method[0]!.toUpperCase() + method.slice(1),
      attempts: 0,
    };
  }
  // The Metrics port (signals.ts), wrapped on its own: a Prometheus instant query.
  if (method === "instantQuery")
    return { api: "Prometheus", call: "GET /api/v1/query", attempts: 0 };
  const [a = "", b = "", c = ""] = args.map((x) => (typeof x === "string" ? x : ""));
  const lease = (args[1] as Lease | undefined)?.metadata?.name ?? "";
  const calls: Record<string, string> = {
    listNodes: "GET nodes (list)",
    getNode: `GET nodes/${a}`,
    patchNode: `PATCH nodes/${a}`,
    watchNodes: "GET nodes (watch)",
    listPods: `GET pods (list, ${a ? `namespace ${a}` : "all namespaces"})`,
    deletePod: `DELETE pods ${a}/${b}`,
    evictPod: `POST pods/eviction ${a}/${b}`,
    listPodDisruptionBudgets: `GET poddisruptionbudgets (list, ${a ? `namespace ${a}` : "all namespaces"})`,
    watchPodDisruptionBudgets: "GET poddisruptionbudgets (watch)",
    getWorkload: `GET ${a.toLowerCase()}s ${b}/${c}`,
    listWorkloads: `GET ${a.toLowerCase()}s (list, ${b ? `namespace ${b}` : "all namespaces"})`,
    getPersistentVolumeClaim: `GET persistentvolumeclaims ${a}/${b}`,
    getPersistentVolume: `GET persistentvolumes/${a}`,
    getLease: `GET leases ${a}/${b}`,
    createLease: `POST leases ${a}/${lease}`,
    updateLease: `PUT leases ${a}/${lease}`,
  };
  return { api: "Kubernetes API", call: calls[method] ?? method, attempts: 0 };
}

/** Whether repeating a call that may have reached the server is safe. */
function repeatable(method: string, args: unknown[]): boolean {
  if (/^(list|get|describe|watch)/.test(method)) return true;
  if (method === "latestReleaseVersions" || method === "instantQuery") return true;
  switch (method) {
    case "patchNode": // resourceVersion precondition: a repeat of an applied patch is a 409
      return (args[1] as NodePatch | undefined)?.resourceVersion !== undefined;
    case "updateLease": // likewise
      return (args[1] as Lease | undefined)?.metadata.resourceVersion !== undefined;
    case "createLease": // AlreadyExists on a repeat; the lock then re-reads the Lease
    case "evictPod": // an evicted pod is terminating (201 again) or gone (404)
    case "deletePod": // gone: 404, which callers treat as done
    case "terminateInstances": // EC2 terminates a terminated instance without error
    case "updateAutoScalingGroup": // sets values: the same values again change nothing
    case "createTags": // sets a tag's value: the same again changes nothing
    case "deleteTags": // a tag already gone is no error
    case "createOrUpdateTags": // as createTags
    case "suspendProcesses": // suspending a suspended process changes nothing
    case "resumeProcesses": // nor resuming a running one
      return true;
    default:
      return false;
  }
}

function transient(e: unknown, method: string, args: unknown[]): Transient | undefined {
  if (isThrottle(e)) return "throttle";
  if (isTryLater(e)) return "tryLater";
  if (
    e instanceof NetworkError &&
    e.attempts <= 1 &&
    (e.sent === false || repeatable(method, args))
  )
    return "network";
  return undefined;
}

function waitMs(e: unknown, attempt: number): number {
  const aws = e instanceof AwsApiError;
  const backoff = Math.min(aws ? 40_000 : 20_000, (aws ? 1000 : 500) * 2 ** attempt);
  return retryAfterMs(e instanceof KubeApiError ? e.retryAfterSeconds : undefined, backoff);
}

/** Attempts an implementation already made before it gave up (the AWS SDK retries itself). */
function madeBy(e: unknown): number {
  const n = (e as { attempts?: unknown } | undefined)?.attempts;
  return typeof n === "number" && n > 1 ? n : 1;
}

/** One attempt, bounded by the call timeout and the run's signal. */
function bounded<T>(p: Promise<T>, clock: Clock, o: ResilientOptions): Promise<T> {
  const timeout = o.callTimeoutMs ?? 0;
  if (timeout <= 0 && !o.signal) return p;
  return new Promise<T>((resolve, reject) => {
    const stop = new AbortController();
    const settle = (f: () => void) => {
      if (stop.signal.aborted) return;
      stop.abort(SETTLED);
      o.signal?.removeEventListener("abort", onAbort);
      f();
    };
    const onAbort = () => settle(() => reject(abortError(o.signal)));
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener("abort", onAbort, { once: true });
    if (timeout > 0)
      clock.sleep(timeout, stop.signal).then(
        () =>
          settle(() =>
            reject(new NetworkError("ETIMEDOUT", `no answer within ${timeout / 1000} s`)),
          ),
        () => undefined,
      );
    p.then(
      (v) => settle(() => resolve(v)),
      (e: unknown) => settle(() => reject(e)),
    );
  });
}

async function retrying<T>(
  clock: Clock,
  o: ResilientOptions,
  call: { service: string | undefined; method: string; args: unknown[] },
  attempt: (n: number) => Promise<T>,
): Promise<T> {
  let made = 0;
  /** When the first attempt that came back throttled began. */
  let throttledFrom: number | undefined;
  // Each kind of failure has its own budget: throttling in between does not use up the
  // attempts a lost answer gets, nor the other way round.
  const tries: Record<Transient, number> = { throttle: 0, tryLater: 0, network: 0 };
  for (let n = 0; ; n++) {
    const began = monotonicMs(clock);
    try {
      return await bounded(attempt(n), clock, o);
    } catch (e) {
      if (o.signal?.aborted) throw abortError(o.signal);
      made += madeBy(e);
      const info = { ...callInfo(call.service, call.method, call.args), attempts: made };
      const kind = transient(e, call.method, call.args);
      // No answer to a write that is not safe to repeat: named, and left to the caller, who
      // may re-read whether it took effect. (A read here had its attempts made underneath.)
      if (!kind && e instanceof NetworkError)
        throw new ApiCallError(info, e, !repeatable(call.method, call.args));
      if (!kind) throw tagCall(e, info);
      if (++tries[kind] >= ATTEMPTS[kind]) throw new ApiCallError(info, e);
      const wait = waitMs(e, tries[kind] - 1);
      // However long each Retry-After and however long an attempt took underneath (the AWS SDK
      // backs off within one), throttling has a time limit.
      if (kind === "throttle") {
        throttledFrom ??= began;
        if (monotonicMs(clock) + wait - throttledFrom > THROTTLE_PATIENCE_MS)
          throw new ApiCallError(info, e);
      }
      const why = kind === "throttle" ? "throttled" : kind === "tryLater" ? "busy" : "no answer";
      o.onRetry?.({ ...info, why, waitMs: wait, error: e });
      await clock.sleep(wait, o.signal);
    }
  }
}

const RESILIENT = Symbol("resilient");

/**
 * The same object, with every promise-returning method retried, bounded and cancellable as
 * above. Wrapping an object that already is returns it as it is: retries never multiply.
 */
export function resilient<T extends object>(
  target: T,
  clock: Clock,
  options: ResilientOptions = {},
  service?: string,
): T {
  if ((target as { [RESILIENT]?: boolean })[RESILIENT]) return target;
  return new Proxy(target, {
    get(t, key) {
      if (key === RESILIENT) return true;
      const value = Reflect.get(t, key, t) as unknown;
      if (typeof value === "function") {
        const method = String(key);
        return (...args: unknown[]) => {
          if (options.signal?.aborted && !method.startsWith("watch"))
            return Promise.reject(abortError(options.signal));
          const first = (value as (...a: unknown[]) => unknown).apply(t, args);
          if (!(first instanceof Promise)) return first;
          return retrying(clock, options, { service, method, args }, (n) =>
            n === 0
              ? (first as Promise<unknown>)
              : ((value as (...a: unknown[]) => Promise<unknown>).apply(
                  t,
                  args,
                ) as Promise<unknown>),
          );
        };
      }
      // Nested services (cloud.eks, cloud.autoScaling, cloud.ec2, cloud.cloudWatch).
      return value && typeof value === "object" && !(value instanceof Date)
        ? resilient(value as object, clock, options, String(key))
        : value;
    },
  });
}
