// Records → Kubernetes objects: what the API server would return for a node, a pod or a
// PodDisruptionBudget of the simulated cluster. The records are richer and mutable; these
// objects are fresh copies, built when a client reads or a watch event goes out, except for what
// cannot change: strings (a timestamp's text, formatted once), the parts of a pod its template
// alone decides (containers, tolerations, node selector, labels), made once per template, its
// owner reference, made once per owner, and its conditions, one list per state: all frozen, since
// listing a large cluster converts millions of pods that share them.
import type { ContainerStatus, Node, Pod, PodDisruptionBudget } from "../../../ports/cluster.js";
import { derived } from "../../../ports/derived.js";
import {
  podUid,
  type NodeRec,
  type PdbRec,
  type PodRec,
  type PodTemplate,
  type WorkloadRec,
} from "../../model/records.js";
import { formatCpu, formatMemory } from "../../model/quantities.js";
import { containerStatuses, type CrashLoops } from "./crash-loop.js";
import { pdbStatus } from "./disruption.js";
import { UNSCHEDULABLE_TAINT } from "./scheduler-rules.js";
import { unschedulableMessage, type UnschedulablePods } from "./unschedulable.js";
import { podVolumes } from "./volumes.js";

/**
 * RFC 3339 text of times, from a small cache (pods created or started together share it), and the
 * running containers' statuses that carry it; held by the cluster's state (KubeState.stamps) for
 * the objects it shows.
 */
export class IsoStamps {
  private readonly texts = new Map<number, string>();
  private readonly running = new Map<number, readonly ContainerStatus[]>();

  of(ms: number): string {
    let text = this.texts.get(ms);
    if (text === undefined) {
      if (this.texts.size >= 4096) this.texts.clear();
      text = new Date(ms).toISOString();
      this.texts.set(ms, text);
    }
    return text;
  }

  /**
   * The containerStatuses of a pod running since `startedAt`, ready or not: frozen, and shared
   * by the pods started at the same time (as their timestamps' text is).
   */
  containers(startedAt: number, ready: boolean): readonly ContainerStatus[] {
    const key = ready ? startedAt : -startedAt - 1;
    let statuses = this.running.get(key);
    if (statuses === undefined) {
      if (this.running.size >= 4096) this.running.clear();
      const { freeze } = Object;
      const state = freeze({ running: freeze({ startedAt: this.of(startedAt) }) });
      statuses = freeze([freeze({ name: "main", ready, restartCount: 0, state })]);
      this.running.set(key, statuses);
    }
    return statuses;
  }
}

/** The readiness probe of every pod that has one (the sandbox's pods all probe alike). */
const PROBE = Object.freeze({ httpGet: Object.freeze({ path: "/healthz", port: 8080 }) });

/** What a pod's template alone decides, as the API shows it (see templateParts). */
interface TemplateParts {
  containers: Pod["spec"]["containers"];
  tolerations: NonNullable<Pod["spec"]["tolerations"]>;
  nodeSelector: Record<string, string> | undefined;
  affinity: Pod["spec"]["affinity"];
  /** The labels of a pod that has its template's (all but a StatefulSet's). */
  labels: Record<string, string>;
}

const PARTS = Symbol("templateParts");

/**
 * The parts of a pod its template decides, made at the template's first pod and frozen, each
 * object in them (a template never changes: a new revision is a new template). Each pod listed
 * had its own: seven objects and two quantities formatted, about a third of the objects a list
 * of 600,000 pods made (its time did not separate from the host's noise).
 */
function templateParts(t: PodTemplate): TemplateParts {
  return derived(t, PARTS, madeParts);
}

