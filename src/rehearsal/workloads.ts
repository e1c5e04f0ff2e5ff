// The twin's workloads: the live pods grouped by the controller behind them (a ReplicaSet's
// Deployment, a StatefulSet, a DaemonSet; a pod with no controller is its own workload), each
// with what the sandbox's scheduler and kubelet need, and every PodDisruptionBudget as it is.
import { parseCpu, parseMemory, formatCpu, formatMemory } from "../sandbox/model/quantities.js";
import type { ScenarioInput } from "../sandbox/scenarios/schema.js";
import { isFinished, isMirrorPod, type Pod, type Workload } from "../ports/index.js";
import type { LiveCluster } from "./live.js";
import { median, podStartup, stuckUnready, type Timings } from "./timings.js";

/** Longer than any rehearsal runs (seconds): a pod that is never Ready. */
export const NEVER_READY_TWIN_S = 365 * 86_400;

type WorkloadInput = NonNullable<ScenarioInput["workloads"]>[number];
type PdbInput = NonNullable<ScenarioInput["pdbs"]>[number];

/** Labels a controller adds per pod: not the template's. */
const PER_POD: ReadonlySet<string> = new Set([
  "pod-template-hash",
  "controller-revision-hash",
  "statefulset.kubernetes.io/pod-name",
  "pod-template-generation",
  "apps.kubernetes.io/pod-index",
]);

interface Key {
  kind: WorkloadInput["kind"];
  namespace: string;
  name: string;
}

/** The workload a pod belongs to, as the scenario names it. */
export function workloadOf(p: Pod, owners: LiveCluster["owners"]): Key {
  const namespace = p.metadata.namespace ?? "default";
  const o =
    p.metadata.ownerReferences?.find((r) => r.controller) ?? p.metadata.ownerReferences?.[0];
  if (o?.kind === "StatefulSet" || o?.kind === "DaemonSet")
    return { kind: o.kind, namespace, name: o.name };
  if (o?.kind === "ReplicaSet") {
    const rs = owners.get(`ReplicaSet/${namespace}/${o.name}`);
    const d = rs?.metadata.ownerReferences?.find((r) => r.kind === "Deployment");
    return { kind: "Deployment", namespace, name: d?.name ?? o.name };
  }
  return { kind: "Pod", namespace, name: p.metadata.name };
}

function requests(p: Pod) {
  let cpu = 0;
  let memory = 0;
  for (const c of p.spec.containers) {
    cpu += parseCpu(c.resources?.requests?.cpu ?? "0") || 0;
    memory += parseMemory(c.resources?.requests?.memory ?? "0") || 0;
  }
  return { cpu: formatCpu(cpu), memory: formatMemory(memory) };
}

function preStop(p: Pod): number {
  let s = 0;
  for (const c of p.spec.containers) {
    const hook = c.lifecycle?.preStop;
    const n =
      hook?.sleep?.seconds ??
      Number(/\bsleep\s+(\d+)/.exec(hook?.exec?.command.join(" ") ?? "")?.[1] ?? 0);
    s = Math.max(s, n);
  }
  return s;
}

function replicas(key: Key, pods: Pod[], owners: LiveCluster["owners"]): number {
  if (key.kind === "Pod" || key.kind === "DaemonSet") return 1;
  const w: Workload | undefined = owners.get(`${key.kind}/${key.namespace}/${key.name}`);
  return w?.spec.replicas ?? pods.length;
}

function workload(
  key: Key,
  pods: Pod[],
  live: LiveCluster,
  t: Timings,
  now: number,
): WorkloadInput {
  const p = pods[0] as Pod;
  const labels = Object.fromEntries(
    Object.entries(p.metadata.labels ?? {}).filter(([k]) => !PER_POD.has(k)),
  );
  const startup = median(pods.flatMap((x) => podStartup(x, now) ?? []));
  // Every pod of it scheduled long ago and still not Ready: its copies never become Ready.
  const stuck = pods.every((x) => stuckUnready(x, now));
  return {
    kind: key.kind,
    name: key.name,
    namespace: key.namespace,
    replicas: replicas(key, pods, live.owners),
    labels,
    requests: requests(p),
    tolerations: (p.spec.tolerations ?? []).map(({ tolerationSeconds: _s, ...t }) => t),
    nodeSelector: p.spec.nodeSelector ?? {},
    terminationGracePeriod: p.spec.terminationGracePeriodSeconds ?? 30,
    preStop: preStop(p),
    start: startup !== undefined ? Math.max(0, startup - t.pod.ready) : t.pod.start,
    ready: stuck ? NEVER_READY_TWIN_S : t.pod.ready,
    readinessProbe: p.spec.containers.some((c) => c.readinessProbe !== undefined),
  };
}

const SKIP = (p: Pod) => isFinished(p.status.phase) || isMirrorPod(p);

export function twinWorkloads(live: LiveCluster, t: Timings, now: number): WorkloadInput[] {
  const groups = new Map<string, { key: Key; pods: Pod[] }>();
  for (const p of live.pods) {
    if (SKIP(p)) continue;
    const key = workloadOf(p, live.owners);
    const id = `${key.kind}/${key.namespace}/${key.name}`;
    const g = groups.get(id) ?? { key, pods: [] };
    g.pods.push(p);
    groups.set(id, g);
  }
  return [...groups.values()].map((g) => workload(g.key, g.pods, live, t, now));
}

export function twinPdbs(live: LiveCluster): PdbInput[] {
  return live.pdbs.flatMap((b) => {
    if (!b.spec.selector) return [];
    const budget =
      b.spec.minAvailable !== undefined
        ? { minAvailable: b.spec.minAvailable }
        : { maxUnavailable: b.spec.maxUnavailable ?? 0 };
    return [
      {
        name: b.metadata.name,
        namespace: b.metadata.namespace ?? "default",
        selector: b.spec.selector,
        ...budget,
        ...(b.spec.unhealthyPodEvictionPolicy && {
          unhealthyPodEvictionPolicy: b.spec.unhealthyPodEvictionPolicy,
        }),
      } as PdbInput,
    ];
  });
}
