// Golden step logs, after Cluster API's rollout tests: one file per scenario (kind of group,
// size, maxSurge, maxUnavailable, …) holding the event log of a roll in the sandbox, in virtual
// time (the sandbox is deterministic for a seed), with the invariants checked after every
// event. A change in which node goes when, how many go at once, or how long a step waits shows
// up here as a line diff.
//
// One line per event: the time since the roll's start (+HH:MM:SS.mmm), the type, the group,
// then the event's fields as key=value. Normalised by test/golden/step-log.ts: node names and
// instance ids become aliases in order of first appearance — a machine is one number, its node
// `n3` and its instance `i3` — EKS update ids `u1`, `u2`, … and pods `default/web-p1`, …. So
// the goldens survive a change in how the sandbox makes ids, and still show which node goes when.
//
// After an intended change to the engine or the sandbox, regenerate and review the diff:
//
//   UPDATE_GOLDEN=1 npx vitest run test/golden
//   git diff test/golden/logs
//
// A scenario added below without a golden file fails until it is generated the same way.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Policy } from "../../src/policy/index.js";
import { World } from "../../src/sandbox/world/world.js";
import { ROOT } from "../helpers/cli.js";
import { policyFor, roll, selfManagedWorld } from "../roll/scenarios.js";
import { managedScenario } from "../sandbox/helpers.js";
import { stepLog, unifiedDiff } from "./step-log.js";

const DIR = join(ROOT, "test/golden/logs");
const UPDATE = Boolean(process.env.UPDATE_GOLDEN);

interface Scenario {
  /** The golden file's name, without .golden. */
  name: string;
  world: () => World;
  policy: Policy;
}

const selfManaged = (rollingUpdate: string) =>
  policyFor(`groups: [{ name: w, rollingUpdate: { ${rollingUpdate} } }]\n`);

const managed = (rollingUpdate = "") =>
  policyFor(
    `groups: [{ name: ng, target: { kubernetesVersion: "1.33" }${rollingUpdate ? `, rollingUpdate: { ${rollingUpdate} }` : ""} }]\n`,
    "test",
  );

/** Pods to drain, with a budget that allows one disruption at a time. */
const web = {
  workloads: [
    {
      kind: "Deployment",
      name: "web",
      replicas: 6,
      requests: { cpu: "500m", memory: "512Mi" },
      terminationGracePeriod: "20s",
      pdb: { maxUnavailable: 1 },
    },
  ],
} as never;

const SCENARIOS: Scenario[] = [
  {
    // A single node: surged, drained, terminated; no canary (nothing else to protect).
    name: "self-managed-1-surge1-unavail0",
    world: () => selfManagedWorld([{ name: "w", nodes: 1 }]),
    policy: selfManaged("maxSurge: 1, maxUnavailable: 0"),
  },
  {
    // In place, nothing up to date: the first node alone (canary), then one at a time.
    name: "self-managed-3-surge0-unavail1",
    world: () => selfManagedWorld([{ name: "w", nodes: 3 }]),
    policy: selfManaged("maxSurge: 0, maxUnavailable: 1"),
  },
  {
    // One surge node; nothing up to date, so that is the canary.
    name: "self-managed-6-surge1-unavail0",
    world: () => selfManagedWorld([{ name: "w", nodes: 6 }]),
    policy: selfManaged("maxSurge: 1, maxUnavailable: 0"),
  },
  {
    // Surge 3 with a canary first: one detached, validated, then the other two.
    name: "self-managed-6-surge3-unavail0",
    world: () => selfManagedWorld([{ name: "w", nodes: 6 }]),
    policy: selfManaged("maxSurge: 3, maxUnavailable: 0"),
  },
  {
    // More than one unavailable, no surge: a canary, then a window of three.
    name: "self-managed-6-surge0-unavail3",
    world: () => selfManagedWorld([{ name: "w", nodes: 6 }]),
    policy: selfManaged("maxSurge: 0, maxUnavailable: 3"),
  },
  {
    // A percentage (30% of 10 = 3 surge) plus 2 unavailable, with pods and a budget to drain.
    name: "self-managed-10-surge30pct-unavail2",
    world: () => selfManagedWorld([{ name: "w", nodes: 10 }], web),
    policy: selfManaged('maxSurge: "30%", maxUnavailable: 2'),
  },
  {
    // Three of eight already on the latest version: no canary, five replaced, surge 2.
    name: "self-managed-8-uptodate3-surge2-unavail1",
    world: () => selfManagedWorld([{ name: "w", nodes: 8, upToDate: 3 }]),
    policy: selfManaged("maxSurge: 2, maxUnavailable: 1"),
  },
  {
    // Instances listed zone by zone (a a a b b c c); replaced zone by zone in turn (the
    // default): a b c a b c a, two at a time after the canary.
    name: "self-managed-7-surge0-unavail2-spread",
    world: () => selfManagedWorld([{ name: "w", nodes: 7, zoneBlocks: true }]),
    policy: selfManaged("maxSurge: 0, maxUnavailable: 2, spreadAcrossZones: true"),
  },
  {
    // The same without spreading: the plan's order, a a a b b c c.
    name: "self-managed-7-surge0-unavail2-nospread",
    world: () => selfManagedWorld([{ name: "w", nodes: 7, zoneBlocks: true }]),
    policy: selfManaged("maxSurge: 0, maxUnavailable: 2, spreadAcrossZones: false"),
  },
  {
    // EKS's own update, followed: 2 zones, 4 nodes, maxUnavailable 1.
    name: "managed-4-unavail1",
    world: () => World.from(managedScenario({ zones: 2, nodes: 4, maxUnavailable: 1 })),
    policy: managed(),
  },
  {
    // 3 zones, 6 nodes; the policy asks maxUnavailable 2, so updateConfig is set first.
    name: "managed-6-unavail2",
    world: () => World.from(managedScenario({ zones: 3, nodes: 6, maxUnavailable: 1 })),
    policy: managed("maxUnavailable: 2"),
  },
];

