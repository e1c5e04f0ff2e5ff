// Issue 44, defect 1, as the action meets it: a workflow whose kubeconfig input reaches another
// cluster than the policy names. The bundled action, over `sandbox serve` of two clusters in one
// account, refuses before any write, naming both clusters, and fails its check run saying so.
import { afterAll, describe, expect, it } from "vitest";
import { Account } from "../../src/sandbox/world/account.js";
import { dispatchPayload, runAction, serve, workspace, type Served } from "./harness.js";

function scenario(name: string, seed: number, nodes: number, workloads = ""): string {
  return `apiVersion: noderoll.io/v1
kind: SandboxScenario
metadata: { name: ${name} }
seed: ${seed}
cluster: { name: ${name}, version: "1.33" }
zones: [eu-west-1a, eu-west-1b, eu-west-1c]
nodeGroups:
  - name: ${name}-workers
    type: self-managed
    size: { min: 0, max: ${nodes * 2}, desired: ${nodes} }
    launchTemplate: { versions: 2, use: $Latest }
    instances: [{ version: 1, count: ${nodes} }]
${workloads}`;
}

const POLICY = `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata: { name: small }
cluster: { name: small, region: eu-west-1 }
groups:
  - { name: small-workers, rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } }
`;

let served: Served | undefined;
afterAll(() => served?.close());

describe("the action with another cluster's kubeconfig", () => {
  it("refuses before any write, naming both clusters; the check run says so", async () => {
    const account = Account.fromYaml([
      {
        text: scenario(
          "small",
          3,
          3,
          "workloads:\n  - { kind: Deployment, name: web, replicas: 3, pdb: { minAvailable: 2 } }\n",
        ),
        file: "small.yaml",
      },
      { text: scenario("big", 4, 5), file: "big.yaml" },
    ]);
    served = await serve(account);
    const big = served.server.clusters.find((c) => c.name === "big")!;
    const r = await runAction({
      served,
      cwd: workspace({ "policies/small.yaml": POLICY }),
      event: "workflow_dispatch",
      payload: dispatchPayload({}),
      sha: "1d".repeat(20),
      inputs: { policy: "policies/small.yaml", kubeconfig: big.kubeconfigPath! },
    });
    expect(r.code).toBe(1);
    expect(r.outputs.result).toBe("failure");
    expect(r.stdout).toMatch(
      /The Kubernetes API at https:\/\/127\.0\.0\.1:\d+ is not EKS cluster small's \(DescribeCluster small: endpoint https:\/\/127\.0\.0\.1:\d+\): it is EKS cluster big's; 0 of the 3 instances/,
    );
    const check = served.server.faces.github.checkRuns.find(
      (c) => c.name === "noderoll apply / small",
    );
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    const small = account.world("small");
    expect(small.instances("small-workers").every((i) => i.lifecycle === "InService")).toBe(true);
    expect(small.downtimeSeconds("web")).toBe(0);
    expect(account.worlds.flatMap((w) => [...w.kube.leases.keys()])).toEqual([]);
  });
});
