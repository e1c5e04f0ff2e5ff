// Errors the ports raise, shaped like what the wire returns, so that the engine handles the
// sandbox and the real APIs with the same code: Kubernetes answers with an HTTP status and a
// Status body; AWS with an error code (ThrottlingException, ValidationError, ...).

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
  ) {
    super(message);
  }
}

export function isThrottle(e: unknown): boolean {
  if (e instanceof KubeApiError) return e.status === 429;
  if (e instanceof AwsApiError)
    return e.code === "ThrottlingException" || e.code === "Throttling" || e.status === 429;
  return false;
}
