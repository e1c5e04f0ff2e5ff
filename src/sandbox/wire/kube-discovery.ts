// Discovery for the Kubernetes face: the legacy (non-aggregated) documents kubectl falls back
// to when a server answers plain application/json. kubectl drain also reads /api/v1 to learn
// that pods/eviction exists in policy/v1 before it evicts.

interface ResourceDoc {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  group?: string;
  version?: string;
}

const READ = ["get", "list", "watch"];

const res = (
  name: string,
  kind: string,
  namespaced: boolean,
  verbs: string[],
  extra: Partial<ResourceDoc> = {},
): ResourceDoc => ({
  name,
  singularName: name.includes("/") ? "" : kind.toLowerCase(),
  namespaced,
  kind,
  verbs,
  ...extra,
});

/** The resources each group version serves, by "group/version" ("v1" for the core group). */
export const RESOURCES: Record<string, ResourceDoc[]> = {
  v1: [
    res("nodes", "Node", false, [...READ, "patch"], { shortNames: ["no"] }),
    res("pods", "Pod", true, [...READ, "delete"], { shortNames: ["po"] }),
    res("pods/eviction", "Eviction", true, ["create"], { group: "policy", version: "v1" }),
    res("persistentvolumeclaims", "PersistentVolumeClaim", true, ["get"], { shortNames: ["pvc"] }),
    res("persistentvolumes", "PersistentVolume", false, ["get"], { shortNames: ["pv"] }),
  ],
  "apps/v1": [
    res("daemonsets", "DaemonSet", true, ["get", "list"], { shortNames: ["ds"] }),
    res("deployments", "Deployment", true, ["get", "list"], { shortNames: ["deploy"] }),
    res("replicasets", "ReplicaSet", true, ["get", "list"], { shortNames: ["rs"] }),
    res("statefulsets", "StatefulSet", true, ["get", "list"], { shortNames: ["sts"] }),
  ],
  "policy/v1": [
    res("poddisruptionbudgets", "PodDisruptionBudget", true, ["list", "watch"], {
      shortNames: ["pdb"],
    }),
  ],
  "coordination.k8s.io/v1": [res("leases", "Lease", true, ["create", "delete", "get", "update"])],
};

export function versionDoc(minor: string): unknown {
  const [major, min] = minor.split(".");
  return {
    major,
    minor: min,
    gitVersion: `v${minor}.0-eks-sandbox`,
    gitCommit: "0000000000000000000000000000000000000000",
    gitTreeState: "clean",
    buildDate: "2026-01-01T00:00:00Z",
    goVersion: "go1.24.0",
    compiler: "gc",
    platform: "linux/amd64",
  };
}

export function apiVersionsDoc(host: string): unknown {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: host }],
  };
}

export function apiGroupListDoc(): unknown {
  const groups = Object.keys(RESOURCES)
    .filter((gv) => gv.includes("/"))
    .map((gv) => {
      const [name, version] = gv.split("/") as [string, string];
      const v = { groupVersion: gv, version };
      return { name, versions: [v], preferredVersion: v };
    });
  return { kind: "APIGroupList", apiVersion: "v1", groups };
}

export function apiGroupDoc(group: string): unknown | undefined {
  const gv = Object.keys(RESOURCES).find((k) => k.startsWith(`${group}/`));
  if (!gv) return undefined;
  const v = { groupVersion: gv, version: gv.split("/")[1] };
  return { kind: "APIGroup", apiVersion: "v1", name: group, versions: [v], preferredVersion: v };
}

export function resourceListDoc(groupVersion: string): unknown | undefined {
  const resources = RESOURCES[groupVersion];
  if (!resources) return undefined;
  return { kind: "APIResourceList", apiVersion: "v1", groupVersion, resources };
}
