// The request on the cluster's Lease (src/roll/lease-request.ts) against the lock that holds it:
// the holder sees a pause within one renewal period, keeps it through every renewal and its
// release; a request written while the holder renews, or while another run takes the Lease,
// clobbers neither (optimistic concurrency on resourceVersion), and neither clobbers it.
import { describe, expect, it } from "vitest";
import { rollContext } from "../../src/engine/context.js";
import { EventLog, type Cluster } from "../../src/ports/index.js";
import { ClusterLock, LEASE_NAMESPACE, leaseName, releaseLease } from "../../src/roll/lease.js";
import {
  REQUEST_ANNOTATION,
  requestOf,
  setRequest,
  type LeaseRequest,
} from "../../src/roll/lease-request.js";
import type { World } from "../../src/sandbox/world/world.js";
import { selfManagedWorld } from "./scenarios.js";

const NAME = leaseName("engine");
const PAUSE: LeaseRequest = {
  action: "pause",
  by: "ops@laptop",
  reason: "incident",
  at: "2026-01-05T09:00:10.000Z",
};
type LeaseApi = Pick<Cluster, "getLease" | "createLease" | "updateLease">;
const read = (world: World) => world.run(world.cluster.getLease(LEASE_NAMESPACE, NAME));

function holding(world: World, holder = "run-a/0001") {
  const log = new EventLog(world.clock);
  const ctx = rollContext(world, log, {}, new AbortController().signal);
  return { lock: new ClusterLock(ctx, "engine", holder, "https://ci/run/1"), log };
}

/** The world's Lease API, with `before` run ahead of the first updateLease it forwards. */
function racing(world: World, before: () => Promise<unknown>): LeaseApi {
  let raced = false;
  const c = world.cluster;
  return {
    getLease: (ns, name) => c.getLease(ns, name),
    createLease: (ns, lease) => c.createLease(ns, lease),
    updateLease: async (ns, lease) => {
      if (!raced) {
        raced = true;
        await before();
      }
      return c.updateLease(ns, lease);
    },
  };
}

describe("a request on the Lease of a run that holds it", () => {
  it("is seen within a renewal period, kept through renewals and the release", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 1 }]);
    const { lock, log } = holding(world);
    await world.run(lock.acquire(0));
    await world.run(world.clock.sleep(10_000));
    await world.run(setRequest(world.cluster, LEASE_NAMESPACE, NAME, PAUSE));
    expect(lock.request).toBeUndefined();
    // Renewals come every 30 s: the next one meets the changed record, reads it, and keeps it.
    await world.run(world.clock.sleep(30_000));
    expect(lock.request).toEqual(PAUSE);
    const renewed = (await read(world)).spec.renewTime;
    await world.run(world.clock.sleep(5 * 60_000));
    const later = await read(world);
    expect(later.spec.holderIdentity).toBe("run-a/0001");
    expect(later.spec.renewTime).not.toBe(renewed);
    expect(requestOf(later)).toEqual(PAUSE);
    expect(log.events.filter((e) => e.type === "note")).toHaveLength(1);

    expect(await world.run(lock.release())).toBe(true);
    const released = await read(world);
    expect(released.spec.holderIdentity).toBeUndefined();
    expect(requestOf(released)).toEqual(PAUSE);
  });

  it("cleared while the run holds the Lease: the run sees it go, and says so", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 1 }]);
    const { lock, log } = holding(world);
    await world.run(lock.acquire(0));
    await world.run(setRequest(world.cluster, LEASE_NAMESPACE, NAME, PAUSE));
    await world.run(world.clock.sleep(30_000));
    expect(lock.request).toEqual(PAUSE);
    await world.run(setRequest(world.cluster, LEASE_NAMESPACE, NAME, undefined));
    await world.run(world.clock.sleep(30_000));
    expect(lock.request).toBeUndefined();
    expect(log.events.map((e) => (e.type === "note" ? e.message : ""))).toContainEqual(
      expect.stringMatching(/was cleared \(resume\): the roll goes on$/),
    );
    await world.run(lock.release());
  });

  it("written as the holder renews: both land, neither erased", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 1 }]);
    const { lock } = holding(world);
    await world.run(lock.acquire(0));
    await world.run(world.clock.sleep(29_000));
    // The holder's renewal lands between the request's read and its write.
    const before = (await read(world)).spec.renewTime;
    const racer = racing(world, () => world.clock.sleep(2_000));
    await world.run(setRequest(racer, LEASE_NAMESPACE, NAME, PAUSE));
    const now = await read(world);
    expect(now.spec.renewTime).not.toBe(before);
    expect(now.spec.holderIdentity).toBe("run-a/0001");
    expect(requestOf(now)).toEqual(PAUSE);
    await world.run(lock.release());
  });

  it("written as another run takes the Lease over: the new holder stays, and is asked", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 1 }]);
    const { lock } = holding(world);
    await world.run(lock.acquire(0));
    await world.run(lock.release());
    const b = holding(world, "run-b/0002").lock;
    const racer = racing(world, () => b.acquire(0));
    await world.run(setRequest(racer, LEASE_NAMESPACE, NAME, PAUSE));
    const now = await read(world);
    expect(now.spec.holderIdentity).toBe("run-b/0002");
    expect(now.metadata.annotations?.["noderoll.io/run-url"]).toBe("https://ci/run/1");
    expect(requestOf(now)).toEqual(PAUSE);
    await world.run(world.clock.sleep(30_000));
    expect(b.request).toEqual(PAUSE);
    await world.run(b.release());
  });

  it("the post step's release keeps it too", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 1 }]);
    const { lock } = holding(world);
    await world.run(lock.acquire(0));
    await world.run(setRequest(world.cluster, LEASE_NAMESPACE, NAME, PAUSE));
    expect(await world.run(releaseLease(world.cluster, NAME, "run-a/0001"))).toBe(true);
    expect(requestOf(await read(world))).toEqual(PAUSE);
    await world.run(lock.release());
  });
});

describe("a request another run finds as it takes the Lease", () => {
  it("refuses, writing nothing; one written by hand, unreadable, still stands as a pause", async () => {
    const world = selfManagedWorld([{ name: "w", nodes: 1 }]);
    await world.run(
      world.cluster.createLease(LEASE_NAMESPACE, {
        metadata: {
          name: NAME,
          namespace: LEASE_NAMESPACE,
          annotations: { [REQUEST_ANNOTATION]: "stop!" },
        },
        spec: {},
      }),
    );
    const rv = (await read(world)).metadata.resourceVersion;
    const { lock } = holding(world);
    await expect(world.run(lock.acquire(60_000))).rejects.toMatchObject({
      code: "Paused",
      stop: { kind: "paused", by: "(unknown)" },
    });
    expect((await read(world)).metadata.resourceVersion).toBe(rv);
  });
});
