// The world: AWS state, Kubernetes state and the virtual clock in one object, built from a
// scenario, with the actors that make it move (Auto Scaling, EC2 boot, kubelets, scheduler,
// controllers, the PDB controller, EKS's update workflow, an optional cluster autoscaler) and
// the ports the engine talks to (`world.cloud`, `world.cluster`, `world.clock`, `world.metrics`). This is where
// the sandbox's parts are put together: the simulators (sim/), the port faces over them
// (ports/), each given just the view it needs, and the starting state (build.ts).
import type { ApiEndpoint } from "../../ports/cluster.js";
import { formatDiagnostic } from "../../policy/diagnostic.js";
import { VirtualClock } from "../model/clock.js";
import type { IssuedIds } from "../model/issued.js";
import { Availability, Timeline } from "../model/observers.js";
import { Random } from "../model/random.js";
import type {
  AsgRec,
  InstanceRec,
  NodeRec,
  PdbRec,
  PodRec,
  WorkloadRec,
} from "../model/records.js";
import { ApiGate, type Throttle } from "../ports/api-gate.js";
import { SandboxCloud } from "../ports/cloud-face.js";
import { SandboxCluster } from "../ports/cluster-face.js";
import { SandboxMetrics } from "../ports/metrics-face.js";
import { withFaults } from "../ports/faults.js";
import { demoScenario } from "../scenarios/demo.js";
import {
  parseScenario,
  scenarioFrom,
  type Scenario,
  type ScenarioInput,
} from "../scenarios/schema.js";
import { AutoScalingSim } from "../sim/aws/auto-scaling.js";
import { Ec2Sim } from "../sim/aws/ec2.js";
import { EksSim } from "../sim/aws/eks.js";
import { CloudWatchSim } from "../sim/aws/cloudwatch.js";
import { BadReleases } from "../sim/bad-release.js";
import { toNode } from "../sim/kube/convert.js";
import { PrometheusSim } from "../sim/prometheus.js";
import { ClusterAutoscaler } from "../sim/cluster-autoscaler.js";
import { KubeSim } from "../sim/kube/kube.js";
import { scheduleScaleIns } from "../sim/scale-ins.js";
import { buildWorld } from "./build.js";
import { pretenuredWhile } from "./pretenuring.js";

export type { Throttle } from "../ports/api-gate.js";

/**
 * What a world keeps of its scenario once built: all but its workloads and budgets, which live on
 * as the simulator's records (a 20,000-node scenario's ~50,000 parsed workloads: ~12 MB kept for
 * nothing, the parts its records share left out).
 */
export type ScenarioHead = Omit<Scenario, "workloads" | "pdbs">;

/** What a world shares with the others of an account (world/account.ts); alone, nothing. */
export interface WorldOptions {
  /** The account's clock, at the scenario's start: every world of it moves on the same time. */
  clock?: VirtualClock;
  /** The AWS ids the account has issued, so that no two of its worlds draw the same one. */
  issued?: IssuedIds;
}

export class World {
  readonly scenario: ScenarioHead;
  readonly clock: VirtualClock;
  readonly random: Random;
  readonly timeline: Timeline;
  readonly availability: Availability;
  readonly kube: KubeSim;
  readonly ec2: Ec2Sim;
  readonly autoScaling: AutoScalingSim;
  readonly eks: EksSim;
  readonly autoscaler?: ClusterAutoscaler;
  /** Workload pods on a bad release's nodes (faults.badRelease), which alarms may follow. */
  readonly badReleases: BadReleases;
  /** The account's CloudWatch alarms (the scenario's `alarms`, and those put since). */
  readonly cloudWatch: CloudWatchSim;
  /** The ports, as the roll engine sees them. */
  readonly cloud: SandboxCloud;
  readonly cluster: SandboxCluster;
  /** Prometheus instant queries, answered by the world itself (sim/prometheus.ts). */
  readonly metrics: SandboxMetrics;
  /**
   * Where the cluster's Kubernetes API is, as DescribeCluster and a kubeconfig say: in-process a
   * name of its own per cluster and region; `sandbox serve` gives it the served URL and CA.
   */
  readonly endpoint: ApiEndpoint;
  /** Counts the calls through the ports and throttles them as the scenario asks. */
  readonly gate: ApiGate;
  readonly throttles: Throttle[];
  /** API calls made through the ports, by "service.method". */
  readonly calls: Map<string, number>;

