// kubectl, a client no one here wrote, against `sandbox serve` of the demo world: get, cordon,
// and drain — both a drain that succeeds and one a PodDisruptionBudget blocks until --timeout.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SCENARIO_YAML } from "../../src/sandbox/scenarios/demo.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { World } from "../../src/sandbox/world/world.js";
import { available, run } from "./clients.js";

const hasKubectl = await available("kubectl", ["version", "--client"]);
if (!hasKubectl) console.warn("kubectl is not on PATH: skipping the kubectl wire tests");

const dir = mkdtempSync(join(tmpdir(), "noderoll-kubectl-"));

async function serve(
  world: World,
  name: string,
): Promise<{ server: SandboxServer; kubectl: (...args: string[]) => ReturnType<typeof run> }> {
  const kubeconfig = join(dir, `${name}.kubeconfig`);
  const server = await serveSandbox(world, { kubeconfigPath: kubeconfig });
  const cache = join(dir, `${name}-cache`);
  return {
    server,
    kubectl: (...args) =>
      run("kubectl", ["--kubeconfig", kubeconfig, "--cache-dir", cache, ...args]),
  };
}

/** The node a workload's (single) pod runs on. */
function nodeOf(world: World, workload: string): string {
  const pod = [...world.workload(workload).pods][0]!;
  return pod.nodeName!;
}

describe.skipIf(!hasKubectl)("kubectl against sandbox serve", () => {
  let world: World;
  let s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    world = World.demo();
    s = await serve(world, "demo");
  });
  afterAll(() => s.server.close());

  it("gets nodes as a table, every demo node Ready", async () => {
    const r = await s.kubectl("get", "nodes");
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
    expect(lines).toHaveLength(1 + world.kube.nodes.size);
    for (const line of lines.slice(1))
      expect(line).toMatch(/^ip-\S+\s+Ready\s+<none>\s+\S+\s+v1\.32/);
  });

  it("gets the pods of one node in every namespace with a field selector", async () => {
    const node = nodeOf(world, "legacy");
    const r = await s.kubectl("get", "pods", "-A", "--field-selector", `spec.nodeName=${node}`);
    const rows = r.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    const names = rows
      .slice(1)
      .map((l) => l.split(/\s+/).slice(0, 2).join("/"))
      .sort();
    const expected = [...world.kube.nodes.get(node)!.pods]
      .map((p) => `${p.namespace}/${p.name}`)
      .sort();
    expect(names).toEqual(expected);
    expect(names.some((n) => n.startsWith("default/legacy-"))).toBe(true);
  });

  it("cordons a node", async () => {
    const node = nodeOf(world, "coredns");
    const r = await s.kubectl("cordon", node);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`node/${node} cordoned`);
    expect(world.kube.nodes.get(node)!.unschedulable).toBe(true);
    const shown = await s.kubectl("get", "node", node);
    expect(shown.stdout).toMatch(/Ready,SchedulingDisabled/);
  });

  it("drains a node: DaemonSet pods ignored, the others evicted and gone", async () => {
    const node = nodeOf(world, "legacy");
    const r = await s.kubectl(
      "drain",
      node,
      "--ignore-daemonsets",
      "--delete-emptydir-data",
      "--timeout=60s",
    );
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(
      /Warning: ignoring DaemonSet-managed Pods: monitoring\/node-exporter-/,
    );
    expect(r.stdout + r.stderr).toMatch(/evicting pod default\/legacy-/);
    expect(r.stdout).toMatch(/pod\/legacy-\S+ evicted/);
    expect(r.stdout.trim().split("\n").at(-1)).toBe(`node/${node} drained`);
    const left = [...world.kube.nodes.get(node)!.pods].map((p) => p.workload?.kind);
    expect(left.every((k) => k === "DaemonSet")).toBe(true);
    expect(world.kube.nodes.get(node)!.unschedulable).toBe(true);
  });
});

describe.skipIf(!hasKubectl)(
  "kubectl drain with a PodDisruptionBudget that never allows a disruption",
  () => {
    let world: World;
    let s: Awaited<ReturnType<typeof serve>>;
    beforeAll(async () => {
      // client-go waits out a 429's Retry-After inside each eviction call, up to ten times:
      // at the API server's 10 s that is 100 s of a 7 s --timeout; 1 s keeps the test short.
      const yaml = `${DEMO_SCENARIO_YAML}timings:\n  pdbRetryAfter: 1s\npdbs:\n  - { name: legacy-never, selector: { matchLabels: { app: legacy } }, minAvailable: 1 }\n`;
      world = World.fromYaml(yaml, "demo-blocking.yaml");
      s = await serve(world, "blocking");
    });
    afterAll(() => s.server.close());

    it("retries the eviction, then fails at --timeout and leaves the pod where it was", async () => {
      const node = nodeOf(world, "legacy");
      const pod = [...world.workload("legacy").pods][0]!;
      const r = await s.kubectl(
        "drain",
        node,
        "--ignore-daemonsets",
        "--delete-emptydir-data",
        "--timeout=7s",
      );
      expect(r.code).not.toBe(0);
      expect(r.stdout).toMatch(new RegExp(`node/${node.replace(/\./g, "\\.")} cordoned`));
      expect(r.stderr).toMatch(
        new RegExp(
          `error when evicting pods/"${pod.name}" -n "default" \\(will retry after 5s\\): Cannot evict pod as it would violate the pod's disruption budget\\.`,
        ),
      );
      expect(r.stderr).toMatch(/global timeout reached: 7s/);
      // kubectl names the node it could not drain (the wording differs between versions).
      expect(r.stderr).toContain(node);
      expect(world.pod(`default/${pod.name}`)?.deletionAt).toBeUndefined();
      const evictions = s.server.log.entries.filter((e) => e.resource === "pods/eviction");
      expect(evictions.length).toBeGreaterThanOrEqual(2);
      expect(evictions.every((e) => e.status === 429)).toBe(true);
    });
  },
);
