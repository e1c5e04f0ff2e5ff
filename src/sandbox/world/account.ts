// An AWS account with several EKS clusters in one region: one World per cluster, each with its
// own Kubernetes, all on one virtual clock, and one AWS over them (`account.cloud`,
// ports/account-cloud.ts) that routes each call to the world holding what it names. This is the
// world issue 44 needs: a policy that names one cluster while its kubeconfig reaches another
// in the same account.
//
// What AWS makes unique in an account and region is unique here too, or the account is refused
// with what to change: cluster names (EKS CreateCluster: "must be unique within the AWS Region
// and AWS account", https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateCluster.html),
// Auto Scaling group names ("unique per Region per account",
// https://docs.aws.amazon.com/autoscaling/ec2/APIReference/API_CreateAutoScalingGroup.html),
// launch template names (EC2 refuses a second with InvalidLaunchTemplateName.AlreadyExistsException,
// https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html) and CloudWatch
// alarm names (PutMetricAlarm: "must be unique within the Region", one put again is replaced,
// https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricAlarm.html). The ids the worlds
// draw at random (instance ids, launch template ids, the names of managed groups' Auto Scaling
// groups and templates) are made unique as they are drawn (model/issued.ts), so that no pair of
// seeds, the same one included, can make two worlds share one. The region, the start and what
// the SSM parameters say (each version's latest EKS AMI release) are the account's: they must
// agree.
import type { Clock } from "../../ports/clock.js";
import type { SandboxClusterApi } from "../ports/api.js";
import { VirtualClock } from "../model/clock.js";
import { IssuedIds } from "../model/issued.js";
import { AccountCloud } from "../ports/account-cloud.js";
import type { Scenario, ScenarioInput } from "../scenarios/schema.js";
import { scenarioFrom } from "../scenarios/schema.js";
import { World } from "./world.js";

/** A scenario, and what to call it in a message (its file). */
export interface AccountScenario {
  scenario: Scenario;
  file?: string;
}

export interface AccountOptions {
  /**
   * How each world is built (`make` builds it): the command line builds a large one with room
   * for the heap to grow (src/cli/heap.ts).
   */
  build?: (scenario: Scenario, make: () => World) => World;
}

interface Entry {
  scenario: Scenario;
  /** "scenario b.yaml (cluster small)". */
  label: string;
}

/** The names a scenario's node groups give their own Auto Scaling groups and launch templates. */
function ownNames(s: Scenario): { groups: string[]; templates: string[] } {
  const groups: string[] = [];
  const templates: string[] = [];
  for (const g of s.nodeGroups) {
    if (g.type === "self-managed") groups.push(g.name);
    // A managed group without a template of its own gets one EKS names (eks-<uuid>).
    if (g.type === "self-managed" || g.launchTemplate)
      templates.push(g.launchTemplate?.name ?? g.name);
  }
  return { groups, templates };
}

/** Every way these scenarios could not be one account and region; empty when they can. */
function problems(entries: readonly Entry[]): string[] {
  const out: string[] = [];
  const [first] = entries as [Entry];
  const seen = {
    cluster: new Map<string, Entry>(),
    group: new Map<string, Entry>(),
    template: new Map<string, Entry>(),
    alarm: new Map<string, Entry>(),
    release: new Map<string, { release: string; by: Entry }>(),
  };
  const clash = (kind: keyof typeof seen, key: string, e: Entry, what: string, fix: string) => {
    const map = seen[kind] as Map<string, Entry>;
    const other = map.get(key);
    if (other && other !== e)
      out.push(`${e.label}: ${what} "${key}" is also ${other.label}'s; ${fix}`);
    else map.set(key, e);
  };
  for (const e of entries) {
    const s = e.scenario;
    const f = first.scenario;
    if (s.cluster.region !== f.cluster.region)
      out.push(
        `${e.label}: its cluster is in ${s.cluster.region}, ${first.label}'s in ${f.cluster.region}; an account here is one region: give cluster.region ${f.cluster.region}`,
      );
    if (Date.parse(s.start) !== Date.parse(f.start))
      out.push(
        `${e.label}: it starts at ${s.start}, ${first.label} at ${f.start}; the account has one clock: give both the same start`,
      );
    clash(
      "cluster",
      s.cluster.name,
      e,
      "EKS cluster",
      "cluster names are unique in an account and region: rename one (cluster.name)",
    );
    const own = ownNames(s);
    for (const g of new Set(own.groups))
      clash(
        "group",
        g,
        e,
        "Auto Scaling group",
        "Auto Scaling group names are unique in an account and region: rename the node group in one of them",
      );
    for (const t of new Set(own.templates))
      clash(
        "template",
        t,
        e,
        "launch template",
        "launch template names are unique in an account and region: give one of them another launchTemplate.name",
      );
    for (const a of s.alarms)
      clash(
        "alarm",
        a.name,
        e,
        "CloudWatch alarm",
        "alarm names are unique in an account and region: rename one (alarms[].name)",
      );
    for (const [minor, list] of Object.entries(s.releases)) {
      const latest = list.at(-1) as string;
      const other = seen.release.get(minor);
      if (!other) seen.release.set(minor, { release: latest, by: e });
      else if (other.release !== latest)
        out.push(
          `${e.label}: releases."${minor}" ends with ${latest}, ${other.by.label}'s with ${other.release}; the SSM parameters that say a version's latest EKS AMI release are the region's: end both lists with the same release`,
        );
    }
  }
  return out;
}

