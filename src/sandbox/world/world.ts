// The world: AWS state, Kubernetes state and the virtual clock in one object, built from a
// scenario, with the actors that make it move (Auto Scaling, EC2 boot, kubelets, scheduler,
// controllers, the PDB controller, EKS's update workflow, an optional cluster autoscaler) and
// the ports the engine talks to (`world.cloud`, `world.cluster`, `world.clock`).
import type { Cloud } from "../../ports/cloud.js";
import type { Cluster } from "../../ports/cluster.js";
import { ClusterAutoscaler } from "../sim/cluster-autoscaler.js";
import { AutoScalingSim } from "../sim/aws/auto-scaling.js";
import { Ec2Sim } from "../sim/aws/ec2.js";
import { VirtualClock } from "../model/clock.js";
import { SandboxCloud } from "../ports/cloud-face.js";
import { SandboxCluster } from "../ports/cluster-face.js";
import { demoScenario } from "../scenarios/demo.js";
import { EksSim } from "../sim/aws/eks.js";
import { KubeSim } from "../sim/kube/kube.js";
import type {
  AsgRec,
  InstanceRec,
  NodeRec,
  PdbRec,
  PodRec,
  WorkloadRec,
} from "../model/records.js";
import { Availability, Timeline } from "../model/observers.js";
import { Random } from "../model/random.js";
import {
  parseScenario,
  scenarioFrom,
  type Scenario,
  type ScenarioInput,
} from "../scenarios/schema.js";
import { formatDiagnostic } from "../../policy/diagnostic.js";

export interface Throttle {
  api: "kubernetes" | "aws";
  rate: number;
  retryAfter: number;
}

export class World {
  readonly scenario: Scenario;
  readonly clock: VirtualClock;
  readonly random: Random;
  readonly timeline: Timeline;
  readonly availability: Availability;
  readonly kube: KubeSim;
  readonly ec2: Ec2Sim;
  readonly autoScaling: AutoScalingSim;
  readonly eks: EksSim;
  readonly autoscaler?: ClusterAutoscaler;
  /** The ports, as the roll engine sees them. */
  readonly cloud: Cloud;
  readonly cluster: Cluster;
  readonly throttles: Throttle[];
  /** API calls made through the ports, by "service.method". */
  readonly calls = new Map<string, number>();

  /** A world from a validated scenario (parseScenario, scenarioFrom, demoScenario, generateScenario). */
  constructor(s: Scenario) {
    this.scenario = s;
    const t = s.timings;
    this.clock = new VirtualClock(Date.parse(s.start));
    this.random = new Random(s.seed);
    this.timeline = new Timeline(this.clock);
    this.availability = new Availability(this.clock);
    this.throttles = s.faults.throttle;
    this.kube = new KubeSim({
      clock: this.clock,
      random: this.random,
      timeline: this.timeline,
      availability: this.availability,
      region: s.cluster.region,
      podEvents: s.podEvents,
      timings: {
        nodeReadySeconds: t.nodeReady,
        schedulerSeconds: t.scheduler,
        controllerSeconds: t.controller,
        shutdownSeconds: t.podShutdown,
      },
    });
    const start = this.clock.nowMs();
    this.ec2 = new Ec2Sim({
      clock: this.clock,
      random: this.random,
      timeline: this.timeline,
      kube: this.kube,
      region: s.cluster.region,
      timings: {
        bootSeconds: t.boot,
        bootJitterSeconds: t.bootJitter,
        registerSeconds: t.register,
        terminateSeconds: t.terminate,
        nodeDeleteSeconds: t.nodeDelete,
      },
      neverReady: s.faults.nodesNeverReady.map((f) => ({ ...f, from: start + f.from * 1000 })),
      nodeLabels: (asg, inst) => this.eks.nodeLabels(asg, inst),
    });
    this.autoScaling = new AutoScalingSim({
      clock: this.clock,
      random: this.random,
      timeline: this.timeline,
      ec2: this.ec2,
      timings: { launchRetrySeconds: t.launchRetry },
      launchFaults: s.faults.launchFailures.map((f) => ({
        ...f,
        from: start + f.from * 1000,
        until: start + (f.from + f.for) * 1000,
      })),
    });
    this.eks = new EksSim(
      {
        clock: this.clock,
        random: this.random,
        timeline: this.timeline,
        ec2: this.ec2,
        autoScaling: this.autoScaling,
        kube: this.kube,
        clusterName: s.cluster.name,
        timings: {
          drainTimeoutSeconds: t.drainTimeout,
          postDrainSeconds: t.postDrain,
          nodeCreationTimeoutSeconds: t.nodeCreationTimeout,
          evictionRetrySeconds: t.evictionRetry,
          configUpdateSeconds: t.configUpdate,
        },
      },
      s.cluster.version,
    );
    this.eks.releases = s.releases;
    this.#build(s);
    this.cloud = new SandboxCloud(this);
    this.cluster = new SandboxCluster(this);
    if (s.autoscaler.enabled)
      this.autoscaler = new ClusterAutoscaler(
        this,
        s.autoscaler.scanInterval,
        s.autoscaler.pendingFor,
      );
    this.availability.reset();
  }

