// Issue 44, defect 4: the action's cancel path as GitHub runs it — SIGINT, SIGTERM 7.5 s later,
// the process tree killed 2.5 s after that. A cancelled main step once printed "lock released"
// while the Lease still named it (its adapters were closed by the cancellation before the release
// could go out), and cleared the post step's state with it; the next run waited ~2 minutes with a
// heartbeat that did not say it was waiting for a lock. Now: the lock is given back (and said so)
// or truthfully left to the post step, which gives it back; no check run stays in progress; and a
// run waiting for the lock names its holder.
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

const servers: Served[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function fresh(): Promise<Served> {
  const s = await serve();
  servers.push(s);
  return s;
}

function options(s: Served) {
  return {
    served: s,
    cwd: workspace({ "policies/demo.yaml": fastDemoPolicy() }),
    event: "workflow_dispatch",
    payload: dispatchPayload({}),
    sha: "5c".repeat(20),
    inputs: { policy: "policies/demo.yaml", groups: "workers" },
  };
}

const holderOf = async (s: Served) =>
  (await s.world.cluster.getLease(LEASE_NAMESPACE, "noderoll-demo")).spec.holderIdentity;

const applyChecks = (s: Served) =>
  s.server.faces.github.checkRuns.filter((c) => c.name === "noderoll apply / demo");

describe("a workflow cancelled as GitHub cancels it", () => {
  it("mid-drain: the lock is given back and said so truthfully, the check run completed as cancelled", async () => {
    const s = await fresh();
    const o = options(s);
    const r = await runAction({ ...o, killWhen: /workers: draining /, cancelLikeGitHub: true });
    expect(r.stdout).toMatch(/SIGINT: the workflow was cancelled/);
    expect(r.outputs.result).toBe("cancelled");
    const held = await holderOf(s);
    const released = /lock released/.test(r.stdout);
    // The log says "lock released" exactly when the Lease no longer names the run.
    expect(released).toBe(held === undefined);
    if (!released) {
      expect(r.stdout).toMatch(/lock NOT released \(.*the action's post step gives it back/);
      expect(JSON.parse(r.state["noderoll-lease"] ?? "[]")).toContainEqual(
        expect.objectContaining({ holder: held }),
      );
    }
    // The post step, which the runner starts whatever happened, leaves no Lease and no check
    // run in progress.
    const post = await runPost(o, r.state);
    expect(post.code).toBe(0);
    expect(await holderOf(s)).toBeUndefined();
    expect(applyChecks(s).at(-1)).toMatchObject({ status: "completed", conclusion: "cancelled" });
  });

  it("killed outright mid-drain: the post step gives the lock back and completes the check run", async () => {
    const s = await fresh();
    const o = options(s);
    const killed = await runAction({ ...o, killWhen: /workers: draining /, killSignal: "SIGKILL" });
    expect(killed.signal).toBe("SIGKILL");
    expect(await holderOf(s)).toMatch(/^noderoll-gha-4242-1\/[0-9a-f]{8}$/);
    const check = applyChecks(s).at(-1)!;
    expect(check).toMatchObject({ status: "in_progress" });
    expect(JSON.parse(killed.state["noderoll-check-runs"] ?? "[]")).toEqual([
      { id: check.id, name: "noderoll apply / demo" },
    ]);
    const post = await runPost(o, killed.state);
    expect(post.code).toBe(0);
    expect(post.stdout).toMatch(/check run "noderoll apply \/ demo" \(\d+\): cancelled/);
    expect(await holderOf(s)).toBeUndefined();
    expect(applyChecks(s).every((c) => c.status === "completed")).toBe(true);
    expect(applyChecks(s).at(-1)).toMatchObject({ conclusion: "cancelled" });
  });

  it("a run that finds a dead holder's Lease says it waits, and for whom", async () => {
    const s = await fresh();
    // A holder that stopped renewing, with a Lease short enough to wait out here.
    await s.world.cluster.createLease(LEASE_NAMESPACE, {
      metadata: {
        name: "noderoll-demo",
        namespace: LEASE_NAMESPACE,
        annotations: { "noderoll.io/run-url": "https://github.com/o/r/actions/runs/1" },
      },
      spec: { holderIdentity: "noderoll-gha-1-1/0badc0de", leaseDurationSeconds: 3 },
    });
    const r = await runAction(options(s));
    expect(r.stdout).toMatch(
      /waiting for the cluster lock, held by noderoll-gha-1-1\/0badc0de \(https:\/\/github\.com\/o\/r\/actions\/runs\/1\): it stopped renewing it; free by \d\d:\d\d:\d\d if it stays unchanged/,
    );
    expect(r.stdout).toMatch(
      /lock taken by noderoll-gha-4242-1\/[0-9a-f]{8} \(taken over from noderoll-gha-1-1\/0badc0de\)/,
    );
    expect(r.outputs.result).toBe("success");
  });
});