function madeParts(t: PodTemplate): TemplateParts {
  const { freeze } = Object;
  const requests = freeze({
    cpu: formatCpu(t.requests.cpu),
    memory: formatMemory(t.requests.memory),
  });
  const seconds = t.preStopSeconds;
  const container = freeze({
    name: "main",
    image: "public.ecr.aws/docker/library/busybox:stable",
    resources: freeze({ requests }),
    readinessProbe: t.readinessProbe ? PROBE : undefined,
    lifecycle:
      seconds > 0 ? freeze({ preStop: freeze({ sleep: freeze({ seconds }) }) }) : undefined,
  });
  return {
    containers: freeze([container]) as unknown as TemplateParts["containers"],
    tolerations: freeze(t.tolerations.map((x) => freeze({ ...x }))) as TemplateParts["tolerations"],
    nodeSelector: Object.keys(t.nodeSelector).length ? freeze({ ...t.nodeSelector }) : undefined,
    affinity: t.nodeAffinity
      ? deepFreeze({
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: structuredClone(t.nodeAffinity),
            },
          },
        })
      : undefined,
    labels: freeze({ ...t.labels }),
  };
}

/** `o` and everything in it frozen. */
function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v && typeof v === "object") deepFreeze(v as object);
  return Object.freeze(o);
}

/** A node record as the API server shows it. */
export function toNode(n: NodeRec, stamps: IsoStamps): Node {
  const taints = n.taints.map((t) => ({ ...t }));
  return {
    metadata: {
      name: n.name,
      uid: n.uid,
      resourceVersion: String(n.rv),
      creationTimestamp: stamps.of(n.createdAt),
      labels: { ...n.labels },
      annotations: { ...n.annotations },
    },
    spec: {
      providerID: `aws:///${n.zone}/${n.instanceId}`,
      ...(n.unschedulable ? { unschedulable: true } : {}),
      ...(taints.length || n.unschedulable
        ? {
            taints:
              n.unschedulable && !taints.some((t) => t.key === UNSCHEDULABLE_TAINT)
                ? [...taints, { key: UNSCHEDULABLE_TAINT, effect: "NoSchedule" as const }]
                : taints,
          }
        : {}),
    },
    status: {
      capacity: {
        cpu: formatCpu(n.capacity.cpu),
        memory: formatMemory(n.capacity.memory),
        pods: String(n.capacity.pods),
      },
      allocatable: {
        cpu: formatCpu(n.capacity.cpu),
        memory: formatMemory(n.capacity.memory),
        pods: String(n.capacity.pods),
      },
      conditions: [
        {
          type: "Ready",
          status: n.ready ? "True" : n.deleted || n.unreachable ? "Unknown" : "False",
          reason: n.ready
            ? "KubeletReady"
            : n.unreachable
              ? "NodeStatusUnknown"
              : "KubeletNotReady",
        },
      ],
      nodeInfo: { kubeletVersion: n.kubeletVersion },
    },
  };
}

/**
 * A pod record as the API server shows it (one container, owned by its controller). Each object
 * is one literal with every field in its place, an absent one undefined (JSON leaves it out, and
 * the Kubernetes client's own objects carry such fields too): listing a large cluster converts
 * millions of pods, and a conditional spread is copied key by key through a temporary object,
 * while a field added after the literal needs a second allocation for the object's properties.
 */
export function toPod(
  p: PodRec,
  stamps: IsoStamps,
  unschedulable?: UnschedulablePods,
  crashLoops?: CrashLoops,
): Pod {
  const parts = templateParts(p.template);
  return {
    metadata: podMeta(p, parts, stamps),
    spec: podSpec(p, parts),
    status: podStatus(p, unschedulable, stamps, crashLoops),
  };
}

function podMeta(p: PodRec, parts: TemplateParts, stamps: IsoStamps): Pod["metadata"] {
  const w = p.workload;
  return {
    name: p.name,
    namespace: p.namespace,
    uid: podUid(p),
    resourceVersion: String(p.rv),
    creationTimestamp: stamps.of(p.createdAt),
    deletionTimestamp: p.deletionAt === undefined ? undefined : stamps.of(p.deletionAt),
    labels: p.labels === p.template.labels ? parts.labels : { ...p.labels },
    ownerReferences: w && w.kind !== "Pod" ? ownerReferences(w) : undefined,
  };
}

type OwnerReferences = NonNullable<Pod["metadata"]["ownerReferences"]>;
const OWNERS = Symbol("ownerReferences");

