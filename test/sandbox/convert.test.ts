// A served pod has the fields, and the key order, the API server gives, as its JSON shows them
// (what the wire sends; in-process an absent field may be there as undefined, as in the Kubernetes
// client's own objects): every optional field present and absent, each in its place.
import { describe, expect, it } from "vitest";
import {
  NO_PDBS,
  NO_TIMERS,
  type PodRec,
  type WorkloadRec,
} from "../../src/sandbox/model/records.js";
import type { Pod } from "../../src/ports/cluster.js";
import { IsoStamps, toPod as shownBy } from "../../src/sandbox/sim/kube/convert.js";

const stamps = new IsoStamps();
const toPod = (p: Parameters<typeof shownBy>[0]) => shownBy(p, stamps);

const template = (extra: Partial<PodRec["template"]> = {}): PodRec["template"] => ({
  labels: { app: "web" },
  tolerations: [{ key: "dedicated", operator: "Equal", value: "web", effect: "NoSchedule" }],
  nodeSelector: {},
  requests: { cpu: 250, memory: 256 * 1024 ** 2 },
  terminationGracePeriodSeconds: 45,
  preStopSeconds: 0,
  startSeconds: 5,
  readySeconds: 5,
  readinessProbe: false,
  ...extra,
});

const workload = { kind: "Deployment", replicaSet: "web-5d8f7", uid: "wl-uid" } as WorkloadRec;

function pod(extra: Partial<PodRec> = {}): PodRec {
  const t = extra.template ?? template();
  return {
    namespace: "default",
    name: "web-5d8f7-abcde",
    key: "default/web-5d8f7-abcde",
    uidSeq: 7,
    uidState: 11,
    rv: 42,
    labels: t.labels,
    workload: undefined,
    ordinal: undefined,
    nodeName: undefined,
    phase: "Pending",
    ready: false,
    deletionAt: undefined,
    createdAt: Date.parse("2026-01-05T09:00:00Z"),
    startedAt: undefined,
    template: t,
    pdbs: NO_PDBS,
    timers: NO_TIMERS,
    gone: false,
    ...extra,
  };
}

/** The object as its JSON shows it: the fields that are there, in their order. */
const shown = (x: Pod): Pod => JSON.parse(JSON.stringify(x)) as Pod;

