// One strategy per kind of node group. Karpenter's disruption controller is the model: each
// method is a type of its own, and the controller picks the method once. Here the core asks the
// registry (registry.ts) for a group's kind once and from then on talks only to the kind: how
// its groups are read, what its settings resolve to, what it cannot honour, which nodes it
// replaces and in what order, what a reviewer should know, and how it is rolled.
import type {
  Group,
  Policy,
  Role,
  RollingUpdate,
  RollSettings,
  WrittenSettings,
} from "../policy/index.js";
import type { Cloud, Ec2Tag, Node, UpdateConfig } from "../ports/index.js";
import type {
  ConfigChange,
  Finding,
  GroupPlan,
  LiveGroup,
  Replacement,
  Schedule,
  ScheduleInput,
  SelectInput,
  Snapshot,
  Target,
} from "../plan/index.js";
import type { RollContext, StopReason } from "../roll/context.js";
import type { Versions } from "../roll/before.js";
import type { InFlight } from "../roll/in-flight.js";
import type { NodeCache } from "../roll/nodes.js";
import type { MovedPod } from "../roll/rescheduled.js";
import type { NodeOwner } from "../roll/validate.js";

/** A group's settings for its kind, resolved once per run from the policy. */
export interface GroupSettings {
  role: Role;
  written: WrittenSettings;
  roll: RollSettings;
  /** Managed groups: the EKS updateConfig the policy asks for. */
  updateConfig?: UpdateConfig;
  notes: string[];
}

/** The budgets as node counts for a group of `size` nodes of which `needUpdate` are replaced. */
export interface BudgetFacts {
  size: number;
  needUpdate: number;
}

export interface ResolvedBudgets {
  maxUnavailable: number;
  /** What noderoll itself surges (a managed group: nothing, EKS scales up on its own). */
  maxSurge: number;
  derivation: { maxUnavailable: string; maxSurge: string };
  /** The budgets as they are asked for (the policy's, a default, a live setting kept). */
  spec: { maxUnavailable: string; maxSurge: string };
}

/** A setting written on the group's own entry that this kind cannot honour, and why. */
export interface Conflict {
  key: keyof RollingUpdate;
  message: string;
}

export interface ObserveInput {
  clusterName: string;
  /** The policy's group names that no kind has claimed yet. */
  names: string[];
  cloud: Cloud;
  /** Every node of the cluster, for marks noderoll left on them. */
  nodes: Node[];
  now: Date;
}

/** What the plan says of one group, once it is complete (the group exists). */
export type ReadyPlan = GroupPlan & { settings: RollSettings; target: Target };

/** Everything a kind's roll needs: the group's plan (the contract) and the run around it. */
export interface GroupJob<L extends LiveGroup = LiveGroup> {
  plan: ReadyPlan;
  /** The group as observed for this plan. */
  live: L;
  cluster: string;
  runId: string;
  nodes: NodeCache;
  ownerOf: (n: Node) => NodeOwner;
  /** Find out the groups of nodes `ownerOf` cannot place yet, from their instances' tags. */
  learnOwners: (nodes: Iterable<Node>) => Promise<void>;
  /** Why no new node may start now (window closed, deadline, cancelled), or undefined. */
  stopReason: () => StopReason | undefined;
  /**
   * Record work the roll starts that goes on without it (an EKS update) on the cluster's Lease,
   * and take it off once over: a run that stops hands it to the next (roll/lease.ts).
   */
  track: (work: InFlight) => Promise<void>;
  untrack: (work: InFlight) => Promise<void>;
  /**
   * The pods with a controller on the nodes to replace, as the plan read them, to be moved: what
   * must find a node again once the group is done, where the drains are not the roll's own
   * (EKS's); the roll's own drains say what they moved.
   */
  toMove: () => MovedPod[];
}

/** Work of a kind that a run leaves going on the cluster (roll/lease.ts InFlight). */
export interface InFlightWork {
  /** Wait until it is over; `stopReason` ends the wait (cancelled, deadline, window). */
  awaitEnd(
    ctx: RollContext,
    cluster: string,
    work: InFlight,
    stopReason: () => StopReason | undefined,
  ): Promise<void>;
  /** What it is, and how a person follows it, for a run's last words. */
  describe(cluster: { name: string; region: string }, work: InFlight): string;
  /** What work asked for and not answered (id PENDING) became: the work, or none going on. */
  resolve(cloud: Cloud, cluster: string, work: InFlight): Promise<InFlight | undefined>;
  /** The work going on on a group as observed (an EKS update in progress, whoever started it). */
  ongoing(live: LiveGroup): InFlight | undefined;
}

