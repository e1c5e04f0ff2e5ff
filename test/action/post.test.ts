// The action's post step: a main step killed while it held the cluster lock leaves the Lease
// held; the post step releases it, so the next run need not wait out its duration — and it
// never releases a Lease that another run holds.
import { afterAll, describe, expect, it } from "vitest";
import { LEASE_NAMESPACE } from "../../src/roll/lease.js";
import {
  dispatchPayload,
  fastDemoPolicy,
  runAction,
  runPost,
  serve,
  workspace,
  type Served,
} from "./harness.js";

let served: Served | undefined;
afterAll(() => served?.close());

describe("the post step", () => {
  it("releases the lock a killed main step held, and leaves another run's lock alone", async () => {
    served = await serve();
    const s = served;
    const options = {
      served: s,
      cwd: workspace({ "policies/demo.yaml": fastDemoPolicy() }),
      event: "workflow_dispatch",
      payload: dispatchPayload({}),
      sha: "7a".repeat(20),
      inputs: { policy: "policies/demo.yaml", groups: "workers" },
    };
    const lease = () => s.world.cluster.getLease(LEASE_NAMESPACE, "noderoll-demo");
    const killed = await runAction({
      ...options,
      killWhen: /workers: draining /,
      killSignal: "SIGKILL",
    });
    expect(killed.signal).toBe("SIGKILL");
    const [saved] = JSON.parse(killed.state["noderoll-lease"] ?? "[]") as { holder?: string }[];
    expect(saved!.holder).toMatch(/^noderoll-gha-4242-1\/[0-9a-f]{8}$/);
    expect((await lease()).spec.holderIdentity).toBe(saved!.holder);

    const post = await runPost(options, killed.state);
    expect(post.code).toBe(0);
    expect(post.stdout).toContain(`released the cluster lock kube-system/noderoll-demo`);
    expect((await lease()).spec.holderIdentity).toBeUndefined();

    // Another run holds it now: a post step with the old state leaves it alone.
    const now = await lease();
    await s.world.cluster.updateLease(LEASE_NAMESPACE, {
      ...now,
      spec: { ...now.spec, holderIdentity: "another-run/0123abcd", leaseDurationSeconds: 120 },
    });
    const again = await runPost(options, killed.state);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/is no longer this run's .*; left alone/);
    expect((await lease()).spec.holderIdentity).toBe("another-run/0123abcd");
  });

  it("trusts nothing in the saved state but what it wrote: a forged state is left alone", async () => {
    const r = await runPost(
      { cwd: workspace({}), event: "push", payload: {}, sha: "0".repeat(40), inputs: {} },
      {
        "noderoll-lease": JSON.stringify({
          cluster: "demo",
          region: "eu-west-1",
          name: "kube-system-anything",
          holder: "x/12345678",
          kubeconfig: "policies/evil-kubeconfig.yaml",
        }),
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /::warning::noderoll: the saved cluster lock state is not one this action wrote; left alone/,
    );
  });

  it("does nothing when the main step released the lock itself", async () => {
    const r = await runPost(
      { cwd: workspace({}), event: "push", payload: {}, sha: "0".repeat(40), inputs: {} },
      { "noderoll-lease": "" },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("no cluster lock left to release");
  });

  it("gives back every lock a job holds — one per policy it applies — when several were left", async () => {
    served ??= await serve();
    const s = served;
    const mine = (n: string) => `noderoll-gha-4242-1/0000000${n}`;
    // Two clusters' locks left by one job (the second policy's taken after the first's release
    // failed): the saved state names both, and the post step gives both back.
    for (const [name, holder] of [
      ["noderoll-demo", mine("1")],
      ["noderoll-other", mine("2")],
    ] as const)
      await s.world.cluster
        .createLease(LEASE_NAMESPACE, {
          metadata: { name, namespace: LEASE_NAMESPACE },
          spec: { holderIdentity: holder, leaseDurationSeconds: 120 },
        })
        .catch(async () => {
          const l = await s.world.cluster.getLease(LEASE_NAMESPACE, name);
          await s.world.cluster.updateLease(LEASE_NAMESPACE, {
            ...l,
            spec: { ...l.spec, holderIdentity: holder, leaseDurationSeconds: 120 },
          });
        });
    const r = await runPost(
      {
        served: s,
        cwd: workspace({}),
        event: "push",
        payload: {},
        sha: "0".repeat(40),
        inputs: {},
      },
      {
        "noderoll-lease": JSON.stringify([
          { cluster: "demo", region: "eu-west-1", name: "noderoll-demo", holder: mine("1") },
          { cluster: "other", region: "eu-west-1", name: "noderoll-other", holder: mine("2") },
        ]),
      },
    );
    expect(r.code).toBe(0);
    expect(
      (await s.world.cluster.getLease(LEASE_NAMESPACE, "noderoll-demo")).spec.holderIdentity,
    ).toBeUndefined();
    expect(r.stdout).toContain("noderoll-other of cluster other");
  });
});
