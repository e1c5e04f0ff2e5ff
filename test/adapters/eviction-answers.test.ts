// An eviction's refusals as the sandbox serves them and as the Kubernetes adapter reads them: the
// same Status bodies the API server sends (issue 46, item 8), so that what the drain decides here
// (kubectl's rules: a budget's 429 retried, a Forbidden fatal unless the namespace is being
// deleted, several budgets a failure at once) it decides on a real cluster.
import { describe, expect, it } from "vitest";
import { evictionOutcome } from "../../src/adapters/kubernetes/cluster.js";
import { kubeError } from "../../src/adapters/kubernetes/http.js";
import type { EvictionOutcome } from "../../src/ports/index.js";
import { evictionResponse } from "../../src/sandbox/wire/kube-request.js";

/** Served by the sandbox's wire face, read back by the adapter. */
function roundTrip(r: EvictionOutcome): EvictionOutcome {
  const served = evictionResponse(r, "web-0");
  const retry = served.headers?.["retry-after"];
  return evictionOutcome(
    kubeError(served.status, served.body ?? "", retry ? Number(retry) : undefined),
  );
}

describe("an eviction's refusal, served and read back", () => {
  it("a plain Forbidden stays a plain Forbidden (fatal to the drain)", () => {
    const r = roundTrip({
      status: 403,
      message: 'pods "web-0" is forbidden: cannot create pods/eviction',
    });
    expect(r).toEqual({
      status: 403,
      message: 'pods "web-0" is forbidden: cannot create pods/eviction',
    });
  });

  it("a Forbidden in a namespace being deleted says so (waited out)", () => {
    const message =
      'pods "web-0" is forbidden: unable to create new content in namespace shop because it is being terminated';
    expect(roundTrip({ status: 403, message, namespaceTerminating: true })).toEqual({
      status: 403,
      message,
      namespaceTerminating: true,
    });
  });

  it("a budget's 429 keeps its cause and its Retry-After", () => {
    const r = roundTrip({
      status: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      causes: ["The disruption budget web needs 2 healthy pods and has 2 currently"],
      retryAfterSeconds: 10,
    });
    expect(r).toMatchObject({ status: 429, retryAfterSeconds: 10 });
    expect((r as { causes: string[] }).causes).toEqual([
      "The disruption budget web needs 2 healthy pods and has 2 currently",
    ]);
  });
});
