// Crash and resume: a run killed at a random virtual moment, then a fresh run. Every seed must
// converge — every node on the target, nothing left detached, cordoned, tainted or protected —
// with the invariants held after every event of both runs.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../../src/policy/index.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { planAndApply } from "../../src/app/apply.js";
import { EventLog } from "../../src/ports/index.js";
import { Random } from "../../src/sandbox/model/random.js";
import { World } from "../../src/sandbox/world/world.js";
import { crashAfter, leftovers } from "./crash.js";
import { Invariants } from "./invariants.js";

const demo = loadPolicy(readFileSync("policies/demo.yaml", "utf8"), "policies/demo.yaml");
if (!demo.ok) throw new Error("demo policy invalid");
const policy = demo.policy;
/** The demo rolls in about 25 virtual minutes; crash anywhere in it. */
const ROLL_MS = 26 * 60_000;

async function crashThenResume(
  seed: number,
): Promise<{ violations: string[]; leftovers: string[]; result: string; stale: string[] }> {
  const world = World.demo();
  const crashAt = Math.floor(new Random(seed).next() * ROLL_MS);
  const { plan } = await world.run(observeAndPlan(policy, "demo.yaml", world));
  const invariants = new Invariants(world, plan, { order: ["system", "ingress", "workers"] });
  const first = new EventLog(world.clock);
  first.on(invariants.check);
  const dying = crashAfter(world, crashAt);
  await world.run(
    Promise.race([
      planAndApply(policy, "demo.yaml", dying.ports, first, { runId: `dies-${seed}` }),
      dying.died,
    ]),
  );
  // The second run plans afresh; order restarts from the first group.
  const again = new Invariants(world, plan, { order: ["system", "ingress", "workers"] });
  const second = new EventLog(world.clock);
  second.on(again.check);
  const r = await world.run(
    planAndApply(policy, "demo.yaml", world, second, {
      runId: `resumes-${seed}`,
      lockWaitMs: 15 * 60_000,
    }),
    48 * 3600_000,
  );
  const versions = [
    ...world
      .instances("workers")
      .map((i) => i.ltVersion !== 7 && `workers ${i.id} on ${i.ltVersion}`),
    ...world
      .instances("ingress")
      .map((i) => i.ltVersion !== 3 && `ingress ${i.id} on ${i.ltVersion}`),
  ].filter((x): x is string => Boolean(x));
  return {
    violations: [...invariants.violations, ...again.violations],
    leftovers: [
      ...leftovers(world),
      ...versions,
      ...(world.eks.nodegroups.get("system")?.version !== "1.33" ? ["system not on 1.33"] : []),
    ],
    result: r.result,
    stale: second.events.filter((e) => e.type === "lock.acquire" && e.takenOver).map((e) => e.type),
  };
}

describe("crash and resume", () => {
  it("converges from 200 runs killed at random virtual moments", async () => {
    const failures: string[] = [];
    let takeovers = 0;
    const seeds = Number(process.env.RESUME_SEEDS ?? 200);
    for (let seed = 1; seed <= seeds; seed++) {
      const r = await crashThenResume(seed);
      takeovers += r.stale.length;
      if (r.result !== "success" || r.violations.length > 0 || r.leftovers.length > 0)
        failures.push(
          `seed ${seed}: ${r.result}; ${[...r.violations, ...r.leftovers].slice(0, 3).join("; ")}`,
        );
    }
    expect(failures).toEqual([]);
    // Most crashes happen while the dead run holds the lease: the next run takes it over.
    expect(takeovers).toBeGreaterThan(seeds * 0.75);
  });
});
