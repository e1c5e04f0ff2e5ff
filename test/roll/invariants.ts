// The invariants of docs/design.md, checked after every event of a roll in the sandbox: a test that
// breaks one fails with the event and the state that broke it.
import { DETACHED_LABEL, type Plan } from "../../src/plan/index.js";
import type { RollEvent } from "../../src/ports/index.js";
import { pdbStatus } from "../../src/sandbox/sim/kube/disruption.js";
import type { World } from "../../src/sandbox/world/world.js";

export interface InvariantOptions {
  /** PodDisruptionBudgets may be broken: what a drain leaves at its timeout is deleted. */
  deleteAfterDrainTimeout?: boolean;
  /** Groups rolled, in the order they must start. */
  order: string[];
  /**
   * A run that resumes a killed one: the surges that run gave up (its surge.given-up events),
   * whose nodes out of service it leaves behind (Invariants.surgesGivenUp of the killed run).
   */
  surgeGivenUp?: ReadonlyMap<string, number>;
}

export class Invariants {
  readonly violations: string[] = [];
  readonly started: string[] = [];
  private open?: string;
  private healthyAtStart = new Set<string>();
  private readonly deletesAtStart: number;
  /** Per group, the nodes lost to unreachable kubelets that checkCapacity forgives. */
  private readonly lost = new Map<string, number>();
  /** Nodes whose instances another actor terminated (a scale-in), and how far the timeline was read. */
  private readonly takenByOthers = new Set<string>();
  private timelineRead = 0;
  /**
   * Per group, maxUnavailable as the roll announced it after Auto Scaling refused a detach
   * (surge.given-up): the surge it could not make may be out of service instead, as in kOps.
   * Only ever raised by that event, never silently.
   */
  private readonly unavailable = new Map<string, number>();

  constructor(
    private readonly world: World,
    private readonly plan: Plan,
    private readonly options: InvariantOptions,
  ) {
    for (const list of world.kube.pdbs.values()) {
      for (const p of list) {
        const s = pdbStatus(p, world.clock.nowMs());
        if (s.currentHealthy >= s.desiredHealthy)
          this.healthyAtStart.add(`${p.namespace}/${p.name}`);
      }
    }
    this.deletesAtStart = world.calls.get("core.deletePod") ?? 0;
    for (const [group, n] of options.surgeGivenUp ?? []) this.unavailable.set(group, n);
  }

  private fail(e: RollEvent, what: string): void {
    if (this.violations.length < 20)
      this.violations.push(`${e.t} after ${e.type}${e.group ? ` (${e.group})` : ""}: ${what}`);
  }

  check = (e: RollEvent): void => {
    if (e.type === "surge.given-up") this.givenUp(e);
    this.checkOrder(e);
    this.checkCapacity(e);
    this.checkInFlight(e);
    if (!this.options.deleteAfterDrainTimeout) this.checkBudgets(e);
  };

  /** The maxUnavailable each group's surge.given-up announced in this run. */
  surgesGivenUp(): ReadonlyMap<string, number> {
    return this.unavailable;
  }

  private givenUp(e: Extract<RollEvent, { type: "surge.given-up" }>): void {
    const g = this.plan.groups.find((x) => x.name === e.group);
    if (!g) return this.fail(e, `surge given up for ${e.group}, a group not in the plan`);
    const { maxSurge, maxUnavailable } = g.budgets;
    // No more than the surge planned may turn into unavailability.
    if (e.maxUnavailable > maxUnavailable + maxSurge || e.nodes > maxSurge)
      this.fail(
        e,
        `${e.group}: maxUnavailable raised to ${e.maxUnavailable}, past ${maxUnavailable} + maxSurge ${maxSurge}`,
      );
    this.unavailable.set(e.group, e.maxUnavailable);
  }

  private checkOrder(e: RollEvent): void {
    if (e.type === "group.start") {
      if (this.open) this.fail(e, `group ${e.group} started while ${this.open} was still rolling`);
      this.open = e.group;
      this.started.push(e.group);
      const expected = this.options.order.slice(0, this.started.length);
      if (expected.join() !== this.started.join())
        this.fail(
          e,
          `groups started in order ${this.started.join(", ")}, policy order is ${this.options.order.join(", ")}`,
        );
    }
    if (e.type === "group.end") this.open = undefined;
  }

