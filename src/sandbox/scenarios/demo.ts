// The built-in demo scenario, embedded so the bundled CLI needs no file: a copy of
// src/sandbox/scenarios/demo.yaml (a test keeps the two identical). It matches policies/demo.yaml.
import { parseScenario, type Scenario } from "./schema.js";
import { formatDiagnostic } from "../../policy/diagnostic.js";

export const DEMO_SCENARIO_YAML = `# The built-in demo cluster: what "npm start", "--sandbox demo" and "sandbox serve" (without
# --scenario) roll with policies/demo.yaml. The control plane is already on 1.33; the nodes are
# not: the EKS managed node group "system" runs 1.32 on an older AMI release, and the
# self-managed Auto Scaling groups "ingress" and "workers" run instances launched from launch
# template versions older than $Latest.
apiVersion: noderoll.io/v1
kind: SandboxScenario
metadata:
  name: demo
  description: One EKS managed node group and two self-managed Auto Scaling groups in three zones.
seed: 20260105
start: "2026-01-05T09:00:00Z"
cluster:
  name: demo
  region: eu-west-1
  version: "1.33"
# EKS AMI release versions per Kubernetes version, oldest first; the last is "latest".
releases:
  "1.32": [1.32.3-20250519, 1.32.5-20250715]
  "1.33": [1.33.1-20250715, 1.33.4-20250904]
zones: [eu-west-1a, eu-west-1b, eu-west-1c]
nodeGroups:
  - name: system
    type: managed
    version: "1.32"
    releaseVersion: 1.32.3-20250519
    instanceType: m6i.large
    capacity: { cpu: 2, memory: 8Gi, pods: 29 }
    size: { min: 3, max: 9, desired: 6 }
    updateConfig: { maxUnavailable: 1 }
    labels: { role: system }
  - name: ingress
    type: self-managed
    version: "1.32"
    instanceType: c6i.large
    capacity: { cpu: 2, memory: 4Gi, pods: 29 }
    size: { min: 3, max: 6, desired: 3 }
    launchTemplate: { name: ingress, versions: 3, default: 3, use: $Latest }
    instances:
      - { version: 2, count: 3 }
    labels: { role: ingress }
    taints:
      - { key: dedicated, value: ingress, effect: NoSchedule }
  - name: workers
    type: self-managed
    version: "1.32"
    instanceType: m6i.xlarge
    capacity: { cpu: 4, memory: 16Gi, pods: 58 }
    size: { min: 4, max: 12, desired: 8 }
    launchTemplate: { name: workers, versions: 7, default: 7, use: $Latest }
    instances:
      - { version: 6, count: 8 }
    labels: { role: worker }
workloads:
  # Three replicas and a budget that keeps two: a drain never takes it down (PodDisruptionBudgets:
  # https://kubernetes.io/docs/concepts/workloads/pods/disruptions/).
  - kind: Deployment
    name: web
    replicas: 3
    requests: { cpu: 250m, memory: 256Mi }
    preStop: 5s
    terminationGracePeriod: 30s
    pdb: { minAvailable: 2 }
  # One replica, no budget: down while its pod moves (same page: replicate what must stay up).
  - kind: Deployment
    name: legacy
    replicas: 1
    requests: { cpu: 500m, memory: 512Mi }
    start: 20s
    ready: 10s
  - kind: StatefulSet
    name: db
    replicas: 3
    nodeSelector: { role: worker }
    requests: { cpu: 500m, memory: 1Gi }
    terminationGracePeriod: 60s
    pdb: { maxUnavailable: 1 }
  - kind: Deployment
    name: ingress-nginx
    namespace: ingress
    replicas: 3
    nodeSelector: { role: ingress }
    tolerations:
      - { key: dedicated, operator: Equal, value: ingress, effect: NoSchedule }
    requests: { cpu: 500m, memory: 512Mi }
    pdb: { maxUnavailable: 1 }
  - kind: Deployment
    name: coredns
    namespace: kube-system
    replicas: 2
    priorityClassName: system-cluster-critical
    nodeSelector: { role: system }
    requests: { cpu: 100m, memory: 70Mi }
    pdb: { maxUnavailable: 1 }
  # DaemonSets tolerate every taint, as log and metrics agents usually do.
  - kind: DaemonSet
    name: node-exporter
    namespace: monitoring
    tolerations:
      - { operator: Exists }
    requests: { cpu: 50m, memory: 64Mi }
`;

/** The demo scenario, validated. */
export function demoScenario(): Scenario {
  const r = parseScenario(DEMO_SCENARIO_YAML, "demo.yaml");
  if (!r.ok) throw new Error(r.errors.map(formatDiagnostic).join("\n"));
  return r.scenario;
}
