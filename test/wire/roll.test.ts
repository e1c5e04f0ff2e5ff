// The whole product path over the wire: plan and apply of policies/demo.yaml with the real
// adapters (AWS SDK v3, the Kubernetes JSON client with the served kubeconfig) against
// `sandbox serve`. The engine's clock is the world's virtual clock, and the server jumps
// virtual time whenever the engine is only waiting (sleeping or watching), so the roll takes
// seconds. Invariants are checked on the world after every event.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as realSleep } from "node:timers/promises";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { awsCloud } from "../../src/adapters/aws/cloud.js";
import { kubernetesCluster } from "../../src/adapters/kubernetes/cluster.js";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";
import { observeAndPlan } from "../../src/engine/index.js";
import { loadPolicy } from "../../src/policy/index.js";
import { planAndApply } from "../../src/app/apply.js";
import { EventLog } from "../../src/ports/index.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";
import { World } from "../../src/sandbox/world/world.js";
import { Invariants } from "../roll/invariants.js";
import { heldPorts } from "./held-ports.js";

let world: World;
let server: SandboxServer;
const dir = mkdtempSync(join(tmpdir(), "noderoll-roll-"));

beforeAll(async () => {
  world = World.demo();
  server = await serveSandbox(world, { speed: 0, kubeconfigPath: join(dir, "kubeconfig") });
  for (const [k, v] of Object.entries(server.env))
    if (k.startsWith("AWS_ENDPOINT_URL_")) process.env[k] = v;
});
afterAll(() => server?.close());

describe("a roll over the wire", () => {
  it("plans with reads only, then rolls the demo cluster through the adapters", async () => {
    // The AWS adapter has no SSM lookup for "latest" (the port's optional
    // latestReleaseVersions), so the policy names the release the sandbox knows as latest.
    const text = readFileSync("policies/demo.yaml", "utf8").replace(
      "releaseVersion: latest",
      "releaseVersion: 1.33.4-20250904",
    );
    const r = loadPolicy(text, "policies/demo.yaml");
    if (!r.ok) throw new Error("demo policy invalid");
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(join(dir, "kubeconfig"));
    // Held: the engine's clock is the world's, so a jump while a call is on its way to the
    // server would fire the engine's own timers early (its lock's renew deadline, on a busy
    // machine: the run then stops, rightly, as if the renewal had taken that long).
    const ports = {
      cloud: heldPorts(
        server,
        awsCloud({ region: "eu-west-1", credentials: async () => DEFAULT_CREDENTIALS }),
      ),
      cluster: heldPorts(
        server,
        kubernetesCluster(
          // A real backoff, and a short one: a retry inside a held call cannot wait on
          // the world's clock, which stands still while the call is held.
          new KubeHttp({ kubeConfig, retry: { sleep: (ms) => realSleep(Math.min(ms, 50)) } }),
        ),
      ),
      clock: world.clock,
    };
    const { plan } = await observeAndPlan(r.policy, "policies/demo.yaml", ports, {});
    expect(plan.summary.nodesToReplace).toBe(17);
    expect(server.log.mutating()).toEqual([]);
    const planned = server.log.entries.length;

    const log = new EventLog(world.clock);
    const invariants = new Invariants(world, plan, {
      deleteAfterDrainTimeout: false,
      order: plan.groups.map((g) => g.name),
    });
    log.on(invariants.check);

    const result = await planAndApply(r.policy, "policies/demo.yaml", ports, log, {
      runId: "wire-run",
    });
    expect(result).toMatchObject({ result: "success" });
    expect(invariants.violations).toEqual([]);
    expect(world.eks.nodegroups.get("system")?.version).toBe("1.33");
    expect(world.instances("workers").every((i) => i.ltVersion === 7)).toBe(true);
    const counts = server.log.counts();
    expect(counts["POST pods/eviction"]).toBeGreaterThan(0);
    expect(counts["PATCH nodes"]).toBeGreaterThan(0);
    expect(server.log.entries.length).toBeGreaterThan(planned);
  });
});
