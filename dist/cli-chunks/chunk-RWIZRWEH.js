#!/usr/bin/env node
import { createRequire as __noderollCreateRequire } from 'node:module';
const require = __noderollCreateRequire(import.meta.url);
import {
  ApiCallError,
  AwsApiError,
  KubeApiError,
  NetworkError,
  SETTLED,
  abortError,
  isThrottle,
  isTryLater,
  monotonicMs,
  retryAfterMs,
  tagCall
} from "./chunk-LBZ2K6WI.js";

// src/ports/resilient.ts
var ATTEMPTS = { throttle: 24, tryLater: 8, network: 6 };
var THROTTLE_PATIENCE_MS = 10 * 6e4;
var SERVICES = {
  eks: "EKS",
  autoScaling: "Auto Scaling",
  ec2: "EC2",
  cloudWatch: "CloudWatch"
};
function callInfo(service, method, args) {
  if (service && SERVICES[service]) {
    if (method === "latestReleaseVersions")
      return { api: "SSM", call: "GetParameters", attempts: 0 };
    return {
      api: SERVICES[service],
      call: method[0].toUpperCase() + method.slice(1),
      attempts: 0
    };
  }
  if (method === "instantQuery")
    return { api: "Prometheus", call: "GET /api/v1/query", attempts: 0 };
  const [a = "", b = "", c = ""] = args.map((x) => typeof x === "string" ? x : "");
  const lease = args[1]?.metadata?.name ?? "";
  const calls = {
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
    updateLease: `PUT leases ${a}/${lease}`
  };
  return { api: "Kubernetes API", call: calls[method] ?? method, attempts: 0 };
}
function repeatable(method, args) {
  if (/^(list|get|describe|watch)/.test(method)) return true;
  if (method === "latestReleaseVersions" || method === "instantQuery") return true;
  switch (method) {
    case "patchNode":
      return args[1]?.resourceVersion !== void 0;
    case "updateLease":
      return args[1]?.metadata.resourceVersion !== void 0;
    case "createLease":
    // AlreadyExists on a repeat; the lock then re-reads the Lease
    case "evictPod":
    // an evicted pod is terminating (201 again) or gone (404)
    case "deletePod":
    // gone: 404, which callers treat as done
    case "terminateInstances":
    // EC2 terminates a terminated instance without error
    case "updateAutoScalingGroup":
    // sets values: the same values again change nothing
    case "createTags":
    // sets a tag's value: the same again changes nothing
    case "deleteTags":
    // a tag already gone is no error
    case "createOrUpdateTags":
    // as createTags
    case "suspendProcesses":
    // suspending a suspended process changes nothing
    case "resumeProcesses":
      return true;
    default:
      return false;
  }
}
function transient(e, method, args) {
  if (isThrottle(e)) return "throttle";
  if (isTryLater(e)) return "tryLater";
  if (e instanceof NetworkError && e.attempts <= 1 && (e.sent === false || repeatable(method, args)))
    return "network";
  return void 0;
}
function waitMs(e, attempt) {
  const aws = e instanceof AwsApiError;
  const backoff = Math.min(aws ? 4e4 : 2e4, (aws ? 1e3 : 500) * 2 ** attempt);
  return retryAfterMs(e instanceof KubeApiError ? e.retryAfterSeconds : void 0, backoff);
}
function madeBy(e) {
  const n = e?.attempts;
  return typeof n === "number" && n > 1 ? n : 1;
}
function bounded(p, clock, o) {
  const timeout = o.callTimeoutMs ?? 0;
  if (timeout <= 0 && !o.signal) return p;
  return new Promise((resolve, reject) => {
    const stop = new AbortController();
    const settle = (f) => {
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
        () => settle(
          () => reject(new NetworkError("ETIMEDOUT", `no answer within ${timeout / 1e3} s`))
        ),
        () => void 0
      );
    p.then(
      (v) => settle(() => resolve(v)),
      (e) => settle(() => reject(e))
    );
  });
}
async function retrying(clock, o, call, attempt) {
  let made = 0;
  let throttledFrom;
  const tries = { throttle: 0, tryLater: 0, network: 0 };
  for (let n = 0; ; n++) {
    const began = monotonicMs(clock);
    try {
      return await bounded(attempt(n), clock, o);
    } catch (e) {
      if (o.signal?.aborted) throw abortError(o.signal);
      made += madeBy(e);
      const info = { ...callInfo(call.service, call.method, call.args), attempts: made };
      const kind = transient(e, call.method, call.args);
      if (!kind && e instanceof NetworkError)
        throw new ApiCallError(info, e, !repeatable(call.method, call.args));
      if (!kind) throw tagCall(e, info);
      if (++tries[kind] >= ATTEMPTS[kind]) throw new ApiCallError(info, e);
      const wait = waitMs(e, tries[kind] - 1);
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
var RESILIENT = /* @__PURE__ */ Symbol("resilient");
function resilient(target, clock, options = {}, service) {
  if (target[RESILIENT]) return target;
  return new Proxy(target, {
    get(t, key) {
      if (key === RESILIENT) return true;
      const value = Reflect.get(t, key, t);
      if (typeof value === "function") {
        const method = String(key);
        return (...args) => {
          if (options.signal?.aborted && !method.startsWith("watch"))
            return Promise.reject(abortError(options.signal));
          const first = value.apply(t, args);
          if (!(first instanceof Promise)) return first;
          return retrying(
            clock,
            options,
            { service, method, args },
            (n) => n === 0 ? first : value.apply(
              t,
              args
            )
          );
        };
      }
      return value && typeof value === "object" && !(value instanceof Date) ? resilient(value, clock, options, String(key)) : value;
    }
  });
}

// src/ports/paginate.ts
var PAGE_SIZE = 500;
async function listAll(page) {
  const items = [];
  const resourceVersion = await eachPage(page, (p) => items.push(...p));
  return { items, resourceVersion };
}
async function eachPage(page, each) {
  let cont;
  let resourceVersion;
  do {
    const r = await page(cont);
    each(r.items);
    resourceVersion = r.metadata.resourceVersion;
    cont = r.metadata.continue || void 0;
  } while (cont);
  return resourceVersion;
}
function pageOf(cont, extra = {}) {
  return { ...extra, limit: PAGE_SIZE, ...cont && { continue: cont } };
}

// src/ports/objects.ts
function hasReady(conditions, status) {
  if (!conditions) return false;
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i];
    if (c.type === "Ready" && c.status === status) return true;
  }
  return false;
}
function hasReadyCondition(conditions) {
  return hasReady(conditions, "True");
}
function isReady(node) {
  return hasReadyCondition(node.status.conditions);
}
function hasUnknownReadyCondition(conditions) {
  return hasReady(conditions, "Unknown");
}
function isUnreachable(node) {
  return hasUnknownReadyCondition(node.status.conditions);
}
function instanceIdOf(node) {
  return /\/(i-[0-9a-z]+)$/.exec(node.spec.providerID ?? "")?.[1];
}
function isFinished(phase) {
  return phase === "Succeeded" || phase === "Failed";
}
function isMirrorPod(p) {
  return p.metadata.annotations?.["kubernetes.io/config.mirror"] !== void 0;
}
function controllerOf(o) {
  const refs = o.metadata.ownerReferences;
  if (!refs) return void 0;
  for (let i = 0; i < refs.length; i++) if (refs[i]?.controller === true) return refs[i];
  return void 0;
}

// src/ports/reporter.ts
var PHASES = ["setup", "scale-up", "upgrade", "scale-down"];
function noBudgetHeld(pdb) {
  return pdb.startsWith("none") || pdb === "unknown";
}
var EventLog = class {
  constructor(clock, keep = true) {
    this.clock = clock;
    this.keep = keep;
  }
  clock;
  keep;
  events = [];
  listeners = [];
  on(listener) {
    this.listeners.push(listener);
  }
  emit = (e) => {
    const event = { t: this.clock.now().toISOString(), ...e };
    if (this.keep) this.events.push(event);
    for (const l of this.listeners) l(event);
  };
};

export {
  ATTEMPTS,
  resilient,
  PAGE_SIZE,
  listAll,
  eachPage,
  pageOf,
  hasReadyCondition,
  isReady,
  hasUnknownReadyCondition,
  isUnreachable,
  instanceIdOf,
  isFinished,
  isMirrorPod,
  controllerOf,
  PHASES,
  noBudgetHeld,
  EventLog
};
