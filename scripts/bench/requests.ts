// API requests as the sandbox counted them at its front door (world.calls, "service.method"),
// grouped by API (Kubernetes or AWS), verb and resource: "core.listPods" is Kubernetes list
// pods, "autoscaling.describeAutoScalingGroups" AWS describe AutoScalingGroups.
const KUBERNETES = /^(core|policy|apps|coordination)\./;

export interface Requests {
  kubernetes: number;
  aws: number;
  /** "kubernetes list pods" → count. */
  byVerb: Record<string, number>;
}

/** The calls made since `before` (a copy of world.calls taken then). */
export function requestsSince(calls: Map<string, number>, before: Map<string, number>): Requests {
  const out: Requests = { kubernetes: 0, aws: 0, byVerb: {} };
  for (const [key, total] of calls) {
    const n = total - (before.get(key) ?? 0);
    if (n <= 0) continue;
    const api = KUBERNETES.test(key) ? "kubernetes" : "aws";
    out[api] += n;
    const method = key.slice(key.indexOf(".") + 1);
    const [, verb = method, rest = ""] = /^([a-z]+)(.*)$/.exec(method) ?? [];
    const label = `${api} ${verb} ${rest.charAt(0).toLowerCase()}${rest.slice(1)}`;
    out.byVerb[label] = (out.byVerb[label] ?? 0) + n;
  }
  return out;
}