describe("golden step logs", () => {
  it.each(SCENARIOS.map((s) => [s.name, s] as const))("%s", async (name, s) => {
    const world = s.world();
    const { result, events, invariants } = await roll(world, s.policy);
    // Soft: a change that also breaks an invariant still shows its diff against the golden.
    expect.soft(invariants.violations).toEqual([]);
    expect.soft(result, result.message).toMatchObject({ result: "success" });
    const lines = stepLog(events, world);
    const file = join(DIR, `${name}.golden`);
    if (UPDATE) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(file, `${lines.join("\n")}\n`);
    }
    if (!existsSync(file))
      expect.fail(`${file} is missing: run UPDATE_GOLDEN=1 npx vitest run test/golden`);
    const golden = readFileSync(file, "utf8").trimEnd().split("\n");
    const diff = unifiedDiff(golden, lines, {
      expected: `test/golden/logs/${name}.golden`,
      actual: "this run",
    });
    if (diff)
      expect.fail(
        `the step log differs from its golden file (if intended: UPDATE_GOLDEN=1 npx vitest run test/golden, then review git diff):\n${diff}`,
      );
  });

  it("does not depend on how ids are spelt: the same roll with every id renamed reads the same", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 4 }], web);
    const { events } = await roll(world, selfManaged("maxSurge: 1, maxUnavailable: 1"));
    // Machines get new ids and node names; pods new suffixes (evicted ones are only in events).
    const pods = new Set([
      ...events.flatMap((e) => ("pod" in e ? [e.pod] : [])),
      ...[...world.kube.pods.values()].map((p) => `${p.namespace}/${p.name}`),
    ]);
    const renamed = new Map([
      ...[...world.ec2.instances.values()].flatMap((i, k) => [
        [i.id, `vm-${k}`] as const,
        [i.nodeName, `host-${k}.example`] as const,
      ]),
      ...[...pods].map((p, k) => [p, `${p.replace(/-[^/]*$/, "")}-renamed${k}`] as const),
    ]);
    expect(pods.size).toBeGreaterThan(0);
    const rename = (x: string) => renamed.get(x) ?? x;
    const pattern = new RegExp(
      [...renamed.keys()].map((k) => k.replace(/[.]/g, "\\.")).join("|"),
      "g",
    );
    const otherEvents = JSON.parse(JSON.stringify(events).replace(pattern, rename));
    expect(JSON.stringify(otherEvents)).toMatch(/"node":"host-\d+\.example".*"instance":"vm-\d+"/);
    expect(JSON.stringify(otherEvents)).toMatch(/"pod":"default\/web-renamed\d+"/);
    const otherWorld = {
      ec2: {
        instances: new Map(
          [...world.ec2.instances.values()].map((i) => [
            rename(i.id),
            { ...i, id: rename(i.id), nodeName: rename(i.nodeName) },
          ]),
        ),
      },
      kube: {
        nodes: new Map(
          [...world.kube.nodes.values()].map((n) => [
            rename(n.name),
            { ...n, name: rename(n.name) },
          ]),
        ),
        workloads: world.kube.workloads,
        pods: new Map(),
      },
      eks: world.eks,
    } as unknown as World;
    const before = stepLog(events, world);
    expect(before.join("\n")).toMatch(/ node=n1 /);
    expect(before.join("\n")).toMatch(/ pod=default\/web-p1 /);
    expect(stepLog(otherEvents, otherWorld)).toEqual(before);
  });

  it("has a scenario for every golden file, and no two scenarios share one", () => {
    const names = SCENARIOS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    const files = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith(".golden")) : [];
    expect(files.map((f) => f.slice(0, -".golden".length)).sort()).toEqual([...names].sort());
  });
});
