// Server-side printing: kubectl asks for `as=Table` and prints the columns the server chooses,
// so `kubectl get nodes` / `get pods` look as they do against a real cluster.
import type { Node, ObjectMeta, Pod } from "../../ports/cluster.js";

interface Column {
  name: string;
  type: "string" | "integer";
  format?: string;
  priority?: number;
}

/** Ages as kubectl prints them: 45s, 3m20s, 5h, 12d. */
export function age(fromIso: string | undefined, nowMs: number): string {
  if (!fromIso) return "<unknown>";
  const s = Math.max(0, Math.floor((nowMs - Date.parse(fromIso)) / 1000));
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const d = Math.floor(h / 24);
  if (s < 120) return `${s}s`;
  if (m < 10) return s % 60 ? `${m}m${s % 60}s` : `${m}m`;
  if (h < 3) return `${m}m`;
  if (h < 8) return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
  if (h < 48) return `${h}h`;
  if (d < 8) return h % 24 ? `${d}d${h % 24}h` : `${d}d`;
  return `${d}d`;
}

function nodeRow(n: Node, now: number): unknown[] {
  const ready = n.status.conditions?.find((c) => c.type === "Ready")?.status === "True";
  const status =
    (ready ? "Ready" : "NotReady") + (n.spec.unschedulable ? ",SchedulingDisabled" : "");
  const roles = Object.keys(n.metadata.labels ?? {})
    .filter((k) => k.startsWith("node-role.kubernetes.io/"))
    .map((k) => k.slice("node-role.kubernetes.io/".length));
  return [
    n.metadata.name,
    status,
    roles.length ? roles.join(",") : "<none>",
    age(n.metadata.creationTimestamp, now),
    n.status.nodeInfo?.kubeletVersion ?? "",
  ];
}

function podRow(p: Pod, now: number): unknown[] {
  const ready = p.status.conditions?.find((c) => c.type === "Ready")?.status === "True";
  const total = p.spec.containers.length;
  const containers = p.status.containerStatuses ?? [];
  // As kubectl prints a pod: a container's waiting reason (CrashLoopBackOff) over the phase.
  const waiting = containers.find((c) => c.state?.waiting?.reason)?.state?.waiting?.reason;
  const status = p.metadata.deletionTimestamp ? "Terminating" : (waiting ?? p.status.phase);
  return [
    p.metadata.name,
    `${ready ? total : 0}/${total}`,
    status,
    containers.reduce((n, c) => n + c.restartCount, 0),
    age(p.metadata.creationTimestamp, now),
    p.spec.nodeName ?? "<none>",
  ];
}

const NAME: Column = { name: "Name", type: "string", format: "name" };
const COLUMNS: Record<string, Column[]> = {
  nodes: [
    NAME,
    { name: "Status", type: "string" },
    { name: "Roles", type: "string" },
    { name: "Age", type: "string" },
    { name: "Version", type: "string" },
  ],
  pods: [
    NAME,
    { name: "Ready", type: "string" },
    { name: "Status", type: "string" },
    { name: "Restarts", type: "integer" },
    { name: "Age", type: "string" },
    { name: "Node", type: "string", priority: 1 },
  ],
  other: [NAME, { name: "Age", type: "string" }],
};

/** A meta.k8s.io/v1 Table of the objects, with partial metadata for each row. */
export function toTable(
  resource: string,
  objects: { metadata: ObjectMeta }[],
  listMeta: Record<string, unknown>,
  nowMs: number,
): unknown {
  const row = (o: { metadata: ObjectMeta }): unknown[] =>
    resource === "nodes"
      ? nodeRow(o as Node, nowMs)
      : resource === "pods"
        ? podRow(o as Pod, nowMs)
        : [o.metadata.name, age(o.metadata.creationTimestamp, nowMs)];
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: listMeta,
    columnDefinitions: (COLUMNS[resource] ?? COLUMNS.other!).map((c) => ({
      description: "",
      priority: 0,
      format: "",
      ...c,
    })),
    rows: objects.map((o) => ({
      cells: row(o),
      object: {
        kind: "PartialObjectMetadata",
        apiVersion: "meta.k8s.io/v1",
        metadata: o.metadata,
      },
    })),
  };
}

/** kubectl's Accept header for server-side printing names `as=Table`. */
export function wantsTable(accept: string | undefined): boolean {
  return /as=Table/.test(accept ?? "");
}
