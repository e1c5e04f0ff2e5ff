// Launch times: a plan asks EC2 (DescribeInstances) only about instances no node has registered
// for — an instance with a node is as old as its node — and a rehearsal, which times a recent
// node's launch to registration, asks about those nodes' instances itself.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Planner } from "../../src/engine/index.js";
import { loadPolicy } from "../../src/policy/index.js";
import { readLiveCluster } from "../../src/rehearsal/live.js";
import { REHEARSAL_TIMINGS, twinTimings } from "../../src/rehearsal/timings.js";
import { AwsApiError } from "../../src/ports/index.js";
import { World } from "../../src/sandbox/world/world.js";

const loaded = loadPolicy(readFileSync("policies/demo.yaml", "utf8"), "demo.yaml");
if (!loaded.ok) throw new Error("policies/demo.yaml does not load");
const policy = loaded.policy;

/**
 * The plan's snapshot, and how many DescribeInstances calls it made for instances by id: the
 * launch times (the one by filter looks for instances noderoll marked for surge).
 */
async function observed(world: World) {
  const ec2 = world.cloud.ec2;
  const describe = ec2.describeInstances.bind(ec2);
  let calls = 0;
  ec2.describeInstances = (input) => {
    if ("InstanceIds" in input) calls++;
    return describe(input);
  };
  try {
    const { snapshot } = await world.run(new Planner(policy, "demo.yaml").observe(world));
    return { snapshot, calls };
  } finally {
    ec2.describeInstances = describe;
  }
}

/** The workers group one instance larger, and the new instance once EC2 has launched it. */
async function scaleUpWorkers(world: World) {
  const before = new Set(world.instances("workers").map((i) => i.id));
  const { desired } = world.sizes("workers");
  await world.run(
    world.cloud.autoScaling.updateAutoScalingGroup({
      AutoScalingGroupName: "workers",
      DesiredCapacity: desired + 1,
    }),
  );
  await world.until(() => world.instances("workers").some((i) => !before.has(i.id)));
  return world.instances("workers").find((i) => !before.has(i.id))!;
}

const registered = (world: World, id: string) =>
  world.nodes("workers").some((n) => n.instanceId === id && !n.deleted);

describe("launch times", () => {
  it("are not read for instances that have a node: their node's age is theirs", async () => {
    const world = World.demo();
    const { snapshot, calls } = await observed(world);
    const instances = snapshot.groups.flatMap((g) => g.instances);
    expect(instances.length).toBeGreaterThan(10);
    expect(calls).toBe(0);
    expect(instances.filter((i) => i.launchTime)).toEqual([]);
  });

  it("are read, in one call, for an instance launched whose node has not registered", async () => {
    const world = World.demo();
    const fresh = await scaleUpWorkers(world);
    expect(registered(world, fresh.id)).toBe(false);
    const { snapshot, calls } = await observed(world);
    expect(calls).toBe(1);
    const withTime = snapshot.groups.flatMap((g) => g.instances).filter((i) => i.launchTime);
    expect(withTime.map((i) => [i.id, i.launchTime?.getTime()])).toEqual([
      [fresh.id, fresh.launchTime],
    ]);
  });

  it("of recent nodes are read by a rehearsal, which times their boots from them", async () => {
    const world = World.demo();
    const fresh = await scaleUpWorkers(world);
    expect(await world.until(() => registered(world, fresh.id))).toBe(true);
    const { snapshot } = await observed(world);
    const instances = new Set(snapshot.groups.flatMap((g) => g.instances.map((i) => i.id)));
    const live = await world.run(readLiveCluster(world, undefined, instances));
    const node = world.nodes("workers").find((n) => n.instanceId === fresh.id)!;
    expect(live.launched.get(fresh.id)?.getTime()).toBe(fresh.launchTime);
    // Every other node of the demo registered at its instance's launch (the scenario's start):
    // the new one is the only boot to time. No physics: timed as a real cluster's would be.
    const timings = twinTimings(snapshot, live);
    expect(timings.sources.boot).toBe(
      "observed (median of 1 recent nodes' launch to registration)",
    );
    // (Timestamps cross the API in milliseconds.)
    expect(timings.values.boot).toBeCloseTo(
      (node.createdAt - fresh.launchTime) / 1000 - REHEARSAL_TIMINGS.register,
      2,
    );
  });

  it("of a rehearsal: only of the planned groups' instances, and none when EC2 no longer knows one", async () => {
    const world = World.demo();
    const fresh = await scaleUpWorkers(world);
    await world.until(() => registered(world, fresh.id));
    const { snapshot } = await observed(world);
    // Not among the planned groups' instances: not asked about.
    const before = world.calls.get("ec2.describeInstances") ?? 0;
    const none = await world.run(readLiveCluster(world, undefined, new Set()));
    expect(world.calls.get("ec2.describeInstances") ?? 0).toBe(before);
    expect(none.launched.size).toBe(0);
    // EC2 refuses the call (an instance gone since the groups were read): boots are not timed,
    // and the rehearsal's read goes on.
    const gone = {
      ...world,
      cloud: {
        ...world.cloud,
        ec2: {
          ...world.cloud.ec2,
          describeInstances: () =>
            Promise.reject(
              new AwsApiError(
                "InvalidInstanceID.NotFound",
                `The instance ID '${fresh.id}' does not exist`,
              ),
            ),
        },
      },
      cluster: world.cluster,
      clock: world.clock,
    };
    const instances = new Set(snapshot.groups.flatMap((g) => g.instances.map((i) => i.id)));
    const live = await world.run(readLiveCluster(gone, undefined, instances));
    expect(live.launched.size).toBe(0);
    expect(live.nodes.length).toBeGreaterThan(0);
    expect(twinTimings(snapshot, live).sources.boot).toBe("default");
  });
});
