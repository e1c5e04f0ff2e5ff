// A run that dies: its ports freeze at a chosen virtual moment — every call, watch and sleep
// after it hangs forever, as if the process were killed — while the world goes on.
import type { Cloud, Cluster, Clock } from "../../src/ports/index.js";
import type { World } from "../../src/sandbox/world/world.js";

const never = <T>() => new Promise<T>(() => {});

function freezeIterable<T>(iterable: AsyncIterable<T>, dead: () => boolean): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const it = iterable[Symbol.asyncIterator]();
      return {
        next: () => (dead() ? never<IteratorResult<T>>() : it.next()),
        return: () => it.return?.() ?? Promise.resolve({ done: true, value: undefined }),
      };
    },
  };
}

function freeze<T extends object>(target: T, dead: () => boolean): T {
  return new Proxy(target, {
    get(t, key) {
      const value = Reflect.get(t, key, t) as unknown;
      if (typeof value === "function") {
        return (...args: unknown[]) => {
          if (dead()) return never();
          const r = (value as (...a: unknown[]) => unknown).apply(t, args);
          if (r && typeof r === "object" && Symbol.asyncIterator in r)
            return freezeIterable(r as AsyncIterable<unknown>, dead);
          return r instanceof Promise ? r.then((x) => (dead() ? never() : x)) : r;
        };
      }
      return value && typeof value === "object" ? freeze(value as object, dead) : value;
    },
  });
}

export interface Crashable {
  ports: { cloud: Cloud; cluster: Cluster; clock: Clock };
  /** Resolves when the run dies. */
  died: Promise<void>;
}

/** The world's ports, frozen once `isDead()`: calls and sleeps then never return. */
function deadPorts(world: World, isDead: () => boolean): Crashable["ports"] {
  const clock: Clock = {
    now: () => world.clock.now(),
    sleep: (ms, signal) =>
      isDead()
        ? never()
        : world.clock.sleep(ms, signal).then(() => (isDead() ? never<void>() : undefined)),
  };
  return { cloud: freeze(world.cloud, isDead), cluster: freeze(world.cluster, isDead), clock };
}

/**
 * Any ports (an account's cluster, say) that die right after the run's `k`-th event — k = 0:
 * before its first — as crashAtEvent's; `wake` tells the world's clock that they died.
 */
export function portsDyingAtEvent(
  ports: Crashable["ports"],
  wake: () => void,
  k: number,
): Crashable & { onEvent: (e: unknown) => void } {
  let dead = k === 0;
  let seen = 0;
  let resolve = () => {};
  const died = new Promise<void>((r) => (resolve = r));
  if (dead) resolve();
  const isDead = () => dead;
  const clock: Clock = {
    now: () => ports.clock.now(),
    sleep: (ms, signal) =>
      isDead()
        ? never()
        : ports.clock.sleep(ms, signal).then(() => (isDead() ? never<void>() : undefined)),
  };
  return {
    ports: { cloud: freeze(ports.cloud, isDead), cluster: freeze(ports.cluster, isDead), clock },
    died,
    onEvent: () => {
      if (dead || ++seen < k) return;
      dead = true;
      resolve();
      wake();
    },
  };
}

/** Ports of the world that die `afterMs` of virtual time from now. */
export function crashAfter(world: World, afterMs: number): Crashable {
  let dead = false;
  let resolve = () => {};
  const died = new Promise<void>((r) => (resolve = r));
  world.clock.after(afterMs, () => {
    dead = true;
    resolve();
    world.clock.notify();
  });
  const isDead = () => dead;
  return {
    ports: deadPorts(world, isDead),
    died,
  };
}

/**
 * Ports of the world that die right after the run's `k`-th event: feed `onEvent` to the run's
 * event log. Events the run emits later without touching the world change nothing in it.
 */
export function crashAtEvent(
  world: World,
  k: number,
): Crashable & { onEvent: (e: unknown) => void } {
  let dead = false;
  let seen = 0;
  let resolve = () => {};
  const died = new Promise<void>((r) => (resolve = r));
  const isDead = () => dead;
  return {
    ports: deadPorts(world, isDead),
    died,
    onEvent: () => {
      if (dead || ++seen < k) return;
      dead = true;
      resolve();
      world.clock.notify();
    },
  };
}

/**
 * What a finished roll must not leave behind: noderoll's marks on live nodes and on groups,
 * instances out of every group, processes suspended that the scenario did not suspend. `cordons`: every cordoned node counts ("any"), or only those noderoll cordoned
 * ("noderoll's") where the world itself cordons nodes too (EKS's own update, faults).
 */
export function leftovers(world: World, cordons: "any" | "noderoll's" = "any"): string[] {
  const out: string[] = [];
  for (const n of world.kube.nodes.values()) {
    if (n.deleted) continue;
    if (n.unschedulable && (cordons === "any" || n.annotations["noderoll.io/cordoned"]))
      out.push(`${n.name} cordoned`);
    if (n.taints.some((t) => t.key.startsWith("noderoll.io/"))) out.push(`${n.name} tainted`);
    if (n.labels["noderoll.io/detached-from"]) out.push(`${n.name} detached`);
    if (n.annotations["noderoll.io/scale-down-disabled"]) out.push(`${n.name} protected`);
  }
  for (const i of world.ec2.instances.values())
    if (i.state !== "terminated" && !i.asg) out.push(`instance ${i.id} orphaned`);
  // The group's own: noderoll's mark, and processes suspended that the scenario did not.
  for (const g of world.scenario.nodeGroups) {
    const asg = world.asg(g.name);
    if (asg.tags.some((t) => t.Key === "noderoll.io/suspended-processes"))
      out.push(`${g.name} marked noderoll.io/suspended-processes`);
    for (const p of asg.suspended)
      if (!g.suspendedProcesses.includes(p as never)) out.push(`${g.name} ${p} suspended`);
  }
  return out;
}
