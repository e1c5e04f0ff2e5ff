// Kill at every event boundary, not at a few random moments: an uninterrupted roll is run once to
// count its events; then, for every k, a fresh world, a run killed right after its k-th event,
// and a fresh run that must finish the job. The invariants — capacity, PodDisruptionBudgets,
// order, and the in-flight bounds (never more than maxSurge + maxUnavailable nodes out of
// service, never more than maxSurge instances detached, by any run) — are checked after every
// event of both runs. The demo rolls both engines and surges; the generated cluster mixes kinds;
// the batched group dies while drained nodes wait for their termination batch; one has a person
// scale its group in by the node it drains first (issue 44, defect 9); the last renews a stale
// warm pool and gives its surge up when Auto Scaling refuses the detach (issue 46).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { planAndApply } from "../../src/app/apply.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { loadPolicy, type Policy } from "../../src/policy/index.js";
import { AwsApiError, EventLog } from "../../src/ports/index.js";
import { generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { World } from "../../src/sandbox/world/world.js";
import type { ScenarioInput } from "../../src/sandbox/scenarios/schema.js";
import { crashAtEvent, leftovers } from "./crash.js";
import { Invariants } from "./invariants.js";
import { policyFor, selfManagedWorld } from "./scenarios.js";

function load(text: string, file: string): Policy {
  const r = loadPolicy(text, file);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  return r.policy;
}

const demoPolicy = load(readFileSync("policies/demo.yaml", "utf8"), "policies/demo.yaml");

/** A generated cluster of both kinds, and a policy that surges the self-managed groups. */
const generated = () => generateScenario({ nodes: 18, groups: 3, podsPerNode: 3, seed: 7 });
const generatedPolicy = load(
  `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: generated }
cluster: { name: generated, region: eu-west-1 }
defaults: { maxSurge: "50%", maxUnavailable: 1, postDrainDelay: 0s, interval: 5s }
groups:
${generated()
  .nodeGroups.map((g) =>
    g.type === "managed"
      ? `  - { name: ${g.name}, target: { kubernetesVersion: "1.33" }, rollingUpdate: { maxUnavailable: 2 } }`
      : `  - { name: ${g.name}, target: { launchTemplateVersion: $Latest } }`,
  )
  .join("\n")}
`,
  "generated.yaml",
);

/** One self-managed group of 12 whose drains end at scattered times: drained nodes wait for
 * their termination batch (src/kinds/self-managed/terminations.ts), so runs die while holding. */
const batched = () =>
  generateScenario({ nodes: 12, groups: 1, podsPerNode: 8, seed: 7, kind: "self-managed" });
const batchedPolicy = load(
  `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: batched }
cluster: { name: ${batched().cluster.name}, region: eu-west-1 }
defaults: { maxSurge: 4, maxUnavailable: 0, postDrainDelay: 0s, interval: 5s, validation: { count: 1 } }
groups:
  - { name: ${batched().nodeGroups[0]!.name}, target: { launchTemplateVersion: $Latest } }
`,
  "batched.yaml",
);

/** Six nodes, one dark for twenty minutes (its kubelet gone, its pods Terminating for good),
 * another going dark as the roll runs: runs die while drains leave pods behind. */
async function dark(): Promise<World> {
  const world = selfManagedWorld([{ name: "w", nodes: 6 }], {
    workloads: [
      { kind: "Deployment", name: "web", replicas: 6, pdb: { minAvailable: 4 } },
      { kind: "DaemonSet", name: "agent" },
    ],
    faults: {
      nodesUnreachable: [
        { group: "w", at: 0 },
        { group: "w", at: 1260 },
      ],
    },
  } as Partial<ScenarioInput>);
  await world.advance(20 * 60_000);
  return world;
}
const darkPolicy = policyFor(
  "groups: [{ name: w, rollingUpdate: { maxSurge: 1, maxUnavailable: 1, postDrainDelay: 0s, interval: 5s } }]\n",
);

interface Case {
  name: string;
  world: () => World | Promise<World>;
  policy: Policy;
}

const CASES: Case[] = [
  { name: "the demo", world: () => World.demo(), policy: demoPolicy },
  {
    name: "a generated mixed cluster",
    world: () => new World(generated()),
    policy: generatedPolicy,
  },
  {
    name: "a self-managed group whose drained nodes wait to terminate in batches",
    world: () => new World(batched()),
    policy: batchedPolicy,
  },
  { name: "a self-managed group with nodes gone dark", world: dark, policy: darkPolicy },
  {
    name: "a self-managed group scaled in mid-roll by the node it drains first",
    world: () =>
      selfManagedWorld([{ name: "w", nodes: 6 }], {
        workloads: [{ kind: "Deployment", name: "web", replicas: 4 }],
        scaleIns: [{ group: "w", after: "node.cordon", terminate: 1, pick: "draining" }],
      } as Partial<ScenarioInput>),
    policy: darkPolicy,
  },
  {
    name: "a self-managed group with a stale warm pool, whose detaches Auto Scaling refuses",
    world: () => {
      const w = selfManagedWorld([{ name: "w", nodes: 5, warmPool: { size: 2, version: 1 } }], {
        workloads: [{ kind: "Deployment", name: "web", replicas: 4, pdb: { minAvailable: 2 } }],
      } as Partial<ScenarioInput>);
      // The role may not detach: the surge is given up, the group replaced in place.
      w.cloud.autoScaling.detachInstances = () =>
        Promise.reject(
          new AwsApiError(
            "AccessDenied",
            "User: arn:aws:sts::111122223333:assumed-role/noderoll/ci is not authorized to perform: autoscaling:DetachInstances",
            403,
          ),
        );
      return w;
    },
    policy: darkPolicy,
  },
];

async function killedAt(c: Case, k: number): Promise<string[]> {
  const world = await c.world();
  const { plan } = await world.run(observeAndPlan(c.policy, "p.yaml", world));
  const order = plan.groups.map((g) => g.name);
  const first = new Invariants(world, plan, { order });
  const dying = crashAtEvent(world, k);
  const log = new EventLog(world.clock);
  log.on(first.check);
  log.on(dying.onEvent);
  await world.run(
    Promise.race([
      planAndApply(c.policy, "p.yaml", dying.ports, log, { runId: "dies" }),
      dying.died,
    ]),
  );
  // What the killed run announced stands for the state it leaves: a surge it gave up.
  const second = new Invariants(world, plan, { order, surgeGivenUp: first.surgesGivenUp() });
  const next = new EventLog(world.clock);
  next.on(second.check);
  const r = await world.run(
    planAndApply(c.policy, "p.yaml", world, next, { runId: "resumes" }),
    48 * 3600_000,
  );
  // Terminated instances' nodes go away a little after the roll ends.
  await world.advance(10 * 60_000);
  const again = await world.run(observeAndPlan(c.policy, "p.yaml", world));
  return [
    ...first.violations.map((v) => `killed run: ${v}`),
    ...second.violations.map((v) => `next run: ${v}`),
    ...(r.result === "success" ? [] : [`next run ${r.result}: ${r.message}`]),
    ...leftovers(world),
    ...(again.plan.summary.nodesToReplace > 0
      ? [`${again.plan.summary.nodesToReplace} nodes still to replace`]
      : []),
    ...again.plan.groups.flatMap((g) =>
      g.warmPool ? [`${g.name}: warm pool still stale (${g.warmPool.replace.join(", ")})`] : [],
    ),
  ];
}

async function eventsOfWholeRoll(c: Case): Promise<number> {
  const world = await c.world();
  const log = new EventLog(world.clock);
  const r = await world.run(planAndApply(c.policy, "p.yaml", world, log, { runId: "whole" }));
  expect(r.result).toBe("success");
  return log.events.length;
}

describe("killed at every event boundary, then resumed", () => {
  it.each(CASES)("$name converges from every boundary with every invariant held", async (c) => {
    const n = await eventsOfWholeRoll(c);
    expect(n).toBeGreaterThan(50);
    const failures: string[] = [];
    for (let k = 1; k <= n; k++) {
      const problems = await killedAt(c, k);
      if (problems.length > 0)
        failures.push(`killed after event ${k}: ${problems.slice(0, 3).join("; ")}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});

describe("the batched case holds drained nodes", () => {
  it("some node waits drained for its batch (so the kills above land while nodes are held)", async () => {
    const world = new World(batched());
    const log = new EventLog(world.clock);
    const r = await world.run(
      planAndApply(batchedPolicy, "p.yaml", world, log, { runId: "whole" }),
    );
    expect(r.result).toBe("success");
    const waits: number[] = [];
    // A termination long after every drain ended before it: postDrainDelay is 0, so only a
    // batch holds a node that long.
    let lastDrain = 0;
    for (const e of log.events) {
      if (e.type === "node.drain.end") lastDrain = Date.parse(e.t);
      if (e.type === "instance.terminate") waits.push(Date.parse(e.t) - lastDrain);
    }
    expect(Math.max(...waits)).toBeGreaterThan(30_000);
  });
});

describe("a run killed while the demo's workers surge", () => {
  it("leaves budgets that come from the group's members: the next run detaches nothing more", async () => {
    const world = World.demo();
    const log = new EventLog(world.clock);
    let detached = 0;
    const kill = crashAtEvent(world, 1);
    log.on((e) => {
      if (e.type === "instance.detach" && e.group === "workers" && ++detached === 4)
        kill.onEvent(e);
    });
    await world.run(
      Promise.race([
        planAndApply(demoPolicy, "p.yaml", kill.ports, log, { runId: "dies" }),
        kill.died,
      ]),
    );
    expect(detached).toBe(4);
    const { plan } = await world.run(observeAndPlan(demoPolicy, "p.yaml", world));
    const workers = plan.groups.find((g) => g.name === "workers")!;
    // 50% of the group's 8 (its desired capacity), not of 8 + the 4 detached.
    expect(workers.budgets.maxSurge).toBe(4);
    expect(
      workers.replacements.filter((r) => r.reasons.some((x) => x.kind === "detached-for-surge")),
    ).toHaveLength(4);
    const next = new EventLog(world.clock);
    const r = await world.run(
      planAndApply(demoPolicy, "p.yaml", world, next, { runId: "resumes" }),
    );
    expect(r.result).toBe("success");
    expect(next.events.filter((e) => e.type === "instance.detach")).toEqual([]);
  });
});