  /** A world from a scenario written as an object (validated here; throws on errors). */
  static from(input: ScenarioInput): World {
    return new World(scenarioFrom(input));
  }

  /** A world from scenario YAML; throws with file:line:col messages when it is invalid. */
  static fromYaml(text: string, file = "scenario.yaml"): World {
    const r = parseScenario(text, file);
    if (!r.ok) throw new Error(r.errors.map(formatDiagnostic).join("\n"));
    return new World(r.scenario);
  }
  /** The built-in demo cluster. */
  static demo(): World {
    return new World(demoScenario());
  }

  // ---------------------------------------------------------------- driving time

  /** Run async code (the roll engine, a test's steps) in virtual time until it settles. */
  run<T>(task: Promise<T> | (() => Promise<T>), limitMs?: number): Promise<T> {
    return this.clock.run(task, limitMs);
  }
  advance(ms: number): Promise<void> {
    return this.clock.advance(ms);
  }
  /** Advance until the predicate holds; false when `limitMs` of virtual time pass first. */
  until(predicate: () => boolean, limitMs = 3600_000): Promise<boolean> {
    return this.clock.until(predicate, limitMs);
  }

  /** Until an EKS update is no longer InProgress; returns its final record. */
  async waitForUpdate(updateId: string, limitMs = 24 * 3600_000) {
    await this.until(
      () => this.eks.describeUpdate(updateId).update.status !== "InProgress",
      limitMs,
    );
    return this.eks.describeUpdate(updateId).update;
  }

  // ---------------------------------------------------------------- reading the world

  /** An Auto Scaling group by its name, or by the EKS managed node group's name. */
  asg(name: string): AsgRec {
    const ng = this.eks.nodegroups.get(name);
    return this.autoScaling.group(ng ? ng.asg : name);
  }
  /** Sizes of a group (by node group or ASG name). */
  sizes(name: string): { min: number; max: number; desired: number } {
    const g = this.asg(name);
    return { min: g.min, max: g.max, desired: g.desired };
  }
  /** Live instances of a group. */
  instances(name: string): InstanceRec[] {
    return this.autoScaling.active(this.asg(name));
  }
  /** Nodes whose instance belongs to the group (attached or not yet deleted). */
  nodes(name: string): NodeRec[] {
    const g = this.asg(name);
    const groupName = g.nodegroup ?? g.name;
    return [...this.kube.nodes.values()].filter((n) => n.group === groupName);
  }
  workload(name: string): WorkloadRec {
    const hit = [...this.kube.workloads.values()].filter(
      (w) => w.key === name || w.name === name || `${w.namespace}/${w.name}` === name,
    );
    if (hit.length !== 1) throw new Error(`no single workload named "${name}"`);
    return hit[0] as WorkloadRec;
  }
  pod(namespaceSlashName: string): PodRec | undefined {
    return this.kube.pods.get(
      namespaceSlashName.includes("/") ? namespaceSlashName : `default/${namespaceSlashName}`,
    );
  }
  pdb(namespace: string, name: string): PdbRec | undefined {
    return this.kube.pdbs.get(namespace)?.find((p) => p.name === name);
  }
  downtimeSeconds(workload: string): number {
    return this.availability.downtimeSeconds(this.workload(workload).key);
  }
  /** Nothing pending, every workload at its replicas and Ready (DaemonSets: on every Ready node). */
  settled(): boolean {
    if (this.kube.pending.size > 0) return false;
    for (const w of this.kube.workloads.values()) {
      if (w.kind === "DaemonSet") {
        for (const p of w.pods)
          if (
            p.deletionAt === undefined &&
            !p.ready &&
            p.nodeName &&
            this.kube.nodes.get(p.nodeName)?.ready
          )
            return false;
        continue;
      }
      let ready = 0;
      for (const p of w.pods) if (p.ready && p.deletionAt === undefined) ready++;
      if (ready < w.replicas) return false;
    }
    return true;
  }

