// The health signals a roll's gates read besides the cluster itself: CloudWatch alarms
// (DescribeAlarms, https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_DescribeAlarms.html)
// and Prometheus instant queries (the HTTP API's /api/v1/query,
// https://prometheus.io/docs/prometheus/latest/querying/api/#instant-queries). Records are shaped
// like the AWS SDK's (PascalCase) so the adapter maps them 1:1 and the sandbox can stand in.

/** A CloudWatch alarm's state (the API's StateValue). */
export type AlarmState = "OK" | "ALARM" | "INSUFFICIENT_DATA";

export interface MetricAlarm {
  AlarmName: string;
  StateValue: AlarmState;
  StateReason?: string;
  StateUpdatedTimestamp?: Date;
}

export interface CloudWatch {
  /**
   * The named alarms (metric and composite), in any number: an implementation asks in batches of
   * the API's 100 names and reads every page. A name absent from the answer names no alarm in
   * the account and region. No names asks nothing and answers none (DescribeAlarms without
   * names would answer every alarm of the account).
   */
  describeAlarms(input: { AlarmNames: string[] }): Promise<MetricAlarm[]>;
}

/** One instant query's answer reduced to what a gate compares: its single value, or none. */
export type QueryValue =
  | { kind: "value"; value: number }
  /** The query matched no series (or several: a gate's query must come to one number). */
  | { kind: "empty"; why: string };

export interface Metrics {
  /**
   * Evaluate `query` at the current time against the Prometheus HTTP API at `address`
   * (`http(s)://host:port`, optionally with a path prefix). Throws on a transport or HTTP error,
   * or an answer whose status is not "success": a NetworkError when no answer came (or none in
   * time), else a KubeApiError whose reason is the API's errorType (`bad_data` for a query it
   * cannot parse) — of status 429 when the server asks to come back later (a 429, or a 503 with
   * a Retry-After), which resilient.ts waits out like any throttled call.
   */
  instantQuery(input: { address: string; query: string }): Promise<QueryValue>;
}