  /**
   * Ready, schedulable nodes of a group (and its instances planned with no node, still running)
   * never below desired − maxUnavailable, less the nodes the world took away: each node whose kubelet stopped reporting (faults.nodesUnreachable) is
   * forgiven while it is there, and once gone, until the group is back at its floor without it
   * (its replacement Ready) — one node forgiven per node lost, never more.
   */
  private checkCapacity(e: RollEvent): void {
    for (const g of this.plan.groups) {
      if (g.replacements.length === 0 || g.kind === "missing") continue;
      // A managed group updated with MINIMAL: EKS terminates before it launches, without
      // guardrails — no floor is promised, and the plan says so (finding minimal-strategy).
      if (g.findings.some((f) => f.code === "minimal-strategy")) continue;
      const original = g.nodes;
      const desired =
        g.kind === "managed" ? original : Math.min(original, this.world.sizes(g.name).desired);
      const nodes = this.world.nodes(g.name).filter((n) => !n.deleted);
      // An instance planned with no node counts as serving until it goes (it may be, where the
      // run cannot see): the roll must keep to the floor with it counted.
      const noNode = new Set(
        g.replacements.filter((r) => r.down === "no-node").map((r) => r.instance),
      );
      const unseen = this.world
        .instances(g.name)
        .filter(
          (i) => noNode.has(i.id) && i.state === "running" && i.lifecycle === "InService",
        ).length;
      const ready = nodes.filter((n) => n.ready && !n.unschedulable).length + unseen;
      const budget = this.unavailable.get(g.name) ?? g.budgets.maxUnavailable;
      const floor = desired - budget;
      const lost = nodes.filter((n) => n.unreachable).length;
      const forgiven = ready >= floor - lost ? lost : Math.max(lost, this.lost.get(g.name) ?? 0);
      this.lost.set(g.name, forgiven);
      if (ready < floor - forgiven)
        this.fail(
          e,
          `${g.name} has ${ready} ready schedulable nodes, below ${desired} − ${budget} = ${floor}${forgiven ? ` (less ${forgiven} lost)` : ""}`,
        );
    }
  }

  /**
   * What noderoll rolls itself (a self-managed group) never has more than maxSurge + maxUnavailable
   * of its nodes out of service (cordoned, not yet gone) and never more than maxSurge of its
   * instances detached for surge — whichever run detached them — with the budgets as the policy
   * sees the group (its members, not the instances detached from it). A node whose kubelet
   * stopped reporting, or whose instance another actor terminated (a scale-in: the sandbox's
   * instance.terminated names who, noderoll's calls being the "client"'s), is out of service by
   * the world's hand, not the roll's: not counted. A node is gone once its instance is
   * terminated (its object lingers until the node lifecycle controller deletes it, which kOps
   * does itself before terminating): without a scale-in a replacement's boot always outlasts
   * that, after one the roll need not wait for a replacement the group no longer wants.
   */
  private checkInFlight(e: RollEvent): void {
    const events = this.world.timeline.events;
    for (; this.timelineRead < events.length; this.timelineRead++) {
      const t = events[this.timelineRead]!;
      if (t.type === "instance.terminated" && t.by !== "client")
        this.takenByOthers.add(t.node as string);
    }
    for (const g of this.plan.groups) {
      if (g.kind !== "self-managed" || g.replacements.length === 0) continue;
      const { maxSurge, maxUnavailable } = g.budgets;
      const out = this.world
        .nodes(g.name)
        .filter(
          (n) =>
            !n.deleted &&
            n.unschedulable &&
            !n.unreachable &&
            !this.takenByOthers.has(n.name) &&
            this.world.ec2.instances.get(n.instanceId)?.state !== "terminated",
        ).length;
      if (out > Math.max(1, maxSurge + maxUnavailable))
        this.fail(
          e,
          `${g.name} has ${out} nodes out of service, more than maxSurge ${maxSurge} + maxUnavailable ${maxUnavailable}`,
        );
      const detached = [...this.world.ec2.instances.values()].filter(
        (i) =>
          !i.asg &&
          (i.state === "pending" || i.state === "running") &&
          this.world.kube.nodes.get(i.nodeName)?.labels[DETACHED_LABEL] === g.name,
      ).length;
      if (detached > maxSurge)
        this.fail(
          e,
          `${g.name} has ${detached} instances detached for surge, more than maxSurge ${maxSurge}`,
        );
    }
  }

  /** Without deleteAfterDrainTimeout, no PodDisruptionBudget that was met becomes violated, and no pod is deleted directly. */
  private checkBudgets(e: RollEvent): void {
    for (const list of this.world.kube.pdbs.values()) {
      for (const p of list) {
        const id = `${p.namespace}/${p.name}`;
        if (!this.healthyAtStart.has(id)) continue;
        const s = pdbStatus(p, this.world.clock.nowMs());
        if (s.currentHealthy < s.desiredHealthy)
          this.fail(
            e,
            `PodDisruptionBudget ${id} violated: ${s.currentHealthy} healthy < ${s.desiredHealthy} desired`,
          );
      }
    }
    const deletes = (this.world.calls.get("core.deletePod") ?? 0) - this.deletesAtStart;
    if (deletes > 0)
      this.fail(e, `${deletes} pods deleted directly without deleteAfterDrainTimeout`);
  }
}