  // ---------------------------------------------------------------- building

  #build(s: Scenario): void {
    const now = this.clock.nowMs();
    for (const g of s.nodeGroups) {
      const zones = g.zones ?? s.zones;
      const version = g.version ?? s.cluster.version;
      const managed = g.type === "managed";
      const ltId = `lt-0${this.random.hex(16)}`;
      const custom = managed && g.launchTemplate !== undefined;
      const nVersions = g.launchTemplate?.versions ?? 1;
      const versions = [];
      for (let k = 1; k <= nVersions; k++) {
        const release = managed ? (g.releaseVersion as string) : undefined;
        versions.push({
          number: k,
          imageId:
            managed && !custom
              ? this.eks.amiFor(release as string)
              : this.eks.amiFor(`${g.name}-v${k}`),
          ...(release ? { releaseVersion: release } : {}),
          kubernetesVersion: version,
          createdAt: now - (nVersions - k + 1) * 86_400_000,
        });
      }
      this.ec2.templates.set(ltId, {
        id: ltId,
        name: g.launchTemplate?.name ?? (managed && !custom ? `eks-${this.random.uuid()}` : g.name),
        versions,
        defaultVersion: g.launchTemplate?.default ?? 1,
      });
      const use = g.launchTemplate?.use ?? "$Latest";
      const asgName = managed ? `eks-${g.name}-${this.random.uuid()}` : g.name;
      const asg: AsgRec = {
        name: asgName,
        min: g.size.min,
        max: g.size.max,
        desired: g.size.desired,
        zones,
        ltId,
        ltVersion: String(use),
        mixedInstances: g.mixedInstances,
        instanceType: g.instanceType,
        instances: new Set(),
        tags: [
          {
            Key: `kubernetes.io/cluster/${s.cluster.name}`,
            Value: "owned",
            ResourceId: asgName,
            ResourceType: "auto-scaling-group",
            PropagateAtLaunch: true,
          },
          ...(managed
            ? [
                {
                  Key: "eks:nodegroup-name",
                  Value: g.name,
                  ResourceId: asgName,
                  ResourceType: "auto-scaling-group" as const,
                  PropagateAtLaunch: true,
                },
              ]
            : []),
          ...Object.entries(g.tags).map(([Key, Value]) => ({
            Key,
            Value,
            ResourceId: asgName,
            ResourceType: "auto-scaling-group" as const,
            PropagateAtLaunch: true,
          })),
        ],
        suspended: new Set(),
        activities: [],
        labels: g.labels,
        taints: g.taints,
        capacity: g.capacity,
        createdAt: now - 30 * 86_400_000,
        reconcilePending: false,
        ...(managed ? { nodegroup: g.name } : {}),
      };
      this.autoScaling.groups.set(asgName, asg);
      if (managed)
        this.eks.nodegroups.set(g.name, {
          name: g.name,
          asg: asgName,
          version,
          releaseVersion: g.releaseVersion as string,
          ltId,
          customLaunchTemplate: custom,
          updateConfig: g.updateConfig ?? { maxUnavailable: 1 },
          status: "ACTIVE",
          issues: [],
          createdAt: now - 30 * 86_400_000,
          modifiedAt: now - 30 * 86_400_000,
        });
      // Initial instances: those listed with their version, the rest at the configured one.
      const configured = this.ec2.resolveVersion(this.ec2.templates.get(ltId)!, String(use)).number;
      const plan: { version: number; zone?: string }[] = [];
      for (const i of g.instances ?? [])
        for (let k = 0; k < i.count; k++)
          plan.push({ version: i.version, ...(i.zone ? { zone: i.zone } : {}) });
      while (plan.length < g.size.desired) plan.push({ version: configured });
      const counts = new Map(zones.map((z) => [z, 0]));
      for (const p of plan) {
        const zone =
          p.zone ??
          [...zones].sort(
            (a, b) =>
              (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || zones.indexOf(a) - zones.indexOf(b),
          )[0]!;
        counts.set(zone, (counts.get(zone) ?? 0) + 1);
        const inst = this.autoScaling.launch(asg, zone, { ltVersion: p.version, initial: true });
        // Instances launched over the past weeks, oldest first.
        inst.launchTime = now - 20 * 86_400_000 + asg.instances.size * 60_000;
        const node = this.kube.nodes.get(inst.nodeName);
        if (node) node.createdAt = inst.launchTime + 90_000;
      }
    }
    // PDBs before pods, so pods know their budgets from birth.
    for (const w of s.workloads) {
      if (!w.pdb) continue;
      this.kube.addPdb(
        this.#pdb(
          w.namespace,
          w.pdb.name ?? w.name,
          { matchLabels: w.labels ?? { app: w.name } },
          w.pdb,
        ),
      );
    }
    for (const p of s.pdbs) this.kube.addPdb(this.#pdb(p.namespace, p.name, p.selector, p));
    const order = ["DaemonSet", "StatefulSet", "Deployment", "Pod"];
    const sorted = [...s.workloads].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
    for (const w of sorted) {
      const rec: WorkloadRec = {
        kind: w.kind,
        namespace: w.namespace,
        name: w.name,
        key: `${w.kind}/${w.namespace}/${w.name}`,
        uid: this.kube.uid(),
        ...(w.kind === "Deployment" ? { replicaSet: `${w.name}-${this.random.hex(10)}` } : {}),
        replicas: w.kind === "Pod" ? 1 : w.replicas,
        template: {
          labels: w.labels ?? { app: w.name },
          tolerations: w.tolerations,
          nodeSelector: w.nodeSelector,
          requests: w.requests,
          terminationGracePeriodSeconds: w.terminationGracePeriod,
          preStopSeconds: w.preStop,
          startSeconds: w.start,
          readySeconds: w.ready,
          readinessProbe: w.readinessProbe,
        },
        pods: new Set(),
        stuckTerminating:
          w.stuckTerminating ||
          s.faults.stuckTerminating.some((n) => n === w.name || n === `${w.namespace}/${w.name}`),
        podSeq: 0,
      };
      this.kube.addWorkload(rec, { readyNow: true });
    }
    for (const w of this.kube.workloads.values()) {
      let ready = 0;
      for (const p of w.pods) if (p.ready) ready++;
      this.availability.track(
        w.key,
        w.kind === "DaemonSet" ? Math.max(1, w.pods.size) : w.replicas,
        ready,
      );
    }
  }

  #pdb(
    namespace: string,
    name: string,
    selector: PdbRec["selector"],
    b: {
      minAvailable?: number | string;
      maxUnavailable?: number | string;
      unhealthyPodEvictionPolicy?: "IfHealthyBudget" | "AlwaysAllow";
    },
  ): PdbRec {
    return {
      namespace,
      name,
      uid: this.kube.uid(),
      rv: this.kube.nextRv(),
      generation: 1,
      selector,
      ...(b.minAvailable !== undefined ? { minAvailable: b.minAvailable } : {}),
      ...(b.maxUnavailable !== undefined ? { maxUnavailable: b.maxUnavailable } : {}),
      ...(b.unhealthyPodEvictionPolicy
        ? { unhealthyPodEvictionPolicy: b.unhealthyPodEvictionPolicy }
        : {}),
      pods: new Set(),
      disrupted: new Map(),
      dirty: true,
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    };
  }
}
