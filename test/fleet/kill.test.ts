// Killing a fleet's run at every event boundary of a cluster's roll loses nothing (issue 49):
// dev-a's roll dies right after its k-th event, for every k — its ports freeze as a killed
// process's would, holding the cluster's lock and the fleet's "rolling" record — and the next
// run, reading the clusters alone, resumes it: every dev cluster ends on the pinned release,
// nothing left behind, the invariants held through both runs.
import { describe, expect, it } from "vitest";
import { applyFleet, type FleetDeps } from "../../src/app/fleet.js";
import { leftovers, portsDyingAtEvent } from "../roll/crash.js";
import { fleetWorld, HOUR, recordOf } from "./helpers.js";

/** dev-a's events in a roll nobody kills: the boundaries to kill at. */
async function eventsOfDevA(): Promise<number> {
  const w = fleetWorld();
  await applyFleet(w.fleet, w.members, w.deps);
  return w.events.get("dev-a")!.length;
}

/** A run whose dev-a roll dies after its k-th event; the account's clock goes on past it. */
async function killedRun(k: number) {
  const w = fleetWorld();
  const { account } = w;
  const deps: FleetDeps = {
    ...w.deps,
    connect: async (m) => {
      const ports = account.ports(m.policy.cluster.name);
      if (m.policy.cluster.name !== "dev-a") return { ports, drive: (t) => account.run(t) };
      const dying = portsDyingAtEvent(ports, () => account.clock.notify(), k);
      w.hooks.set("dev-a", dying.onEvent);
      // What the dead run waits on never ends: it is given up after 3 virtual hours, as a
      // killed runner's job is, while the world goes on.
      return { ports: dying.ports, drive: (t) => account.run(t, 3 * HOUR) };
    },
  };
  await applyFleet(w.fleet, w.members, deps).catch(() => undefined);
  w.hooks.clear();
  return w;
}

describe("a fleet run killed at every event boundary of a cluster's roll", () => {
  it("is resumed by the next run from the clusters alone: nothing lost, nothing left", async () => {
    const n = await eventsOfDevA();
    expect(n).toBeGreaterThan(20);
    for (let k = 0; k <= n; k++) {
      const w = await killedRun(k);
      // The dead run left dev-a as a killed process does: "rolling" on the record (none at all
      // when it died before writing it), whatever its roll had reached.
      const left = await recordOf(w.account, "dev-a").catch(() => undefined);
      expect([k, left?.state]).toEqual([k, k === 0 ? undefined : "rolling"]);
      await w.account.advance(HOUR);
      // The next run: fresh ports, the records and the clusters as the dead run left them.
      for (let run = 0; run < 3; run++) {
        await applyFleet(w.fleet, w.members, w.deps);
        await w.account.advance(HOUR);
      }
      for (const c of ["dev-a", "dev-b"]) {
        const r = await recordOf(w.account, c);
        expect([k, c, r.state, r.release.releaseVersion]).toEqual([
          k,
          c,
          "succeeded",
          "1.33.4-20250904",
        ]);
        expect(w.account.world(c).eks.nodegroups.get(`${c}-system`)?.releaseVersion).toBe(
          "1.33.4-20250904",
        );
        expect([k, leftovers(w.account.world(c), "noderoll's")]).toEqual([k, []]);
      }
      for (const [name, inv] of w.invariants)
        expect([k, name, inv.violations]).toEqual([k, name, []]);
    }
  }, 600_000);
});