  /**
   * A world from a validated scenario (parseScenario, scenarioFrom, demoScenario, generateScenario);
   * `options`: what it shares with the other worlds of an account.
   */
  constructor(s: Scenario, options: WorldOptions = {}) {
    const { workloads: _w, pdbs: _p, ...head } = s;
    this.scenario = head;
    const start = Date.parse(s.start);
    if (options.clock && options.clock.nowMs() !== start)
      throw new Error(
        `scenario "${s.metadata.name}" starts at ${s.start}, and the clock given is at ${options.clock.iso()}`,
      );
    this.clock = options.clock ?? new VirtualClock(start);
    this.random = new Random(s.seed);
    this.timeline = new Timeline(this.clock);
    this.availability = new Availability(this.clock);
    this.throttles = s.faults.throttle;
    // Faults draw from a stream of their own: asking for them changes nothing else at random.
    const { network, watch, tryLater } = s.faults;
    const chance = new Random((s.seed ^ 0x5bd1e995) >>> 0);
    this.gate = new ApiGate(this.throttles, this.random, { network, watch, tryLater }, chance);
    this.calls = this.gate.calls;
    this.kube = this.#kube(s);
    this.ec2 = this.#ec2(s, options.issued);
    this.autoScaling = this.#autoScaling(s);
    this.eks = this.#eks(s);
    const { eks, ec2, autoScaling, kube, random, availability } = this;
    const parts = {
      now: this.clock.nowMs(),
      random,
      availability,
      ec2,
      autoScaling,
      eks,
      kube,
      ...(options.issued && { issued: options.issued }),
    };
    pretenuredWhile(() => buildWorld(s, parts));
    const base = { clock: this.clock, timeline: this.timeline, gate: this.gate };
    this.badReleases = new BadReleases({ kube, ec2 }, s.faults.badRelease.length > 0);
    const { badReleases } = this;
    this.cloudWatch = new CloudWatchSim({ ...base, badReleases }, s.alarms);
    const nodes = () => kube.nodeList().map((n) => toNode(n, kube.stamps));
    const prometheus = new PrometheusSim({ nowMs: () => this.clock.nowMs(), badReleases, nodes });
    this.metrics = new SandboxMetrics(prometheus, this.calls);
    const { name: clusterName, region } = s.cluster;
    this.endpoint = { server: `https://${clusterName}.${region}.eks.sandbox.invalid` };
    const endpoint = this.endpoint;
    // The faults' proxy only when the scenario asks for faults: big worlds pay nothing for it.
    const hostile = network.length + watch.length + tryLater.length > 0;
    const cloud = new SandboxCloud({
      ...base,
      clusterName,
      region,
      endpoint,
      eks,
      autoScaling,
      ec2,
      cloudWatch: this.cloudWatch,
    });
    const cluster = new SandboxCluster({ ...base, kube, endpoint });
    this.cloud = hostile ? withFaults(cloud, base, "aws") : cloud;
    this.cluster = hostile ? withFaults(cluster, base, "kubernetes") : cluster;
    const actors = {
      clock: this.clock,
      timeline: this.timeline,
      kube,
      autoScaling,
      groupOf: (name: string) => this.asg(name),
    };
    if (s.autoscaler.enabled)
      this.autoscaler = new ClusterAutoscaler(
        actors,
        s.autoscaler.scanInterval,
        s.autoscaler.pendingFor,
        s.autoscaler.scaleDown,
      );
    scheduleScaleIns(actors, s.scaleIns);
    this.availability.reset();
    this.#unreachable(s);
    this.#othersUpdates(s);
  }

  /** eks.startedByOthers: version updates someone else starts, each at its time. */
  #othersUpdates(s: Scenario): void {
    for (const u of s.eks.startedByOthers)
      this.clock.after(u.at * 1000, () => {
        this.eks.updateNodegroupVersion({
          clusterName: s.cluster.name,
          nodegroupName: u.nodegroup,
          ...(u.version && { version: u.version }),
          ...(u.releaseVersion && { releaseVersion: u.releaseVersion }),
        });
      });
  }

  /** faults.nodesUnreachable: each at its time, on the Ready nodes it names then. */
  #unreachable(s: Scenario): void {
    for (const f of s.faults.nodesUnreachable)
      this.clock.after(f.at * 1000, () => {
        const nodes = this.kube
          .nodeList()
          .filter((n) => n.ready && !n.unreachable && (!f.group || n.group === f.group));
        for (const n of nodes.slice(0, f.count)) this.kube.loseKubelet(n);
      });
  }

  #kube(s: Scenario): KubeSim {
    const t = s.timings;
    return new KubeSim({
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
        pdbRetryAfterSeconds: t.pdbRetryAfter,
      },
    });
  }

  #ec2(s: Scenario, issued: IssuedIds | undefined): Ec2Sim {
    const t = s.timings;
    const start = this.clock.nowMs();
    return new Ec2Sim({
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
      neverReady: s.faults.nodesNeverReady.map(({ for: span, ...f }) => ({
        ...f,
        from: start + f.from * 1000,
        ...(span !== undefined && { until: start + (f.from + span) * 1000 }),
      })),
      neverJoin: s.faults.nodesNeverJoin.map((f) => ({ ...f, from: start + f.from * 1000 })),
      badRelease: s.faults.badRelease,
      nodeLabels: (asg, inst) => this.eks.nodeLabels(asg, inst),
      ...(issued && { issued }),
    });
  }

  #autoScaling(s: Scenario): AutoScalingSim {
    const start = this.clock.nowMs();
    return new AutoScalingSim({
      clock: this.clock,
      random: this.random,
      timeline: this.timeline,
      ec2: this.ec2,
      timings: { launchRetrySeconds: s.timings.launchRetry },
      launchFaults: s.faults.launchFailures.map((f) => ({
        ...f,
        from: start + f.from * 1000,
        until: start + (f.from + f.for) * 1000,
      })),
    });
  }

  #eks(s: Scenario): EksSim {
    const t = s.timings;
    const eks = new EksSim(
      {
        clock: this.clock,
        random: this.random,
        timeline: this.timeline,
        ec2: this.ec2,
        autoScaling: this.autoScaling,
        kube: this.kube,
        clusterName: s.cluster.name,
        behaviour: s.eks,
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
    eks.releases = s.releases;
    return eks;
  }

  /** A world from a scenario written as an object (validated here; throws on errors). */
  static from(input: ScenarioInput): World {
    return new World(scenarioFrom(input));
  }

  /** A world from scenario YAML; throws with file:line:col messages when it is invalid. */
  static fromYaml(text: string, file = "scenario.yaml"): World {
    return new World(World.scenarioOf(text, file));
  }

  /**
   * The scenario of YAML (or its JSON form; `json`, its value, where the caller has read it);
   * throws with file:line:col messages when invalid.
   */
  static scenarioOf(text: string, file = "scenario.yaml", json?: unknown): Scenario {
    const r = parseScenario(text, file, json);
    if (!r.ok) throw new Error(r.errors.map(formatDiagnostic).join("\n"));
    return r.scenario;
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
}