/** A controller's pods' owner references: made again only when it names another ReplicaSet. */
function ownerReferences(w: WorkloadRec): OwnerReferences {
  return derived(w, OWNERS, madeOwners, (refs, of) => refs[0]?.name === ownerName(of));
}

const ownerName = (w: WorkloadRec) => (w.kind === "Deployment" ? (w.replicaSet as string) : w.name);

function madeOwners(w: WorkloadRec): OwnerReferences {
  const { freeze } = Object;
  const kind = w.kind === "Deployment" ? "ReplicaSet" : w.kind;
  const ref = freeze({
    apiVersion: "apps/v1",
    kind,
    name: ownerName(w),
    uid: w.uid,
    controller: true,
  });
  return freeze([ref]) as unknown as OwnerReferences;
}

/** A pod's conditions by state: [scheduled][ready]. */
const CONDITIONS = [false, true].map((scheduled) =>
  [false, true].map(
    (ready) =>
      Object.freeze([
        Object.freeze({ type: "PodScheduled", status: scheduled ? "True" : "False" }),
        Object.freeze({ type: "Ready", status: ready ? "True" : "False" }),
      ]) as unknown as NonNullable<Pod["status"]["conditions"]>,
  ),
);

function podSpec(p: PodRec, parts: TemplateParts): Pod["spec"] {
  const t = p.template;
  return {
    nodeName: p.nodeName || undefined,
    containers: parts.containers,
    tolerations: parts.tolerations,
    nodeSelector: parts.nodeSelector,
    affinity: parts.affinity,
    volumes: podVolumes(p),
    terminationGracePeriodSeconds: t.terminationGracePeriodSeconds,
    priorityClassName: t.priorityClassName || undefined,
  };
}

function podStatus(
  p: PodRec,
  failed: UnschedulablePods | undefined,
  stamps: IsoStamps,
  crashLoops: CrashLoops | undefined,
): Pod["status"] {
  const unschedulable = p.nodeName ? undefined : unschedulableMessage(failed, p);
  return {
    phase: p.phase,
    conditions:
      unschedulable === undefined
        ? CONDITIONS[p.nodeName ? 1 : 0]![p.ready ? 1 : 0]
        : [
            {
              type: "PodScheduled",
              status: "False",
              reason: "Unschedulable",
              message: unschedulable,
            },
            CONDITIONS[0]![0]![1]!,
          ],
    startTime: p.startedAt === undefined ? undefined : stamps.of(p.startedAt),
    containerStatuses: containerStatuses(p, crashLoops, (at, ready) =>
      stamps.containers(at, ready),
    ) as ContainerStatus[] | undefined,
  };
}

/** A PodDisruptionBudget record with its status as the disruption controller computes it now. */
export function toPdb(b: PdbRec, now: number): PodDisruptionBudget {
  const s = pdbStatus(b, now);
  const disrupted: Record<string, string> = {};
  for (const [name, at] of b.disrupted) disrupted[name] = new Date(at).toISOString();
  return {
    metadata: {
      name: b.name,
      namespace: b.namespace,
      uid: b.uid,
      resourceVersion: String(b.rv),
      generation: b.generation,
    },
    spec: {
      selector: b.selector,
      ...(b.minAvailable !== undefined ? { minAvailable: b.minAvailable } : {}),
      ...(b.maxUnavailable !== undefined ? { maxUnavailable: b.maxUnavailable } : {}),
      ...(b.unhealthyPodEvictionPolicy
        ? { unhealthyPodEvictionPolicy: b.unhealthyPodEvictionPolicy }
        : {}),
    },
    status: {
      observedGeneration: b.generation,
      disruptionsAllowed: s.disruptionsAllowed,
      currentHealthy: s.currentHealthy,
      desiredHealthy: s.desiredHealthy,
      expectedPods: s.expectedPods,
      disruptedPods: disrupted,
      conditions: [
        {
          type: "DisruptionAllowed",
          status: s.disruptionsAllowed > 0 ? "True" : "False",
          reason: s.disruptionsAllowed > 0 ? "SufficientPods" : "InsufficientPods",
        },
      ],
    },
  };
}
