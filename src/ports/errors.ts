// Errors the ports raise, shaped like what the wire returns, so that the engine handles the
// sandbox and the real APIs with the same code: Kubernetes answers with an HTTP status and a
// Status body; AWS with an error code (ThrottlingException, ValidationError, ...); a request that
// got no answer at all (a reset, a refused or stalled connection) is a NetworkError.

/** A Kubernetes API error: the HTTP status, the Status body's reason and message. */
export class KubeApiError extends Error {
  override name = "KubeApiError";
  constructor(
    readonly status: number,
    /** Status.reason: "NotFound", "Conflict", "AlreadyExists", "TooManyRequests", ... */
    readonly reason: string,
    message: string,
    /** Seconds from the Retry-After header (429) or Status.details.retryAfterSeconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** An AWS API error: the service's error code and message. */
export class AwsApiError extends Error {
  override name = "AwsApiError";
  constructor(
    /** "ThrottlingException", "Throttling", "ValidationError", "ResourceNotFoundException", ... */
    readonly code: string,
    message: string,
    /** HTTP status of the response (400 for throttling on the query APIs, 429 on EKS). */
    readonly status = 400,
    /** Attempts the implementation already made (the AWS SDK retries on its own). */
    readonly attempts = 1,
  ) {
    super(message);
  }
}

/**
 * No answer: the connection was reset (ECONNRESET, EPIPE, "socket hang up"), refused
 * (ECONNREFUSED), or the request timed out or stalled (ETIMEDOUT). Whether the server acted on
 * the request is unknown — unless it was never sent (`sent: false`, a refused connection) — so
 * only reads and writes made safe by a precondition are retried (resilient.ts).
 */
export class NetworkError extends Error {
  override name = "NetworkError";
  constructor(
    readonly code: string,
    message: string,
    /** Attempts the implementation already made before giving up; 1: it did not retry. */
    readonly attempts = 1,
    /** false when the request certainly never reached the server. */
    readonly sent?: boolean,
    /** The socket's own error: its address and port say which endpoint did not answer. */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** Codes Node's sockets fail with when a connection breaks (net, http, tls). */
const SOCKET_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "ERR_STREAM_PREMATURE_CLOSE",
]);

/** A connection-level failure from Node (or already a NetworkError). */
export function asNetworkError(e: unknown): NetworkError | undefined {
  if (e instanceof NetworkError) return e;
  const err = e as { code?: unknown; message?: unknown; name?: unknown } | undefined;
  const code = typeof err?.code === "string" ? err.code : undefined;
  const message = typeof err?.message === "string" ? err.message : String(e);
  if (code && SOCKET_CODES.has(code))
    return new NetworkError(code, message, 1, code === "ECONNREFUSED" ? false : undefined, e);
  if (/socket hang up|premature close|aborted/i.test(message) && err?.name !== "AbortError")
    return new NetworkError("ECONNRESET", message, 1, undefined, e);
  return undefined;
}

/**
 * The longest a Retry-After is waited out. The API server asks for a second or so when it sheds
 * load (API Priority and Fairness, https://kubernetes.io/docs/concepts/cluster-administration/flow-control/)
 * and for 10 s when a budget refuses an eviction; a far longer ask comes from something in
 * between, or something hostile, and is not worth holding a roll for: the retry budgets still
 * bound how often it is asked again.
 */
export const RETRY_AFTER_CAP_MS = 60_000;

/**
 * The seconds a Retry-After header asks to wait (RFC 9110, section 10.2.3: a whole number of
 * seconds, or an HTTP-date). A date is counted from the same answer's Date header where it has
 * one, so that a clock here that differs from the server's neither stretches nor cuts the wait,
 * and from `nowMs` otherwise; a date already past is 0 s. Anything else (a fraction, a sign, text
 * that is not a date) is no Retry-After at all: undefined.
 */
export function retryAfterSeconds(
  header: string | number | readonly string[] | undefined,
  dateHeader: string | undefined,
  nowMs: number,
): number | undefined {
  const value = String((typeof header === "object" ? header[0] : header) ?? "").trim();
  if (/^\d+$/.test(value)) return Number(value);
  // Date.parse takes a bare number such as "1.5" for a date too: an HTTP-date names its day.
  const at = /[a-z]/i.test(value) ? httpDateMs(value) : NaN;
  if (!Number.isFinite(at)) return undefined;
  const from = dateHeader === undefined ? NaN : httpDateMs(dateHeader);
  return Math.max(0, Math.ceil((at - (Number.isFinite(from) ? from : nowMs)) / 1000));
}

/**
 * An HTTP-date's time (RFC 9110, section 5.6.7), always in GMT: the obsolete asctime form names
 * no zone, and Date.parse would read it in this machine's.
 */
function httpDateMs(text: string): number {
  return Date.parse(/\d{4}$/.test(text.trim()) ? `${text} GMT` : text);
}

/** The wait a Retry-After of `seconds` asks for (capped), or `fallbackMs` when it names none. */
export function retryAfterMs(seconds: number | undefined, fallbackMs: number): number {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return fallbackMs;
  return Math.min(seconds * 1000, RETRY_AFTER_CAP_MS);
}

export function isThrottle(e: unknown): boolean {
  if (e instanceof KubeApiError) return e.status === 429;
  if (e instanceof AwsApiError)
    return (
      e.code === "ThrottlingException" ||
      e.code === "Throttling" ||
      e.code === "RequestLimitExceeded" ||
      e.status === 429
    );
  return false;
}

/**
 * AWS's "busy, try later" answers: HTTP 400/409 refusals that change nothing and are not in the
 * SDK's retryable list. Auto Scaling refuses a change while a scaling activity is in progress
 * (ScalingActivityInProgress) or under contention (ResourceContention, ResourceInUse) — see the
 * Auto Scaling API reference's common errors for TerminateInstanceInAutoScalingGroup,
 * DetachInstances and UpdateAutoScalingGroup; EKS refuses UpdateNodegroupConfig/Version while
 * the node group is busy (ResourceInUseException, HTTP 409, EKS API reference).
 */
export const TRY_LATER_CODES: ReadonlySet<string> = new Set([
  "ScalingActivityInProgress",
  "ScalingActivityInProgressFault",
  "ResourceContention",
  "ResourceContentionFault",
  "ResourceInUse",
  "ResourceInUseFault",
  "ResourceInUseException",
  "ServiceUnavailableException",
  "ServerException",
]);

export function isTryLater(e: unknown): boolean {
  return e instanceof AwsApiError && TRY_LATER_CODES.has(e.code);
}

/** What failed, for a person: the API, the call, how many attempts were made. */
export interface CallInfo {
  api: string;
  call: string;
  attempts: number;
}

/**
 * A call that kept failing with transient errors (throttling, "try later", no answer) until
 * the retries ran out. Nothing it did is lost: the engine recomputes everything from live
 * state, so running again continues where this stopped.
 */
export class ApiCallError extends Error {
  override name = "ApiCallError";
  constructor(
    readonly info: CallInfo,
    override readonly cause: unknown,
    /** A write that got no answer and was not repeated: it may have taken effect. */
    readonly unconfirmed = false,
  ) {
    super(
      `${info.api} ${info.call} failed after ${info.attempts} attempt${info.attempts === 1 ? "" : "s"}: ${describeCause(cause)}${unconfirmed ? " (not repeated: it may have taken effect)" : ""}. Running it again continues from where this run stopped`,
    );
  }
}

/** AWS refused for want of a permission (IAM, or EC2's own wording): every retry and every
 * other resource of the same call would be refused alike. */
const DENIED_CODES: ReadonlySet<string> = new Set([
  "AccessDenied",
  "AccessDeniedException",
  "UnauthorizedOperation",
]);

export function isDenied(e: unknown): e is AwsApiError {
  return e instanceof AwsApiError && DENIED_CODES.has(e.code);
}

/** No answer came (the call may or may not have taken effect). */
export function isLostAnswer(e: unknown): boolean {
  return (
    e instanceof NetworkError || (e instanceof ApiCallError && e.cause instanceof NetworkError)
  );
}

function describeCause(e: unknown): string {
  const text = (e as Error)?.message?.replace(/\.+$/, "") ?? String(e);
  if (e instanceof KubeApiError) return `HTTP ${e.status} ${e.reason}: ${text}`;
  if (e instanceof AwsApiError) return `${e.code}: ${text}`;
  if (e instanceof NetworkError)
    return e.code === "ETIMEDOUT" ? `no answer (${text})` : `${e.code} (${text})`;
  return text;
}

const CALL = Symbol("call");

/** Remember which call an error came from, without changing its class or message. */
export function tagCall<E>(e: E, info: CallInfo): E {
  if (e && typeof e === "object" && !(CALL in e))
    Object.defineProperty(e, CALL, { value: info, enumerable: false });
  return e;
}

export function callOf(e: unknown): CallInfo | undefined {
  if (e instanceof ApiCallError) return e.info;
  return e && typeof e === "object" ? (e as { [CALL]?: CallInfo })[CALL] : undefined;
}

/** A failure as one line a person can act on: the call that failed, if known, and the error. */
/** What a cancelled wait or call says, in words (not Node's "This operation was aborted"). */
export const CANCELLED_WORDS =
  "stopped before it finished: the run was cancelled (SIGTERM or Ctrl-C)";

export function describeFailure(e: unknown): string {
  if ((e as Error)?.name === "AbortError") return CANCELLED_WORDS;
  if (e instanceof ApiCallError) return e.message;
  const info = callOf(e);
  const text = (e as Error)?.message ?? String(e);
  return info ? `${info.api} ${info.call} failed: ${describeCause(e) || text}` : text;
}