describe("toPod", () => {
  it("a bare pending pod: only the fields that are always there, in order", () => {
    const p = shown(toPod(pod()));
    expect(Object.keys(p)).toEqual(["metadata", "spec", "status"]);
    expect(Object.keys(p.metadata)).toEqual([
      "name",
      "namespace",
      "uid",
      "resourceVersion",
      "creationTimestamp",
      "labels",
    ]);
    expect(Object.keys(p.spec)).toEqual([
      "containers",
      "tolerations",
      "terminationGracePeriodSeconds",
    ]);
    expect(Object.keys(p.spec.containers[0] ?? {})).toEqual(["name", "image", "resources"]);
    expect(Object.keys(p.status)).toEqual(["phase", "conditions"]);
    expect(p.status.conditions?.map((c) => c.status)).toEqual(["False", "False"]);
  });

  it("every optional field present: each in the API server's place", () => {
    const t = template({
      nodeSelector: { pool: "web" },
      preStopSeconds: 5,
      readinessProbe: true,
      priorityClassName: "high",
    });
    const at = Date.parse("2026-01-05T09:01:00Z");
    const p = toPod(
      pod({
        template: t,
        workload,
        nodeName: "ip-10-0-0-1",
        phase: "Running",
        ready: true,
        startedAt: at,
        deletionAt: at + 60_000,
      }),
    );
    expect(JSON.stringify(p)).toBe(
      JSON.stringify({
        metadata: {
          name: "web-5d8f7-abcde",
          namespace: "default",
          uid: p.metadata.uid,
          resourceVersion: "42",
          creationTimestamp: "2026-01-05T09:00:00.000Z",
          deletionTimestamp: "2026-01-05T09:02:00.000Z",
          labels: { app: "web" },
          ownerReferences: [
            {
              apiVersion: "apps/v1",
              kind: "ReplicaSet",
              name: "web-5d8f7",
              uid: "wl-uid",
              controller: true,
            },
          ],
        },
        spec: {
          nodeName: "ip-10-0-0-1",
          containers: [
            {
              name: "main",
              image: "public.ecr.aws/docker/library/busybox:stable",
              resources: { requests: { cpu: "250m", memory: "256Mi" } },
              readinessProbe: { httpGet: { path: "/healthz", port: 8080 } },
              lifecycle: { preStop: { sleep: { seconds: 5 } } },
            },
          ],
          tolerations: [
            { key: "dedicated", operator: "Equal", value: "web", effect: "NoSchedule" },
          ],
          nodeSelector: { pool: "web" },
          terminationGracePeriodSeconds: 45,
          priorityClassName: "high",
        },
        status: {
          phase: "Running",
          conditions: [
            { type: "PodScheduled", status: "True" },
            { type: "Ready", status: "True" },
          ],
          startTime: "2026-01-05T09:01:00.000Z",
          containerStatuses: [
            {
              name: "main",
              ready: true,
              restartCount: 0,
              state: { running: { startedAt: "2026-01-05T09:01:00.000Z" } },
            },
          ],
        },
      }),
    );
  });

  it("hands out copies, and what its template decides frozen: a served pod cannot change the record", () => {
    const rec = pod({ workload });
    const a = toPod(rec);
    // The pod's own parts are its own; its template's are shared between the pods served, and
    // frozen, all the way down.
    a.metadata.resourceVersion = "changed";
    a.status.phase = "Failed";
    expect(() => ((a.metadata.labels as Record<string, string>).app = "changed")).toThrow(
      TypeError,
    );
    expect(() => a.spec.tolerations?.pop()).toThrow(TypeError);
    expect(() => (a.spec.containers[0]!.name = "other")).toThrow(TypeError);
    expect(() => (a.spec.containers[0]!.resources!.requests!.cpu = "9")).toThrow(TypeError);
    const b = toPod(rec);
    expect(b.metadata.resourceVersion).not.toBe("changed");
    expect(b.status.phase).toBe(rec.phase);
    expect(b.metadata.labels).toEqual({ app: "web" });
    expect(b.spec.tolerations).toHaveLength(1);
    expect(b.spec.containers[0]!.name).toBe("main");
    expect(rec.template.labels).toEqual({ app: "web" });
    expect(Object.isFrozen(rec.template.labels)).toBe(false);
    // A StatefulSet's pod has labels of its own: a copy, not the record's.
    const own = pod({ workload });
    own.labels = { ...own.labels, "statefulset.kubernetes.io/pod-name": own.name };
    const c = toPod(own);
    (c.metadata.labels as Record<string, string>).app = "changed";
    expect(own.labels.app).toBe("web");
  });

  it("shares a controller's owner reference and a state's conditions, frozen, and follows a new ReplicaSet", () => {
    const owner = { ...workload };
    const a = toPod(pod({ workload: owner }));
    const b = toPod(pod({ workload: owner, name: "web-5d8f7-fghij" }));
    expect(b.metadata.ownerReferences).toBe(a.metadata.ownerReferences);
    expect(() => a.metadata.ownerReferences?.pop()).toThrow(TypeError);
    expect(() => (a.metadata.ownerReferences![0]!.name = "other")).toThrow(TypeError);
    // A rollout's new ReplicaSet: the pods served from then on name it.
    owner.replicaSet = "web-6c9a1";
    const c = toPod(pod({ workload: owner }));
    expect(c.metadata.ownerReferences).toEqual([
      {
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
        name: "web-6c9a1",
        uid: "wl-uid",
        controller: true,
      },
    ]);
    const other = { kind: "StatefulSet", name: "db", uid: "db-uid" } as WorkloadRec;
    expect(toPod(pod({ workload: other })).metadata.ownerReferences?.[0]).toMatchObject({
      kind: "StatefulSet",
      name: "db",
      uid: "db-uid",
    });
    // Each state has its conditions: scheduled (bound to a node) and ready, either way.
    for (const nodeName of [undefined, "ip-10-0-0-1"])
      for (const ready of [false, true]) {
        const conditions = toPod(pod({ nodeName, ready })).status.conditions;
        expect(conditions).toEqual([
          { type: "PodScheduled", status: nodeName ? "True" : "False" },
          { type: "Ready", status: ready ? "True" : "False" },
        ]);
        expect(() => conditions?.push({ type: "X", status: "True" })).toThrow(TypeError);
        expect(() => (conditions![1]!.status = "Unknown")).toThrow(TypeError);
      }
  });

  it("serves each template's parts, one after the other and back again", () => {
    const web = template();
    const api = template({ labels: { app: "api" }, tolerations: [], preStopSeconds: 5 });
    const order = [web, web, api, web, api, api];
    const served = order.map((t) => toPod(pod({ template: t, labels: t.labels })));
    served.forEach((p, i) => {
      expect(p.metadata.labels).toEqual(order[i]!.labels);
      expect(p.spec.tolerations).toHaveLength(order[i]!.tolerations.length);
      expect(p.spec.containers[0]!.lifecycle !== undefined).toBe(order[i] === api);
    });
    expect(served[3]!.spec.containers).toBe(served[0]!.spec.containers);
    expect(served[5]!.spec.containers).toBe(served[2]!.spec.containers);
  });
});