export class Account {
  /** The one clock every world of the account runs on. */
  readonly clock: VirtualClock;
  readonly region: string;
  /** One world per cluster, in the order given. */
  readonly worlds: readonly World[];
  /** AWS, as the account's: every world's EKS, Auto Scaling and EC2 behind one Cloud port. */
  readonly cloud: AccountCloud;
  /** Every AWS id the worlds have issued. */
  readonly issued = new IssuedIds();

  /** An account from validated scenarios; throws, saying what to change, where they clash. */
  constructor(scenarios: readonly (Scenario | AccountScenario)[], options: AccountOptions = {}) {
    if (scenarios.length === 0) throw new Error("an account needs at least one scenario");
    const entries = scenarios.map((x, i): Entry => {
      const { scenario, file } = "scenario" in x ? x : { scenario: x, file: undefined };
      return { scenario, label: `scenario ${file ?? i + 1} (cluster ${scenario.cluster.name})` };
    });
    const wrong = problems(entries);
    if (wrong.length > 0)
      throw new Error(
        `these scenarios cannot be one AWS account and region:\n${wrong.map((p) => `  ${p}`).join("\n")}`,
      );
    const first = entries[0]!.scenario;
    this.region = first.cluster.region;
    this.clock = new VirtualClock(Date.parse(first.start));
    // The names scenarios give themselves first, so that no name drawn at random takes one.
    for (const { scenario } of entries) {
      const own = ownNames(scenario);
      for (const n of [...own.groups, ...own.templates]) this.issued.claim(n);
    }
    const build = options.build ?? ((_s, make) => make());
    this.worlds = entries.map(({ scenario }) =>
      build(scenario, () => new World(scenario, { clock: this.clock, issued: this.issued })),
    );
    this.cloud = new AccountCloud(
      this.worlds.map((w) => ({
        clusterName: w.scenario.cluster.name,
        cloud: w.cloud,
        groups: w.autoScaling.groups,
        instances: w.ec2.instances,
        templates: w.ec2.templates,
        alarms: w.cloudWatch.alarms,
      })),
    );
  }

  /** An account from scenarios written as objects (validated here; throws on errors). */
  static from(inputs: readonly ScenarioInput[]): Account {
    return new Account(inputs.map((i) => scenarioFrom(i)));
  }

  /** An account from scenario files' YAML; throws with file:line:col messages when invalid. */
  static fromYaml(files: readonly { text: string; file: string }[]): Account {
    return new Account(
      files.map((f) => ({ scenario: World.scenarioOf(f.text, f.file), file: f.file })),
    );
  }

  /** The world of a cluster; throws when the account has none of that name. */
  world(clusterName: string): World {
    const w = this.worlds.find((x) => x.scenario.cluster.name === clusterName);
    if (!w)
      throw new Error(
        `no cluster "${clusterName}" in this account; it has ${this.worlds.map((x) => x.scenario.cluster.name).join(", ")}`,
      );
    return w;
  }

  /**
   * The ports a run sees whose kubeconfig reaches `clusterName`: the account's AWS (whatever
   * cluster its policy names), that cluster's Kubernetes, the account's clock.
   */
  ports(clusterName: string): { cloud: AccountCloud; cluster: SandboxClusterApi; clock: Clock } {
    return { cloud: this.cloud, cluster: this.world(clusterName).cluster, clock: this.clock };
  }

  // ---------------------------------------------------------------- driving time

  /** Run async code in virtual time until it settles (every world moves meanwhile). */
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
  /** Every world settled (World.settled). */
  settled(): boolean {
    return this.worlds.every((w) => w.settled());
  }
}
