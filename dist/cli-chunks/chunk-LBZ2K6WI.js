#!/usr/bin/env node
import { createRequire as __noderollCreateRequire } from 'node:module';
const require = __noderollCreateRequire(import.meta.url);

// src/ports/clock.ts
function monotonicMs(clock) {
  return clock.monotonic ? clock.monotonic() : clock.now().getTime();
}
function abortError(signal) {
  const reason = signal?.reason;
  if (reason instanceof Error) return reason;
  const e = new Error("The operation was aborted");
  e.name = "AbortError";
  return e;
}
var SETTLED = Object.assign(new Error("The operation was aborted"), {
  name: "AbortError"
});
var systemClock = {
  now: () => /* @__PURE__ */ new Date(),
  monotonic: () => performance.now(),
  sleep: (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  })
};

// src/ports/errors.ts
var KubeApiError = class extends Error {
  constructor(status, reason, message, retryAfterSeconds2) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.retryAfterSeconds = retryAfterSeconds2;
  }
  status;
  reason;
  retryAfterSeconds;
  name = "KubeApiError";
};
var AwsApiError = class extends Error {
  constructor(code, message, status = 400, attempts = 1) {
    super(message);
    this.code = code;
    this.status = status;
    this.attempts = attempts;
  }
  code;
  status;
  attempts;
  name = "AwsApiError";
};
var NetworkError = class extends Error {
  constructor(code, message, attempts = 1, sent, cause) {
    super(message, cause === void 0 ? void 0 : { cause });
    this.code = code;
    this.attempts = attempts;
    this.sent = sent;
  }
  code;
  attempts;
  sent;
  name = "NetworkError";
};
var SOCKET_CODES = /* @__PURE__ */ new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "ERR_STREAM_PREMATURE_CLOSE"
]);
function asNetworkError(e) {
  if (e instanceof NetworkError) return e;
  const err = e;
  const code = typeof err?.code === "string" ? err.code : void 0;
  const message = typeof err?.message === "string" ? err.message : String(e);
  if (code && SOCKET_CODES.has(code))
    return new NetworkError(code, message, 1, code === "ECONNREFUSED" ? false : void 0, e);
  if (/socket hang up|premature close|aborted/i.test(message) && err?.name !== "AbortError")
    return new NetworkError("ECONNRESET", message, 1, void 0, e);
  return void 0;
}
var RETRY_AFTER_CAP_MS = 6e4;
function retryAfterSeconds(header, dateHeader, nowMs) {
  const value = String((typeof header === "object" ? header[0] : header) ?? "").trim();
  if (/^\d+$/.test(value)) return Number(value);
  const at = /[a-z]/i.test(value) ? httpDateMs(value) : NaN;
  if (!Number.isFinite(at)) return void 0;
  const from = dateHeader === void 0 ? NaN : httpDateMs(dateHeader);
  return Math.max(0, Math.ceil((at - (Number.isFinite(from) ? from : nowMs)) / 1e3));
}
function httpDateMs(text) {
  return Date.parse(/\d{4}$/.test(text.trim()) ? `${text} GMT` : text);
}
function retryAfterMs(seconds, fallbackMs) {
  if (seconds === void 0 || !Number.isFinite(seconds) || seconds < 0) return fallbackMs;
  return Math.min(seconds * 1e3, RETRY_AFTER_CAP_MS);
}
function isThrottle(e) {
  if (e instanceof KubeApiError) return e.status === 429;
  if (e instanceof AwsApiError)
    return e.code === "ThrottlingException" || e.code === "Throttling" || e.code === "RequestLimitExceeded" || e.status === 429;
  return false;
}
var TRY_LATER_CODES = /* @__PURE__ */ new Set([
  "ScalingActivityInProgress",
  "ScalingActivityInProgressFault",
  "ResourceContention",
  "ResourceContentionFault",
  "ResourceInUse",
  "ResourceInUseFault",
  "ResourceInUseException",
  "ServiceUnavailableException",
  "ServerException"
]);
function isTryLater(e) {
  return e instanceof AwsApiError && TRY_LATER_CODES.has(e.code);
}
var ApiCallError = class extends Error {
  constructor(info, cause, unconfirmed = false) {
    super(
      `${info.api} ${info.call} failed after ${info.attempts} attempt${info.attempts === 1 ? "" : "s"}: ${describeCause(cause)}${unconfirmed ? " (not repeated: it may have taken effect)" : ""}. Running it again continues from where this run stopped`
    );
    this.info = info;
    this.cause = cause;
    this.unconfirmed = unconfirmed;
  }
  info;
  cause;
  unconfirmed;
  name = "ApiCallError";
};
var DENIED_CODES = /* @__PURE__ */ new Set([
  "AccessDenied",
  "AccessDeniedException",
  "UnauthorizedOperation"
]);
function isDenied(e) {
  return e instanceof AwsApiError && DENIED_CODES.has(e.code);
}
function isLostAnswer(e) {
  return e instanceof NetworkError || e instanceof ApiCallError && e.cause instanceof NetworkError;
}
function describeCause(e) {
  const text = e?.message?.replace(/\.+$/, "") ?? String(e);
  if (e instanceof KubeApiError) return `HTTP ${e.status} ${e.reason}: ${text}`;
  if (e instanceof AwsApiError) return `${e.code}: ${text}`;
  if (e instanceof NetworkError)
    return e.code === "ETIMEDOUT" ? `no answer (${text})` : `${e.code} (${text})`;
  return text;
}
var CALL = /* @__PURE__ */ Symbol("call");
function tagCall(e, info) {
  if (e && typeof e === "object" && !(CALL in e))
    Object.defineProperty(e, CALL, { value: info, enumerable: false });
  return e;
}
function callOf(e) {
  if (e instanceof ApiCallError) return e.info;
  return e && typeof e === "object" ? e[CALL] : void 0;
}
var CANCELLED_WORDS = "stopped before it finished: the run was cancelled (SIGTERM or Ctrl-C)";
function describeFailure(e) {
  if (e?.name === "AbortError") return CANCELLED_WORDS;
  if (e instanceof ApiCallError) return e.message;
  const info = callOf(e);
  const text = e?.message ?? String(e);
  return info ? `${info.api} ${info.call} failed: ${describeCause(e) || text}` : text;
}

// src/ports/derived.ts
function derived(of, slot, make, holds) {
  const held = of[slot];
  if (held !== void 0 && (!holds || holds(held, of))) return held;
  const value = make(of);
  if (held !== void 0) of[slot] = value;
  else if (Object.isExtensible(of))
    Object.defineProperty(of, slot, { value, writable: true, configurable: false });
  return value;
}

export {
  monotonicMs,
  abortError,
  SETTLED,
  systemClock,
  KubeApiError,
  AwsApiError,
  NetworkError,
  asNetworkError,
  retryAfterSeconds,
  retryAfterMs,
  isThrottle,
  isTryLater,
  ApiCallError,
  isDenied,
  isLostAnswer,
  tagCall,
  describeFailure,
  derived
};