export interface GroupKind<L extends LiveGroup = LiveGroup> {
  readonly id: L["kind"];
  /**
   * The group a node names by a label the kind's own machinery puts on it, for a node whose
   * instance is in no group read (an instance detached for surge; one EKS is taking away):
   * the registry's `groupOfNode` asks it after the instance ids.
   */
  labelledGroup(n: Node): string | undefined;
  /**
   * The group an EC2 instance's own tags name (the tags its group's launches carry), for a node
   * of a group the policy does not name — so validation can tell another group's failure from
   * this roll's (registry.ts groupOfInstance).
   */
  taggedGroup(tags: readonly Ec2Tag[]): string | undefined;
  /** How to launch fewer nodes at once, for the surge-burst finding. */
  readonly surgeAdvice: string;
  /** How a drain may wait for pods slower to stop than its timeout ("LONGEST": the longest). */
  readonly drainTimeoutAdvice: string;
  /**
   * Whether the kind's drain leaves the pods of an unreachable node once their deletion is long
   * past due (leftOnUnreachable) instead of waiting for them until its timeout: the roll's own
   * drain does (src/roll/drain.ts); EKS's update drains as EKS does.
   */
  readonly leavesUnreachable: boolean;
  /**
   * Whether the roll paces instances with no node within maxUnavailable (noderoll's own roll:
   * src/plan/down-findings.ts `noNodeFindings`), or its update replaces them as it sees fit
   * (EKS's).
   */
  readonly pacesNoNode: boolean;
  /** The groups of this kind among `input.names`. */
  observe(input: ObserveInput): Promise<L[]>;
  resolve(policy: Policy, group: Group): GroupSettings;
  conflicts(written: WrittenSettings): Conflict[];
  /** `live` is the group as observed (absent when resolving without a cluster). */
  budgets(settings: GroupSettings, facts: BudgetFacts, live?: L): ResolvedBudgets;
  target(group: Group, live: L, snapshot: Snapshot): Target;
  select(live: L, target: Target, input: SelectInput): Replacement[];
  configChanges(group: Group, live: L, target: Target, settings: GroupSettings): ConfigChange[];
  /** The configuration apply sets on the group before it replaces nodes. */
  setup(
    group: Group,
    live: L,
    settings: GroupSettings,
  ): Pick<GroupPlan, "updateConfig" | "launchTemplate" | "warmPool">;
  schedule(live: L, input: ScheduleInput): Schedule;
  /** What the kind finds about the group itself (its state, its limits, what it cannot roll to). */
  findings(live: L, surge: number, target: Target, roll: RollSettings): Finding[];
  /**
   * Whether the change the plan set out to make is made already — the roll's own progress, or an
   * earlier run's — so that nothing is left to do on the group whatever else a fresh plan would
   * select (replace-all, maxNodeAge). Absent: a fresh plan's selection says what is left.
   */
  reachedTarget?(planned: GroupPlan, live: L): boolean;
  notes(plan: GroupPlan, group: Group, live: L, snapshot: Snapshot): string[];
  /**
   * What the group runs now, in a target's terms, to record before a roll (roll/before.ts):
   * `replaced` are the instances the roll replaces. Undefined: nothing to go back to.
   */
  versions(live: L, replaced: ReadonlySet<string>): Versions | undefined;
  /** Why taking the group back from `now` to `from` would be refused, if it would. */
  rollbackRefusal(from: Versions, now: Versions): string | undefined;
  roll(ctx: RollContext, job: GroupJob<L>): Promise<void>;
  /** The work this kind's roll leaves going when the run stops, if it can leave any. */
  readonly inFlight?: InFlightWork;
  /**
   * The group does not roll in this run (its plan is blocked or in error): give back what an
   * earlier run left on the group itself for its roll alone (self-managed: a scaling process
   * it suspended), as `roll` does when it ends.
   */
  release?(ctx: RollContext, live: L): Promise<void>;
}
