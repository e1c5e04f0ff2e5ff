// The bundled action and a fleet (issue 49), against `sandbox serve` of the example fleet's five
// clusters (policies/fleet/eks.yaml, policies/sandbox/fleet/*.yaml) in one account: a scheduled
// `mode: fleet-plan` lists the clusters due now as the `fleet-due` output a workflow's matrix
// reads; a pull request that changes a policy of the fleet gets one sticky fleet comment with the
// stages as a gantt; a matrix job rolls its cluster when the fleet says it is due, and records it
// there; a job for a cluster that is not due (staging while dev soaks) ends skipped, saying why,
// and touches nothing.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { marked } from "marked";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fleetLeaseName } from "../../src/app/fleet-store.js";
import type { FleetRecord } from "../../src/fleet/record.js";
import { Account } from "../../src/sandbox/world/account.js";
import { ROOT } from "../helpers/cli.js";
import { pullRequestPayload, runAction, serve, workspace, type Served } from "./harness.js";

const FLEET = "policies/fleet/eks.yaml";
const PR_HEAD = "f1".repeat(20);
const OTHER_HEAD = "f2".repeat(20);
const SHA = "f3".repeat(20);
const BROKEN_HEAD = "f5".repeat(20);
const SCHEDULE = { schedule: "7 * * * *" };

/** A matrix entry of `fleet-due`, as the workflow's `fromJSON` hands it to a job. */
interface Due {
  stage: string;
  environment: string;
  cluster: string;
  region: string;
  policy: string;
  resume: boolean;
}

/** A cluster's policy with no pause between nodes and one validation read. */
function fast(text: string): string {
  if (!text.includes("kind: UpgradePolicy")) return text;
  const out = text.replace(
    "  maxSurge: 1\n",
    "  maxSurge: 1\n  postDrainDelay: 0s\n  interval: 0s\n  validation: { timeout: 10m, count: 1 }\n",
  );
  if (out === text) throw new Error("policies/fleet changed: update fast()");
  return out;
}

let served: Served;
let account: Account;
let cwd: string;

beforeAll(async () => {
  const dir = join(ROOT, "policies/sandbox/fleet");
  account = Account.fromYaml(
    readdirSync(dir)
      .sort()
      .map((f) => ({ text: readFileSync(join(dir, f), "utf8"), file: f })),
  );
  served = await serve(account, {
    pulls: [
      { number: 31, headSha: PR_HEAD, files: ["policies/fleet/staging-eu.yaml"] },
      { number: 32, headSha: OTHER_HEAD, files: ["README.md"] },
      { number: 33, headSha: BROKEN_HEAD, files: ["policies/fleet/dev-us.yaml"] },
    ],
  });
  // The example fleet as it is, but for the waits between nodes, which a test need not sit
  // through in real time (the action's clock is the wall's between requests).
  const fleetDir = join(ROOT, "policies/fleet");
  cwd = workspace(
    Object.fromEntries(
      readdirSync(fleetDir).map((f) => [
        `policies/fleet/${f}`,
        fast(readFileSync(join(fleetDir, f), "utf8")),
      ]),
    ),
  );
});
afterAll(() => served.close());

const github = () => served.server.faces.github;
const clusterWrites = () =>
  served.server.log.mutating().filter((e) => e.face !== "github" && e.face !== "sts");

async function recordOn(cluster: string): Promise<FleetRecord | undefined> {
  const lease = await account
    .ports(cluster)
    .cluster.getLease("kube-system", fleetLeaseName(cluster))
    .catch(() => undefined);
  const raw = lease?.metadata.annotations?.["noderoll.io/fleet"];
  return raw ? (JSON.parse(raw) as FleetRecord) : undefined;
}

/** A job of the workflow's `roll` matrix: the action with `fleet` and the entry's policy. */
const rollJob = (entry: Due) =>
  runAction({
    served,
    cwd,
    event: "schedule",
    payload: SCHEDULE,
    sha: SHA,
    inputs: { fleet: FLEET, policy: entry.policy },
    kubeconfig: false,
  });

let due: Due[] = [];

describe("mode: fleet-plan", () => {
  it("on a schedule, lists the clusters due now as fleet-due, for a matrix; reads, changes nothing", async () => {
    const r = await runAction({
      served,
      cwd,
      event: "schedule",
      payload: SCHEDULE,
      sha: SHA,
      inputs: { mode: "fleet-plan", fleet: FLEET },
      kubeconfig: false,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.result).toBe("planned");
    // One line, as a job output that `fromJSON` reads into `strategy.matrix.include`.
    expect(r.outputs["fleet-due"]).not.toContain("\n");
    due = JSON.parse(r.outputs["fleet-due"]!) as Due[];
    expect(due).toEqual([
      {
        stage: "dev",
        environment: "",
        cluster: "dev-eu",
        region: "eu-west-1",
        policy: "policies/fleet/dev-eu.yaml",
        resume: false,
      },
      {
        stage: "dev",
        environment: "",
        cluster: "dev-us",
        region: "eu-west-1",
        policy: "policies/fleet/dev-us.yaml",
        resume: false,
      },
    ]);
    const doc = JSON.parse(readFileSync(r.outputs["fleet-json"]!, "utf8")) as {
      due: Due[];
      stages: { name: string }[];
    };
    expect(doc.due).toEqual(due);
    expect(doc.stages.map((s) => s.name)).toEqual(["dev", "staging", "prod"]);
    expect(r.summary).toContain("### noderoll fleet `eks`");
    expect(r.summary).toContain("**The next run starts dev-eu, dev-us.**");
    expect(r.outputs.summary).toBe("noderoll fleet eks: The next run starts dev-eu, dev-us.");
    // A schedule has no pull request: no comment, no check run; nothing written on a cluster.
    expect(github().comments).toEqual([]);
    expect(github().checkRuns).toEqual([]);
    expect(clusterWrites()).toEqual([]);
  });

  it("on a pull request changing a fleet policy, one sticky fleet comment with the gantt, and a check run", async () => {
    const plan = (pull: number, head: string) =>
      runAction({
        served,
        cwd,
        event: "pull_request",
        payload: pullRequestPayload(pull, head),
        sha: "f4".repeat(20),
        ref: `refs/pull/${pull}/merge`,
        inputs: { mode: "fleet-plan", fleet: FLEET },
        kubeconfig: false,
      });
    const first = await plan(31, PR_HEAD);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const again = await plan(31, PR_HEAD);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const ours = github().comments.filter((c) => c.issue === 31);
    expect(ours).toHaveLength(1);
    const body = ours[0]!.body;
    expect(body).toContain("<!-- noderoll:fleet:eks -->");
    const html = marked.parse(body, { gfm: true, async: false }) as string;
    expect(html).toContain("<h3>noderoll fleet <code>eks</code></h3>");
    expect(html).toMatch(/<pre><code class="language-mermaid">gantt\n/);
    expect(html).toContain("section staging");
    expect(html).toMatch(/<td><code>staging-eu<\/code> \(eu-west-1\)<\/td>/);
    const checks = github().checkRuns.filter((c) => c.head_sha === PR_HEAD);
    expect(checks.map((c) => [c.name, c.status, c.conclusion])).toEqual([
      ["noderoll fleet / eks", "completed", "success"],
      ["noderoll fleet / eks", "completed", "success"],
    ]);
    expect(checks[0]!.output.title).toBe("The next run starts dev-eu, dev-us.");
    expect(first.outputs["comment-url"]).toMatch(/issuecomment/);

    // A pull request that changes neither the fleet file nor its policies gets no comment.
    const other = await plan(32, OTHER_HEAD);
    expect(other.code, other.stdout + other.stderr).toBe(0);
    expect(github().comments.filter((c) => c.issue === 32)).toEqual([]);
    expect(other.stdout).toContain(
      "pull request #32 changes neither policies/fleet/eks.yaml nor a policy it names",
    );
    expect(clusterWrites()).toEqual([]);
  });
});

describe("an invalid fleet", () => {
  it("on a pull request: the problem annotated on its line in the policy, the comment says so, nothing read", async () => {
    const broken = workspace({
      "policies/fleet/eks.yaml": readFileSync(join(cwd, FLEET), "utf8"),
      ...Object.fromEntries(
        ["dev-eu", "dev-us", "staging-eu", "prod-eu", "prod-us"].map((c) => {
          const text = readFileSync(join(cwd, `policies/fleet/${c}.yaml`), "utf8");
          return [
            `policies/fleet/${c}.yaml`,
            c === "dev-us"
              ? text.replace(
                  "  - name: dev-us-system\n",
                  '  - name: dev-us-system\n    target: { kubernetesVersion: "1.32" }\n',
                )
              : text,
          ];
        }),
      ),
    });
    const reads = served.server.log.entries.length;
    const r = await runAction({
      served,
      cwd: broken,
      event: "pull_request",
      payload: pullRequestPayload(33, BROKEN_HEAD),
      sha: "f6".repeat(20),
      inputs: { mode: "fleet-plan", fleet: FLEET },
      kubeconfig: false,
    });
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ result: "invalid", valid: "false", "fleet-due": "[]" });
    const check = github().checkRuns.find((c) => c.head_sha === BROKEN_HEAD)!;
    expect(check).toMatchObject({
      name: "noderoll fleet / eks",
      status: "completed",
      conclusion: "failure",
    });
    expect(check.annotations).toEqual([
      expect.objectContaining({
        path: "policies/fleet/dev-us.yaml",
        annotation_level: "failure",
        message: expect.stringMatching(
          /^groups\[0\]\.target\.kubernetesVersion: fleet "eks" .* rolls every group to kubernetesVersion "1\.33"/,
        ),
      }),
    ]);
    const body = github().comments.find((c) => c.issue === 33)!.body;
    expect(body).toContain("### noderoll fleet `eks` · ❌ invalid");
    expect(body).toContain("<!-- noderoll:fleet:eks -->");
    // Only GitHub was spoken to: no cluster was read.
    expect(served.server.log.entries.slice(reads).filter((e) => e.face !== "github")).toEqual([]);
  });
});

describe("one cluster of a fleet (a matrix job)", () => {
  it("rolls a due cluster to the pinned release and records it; staging, while dev soaks, is skipped", async () => {
    expect(due.map((d) => d.cluster)).toEqual(["dev-eu", "dev-us"]);
    // The matrix's jobs run at once, as GitHub runs them (max-parallel allowing).
    const runs = await Promise.all(due.map(rollJob));
    for (const [i, r] of runs.entries()) {
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.outputs.result).toBe("success");
      const cluster = due[i]!.cluster;
      expect(r.summary).toContain(`### noderoll apply · \`${cluster}\` · ✅ done`);
      expect(r.outputs.summary).toMatch(
        new RegExp(
          `^noderoll applied policies/fleet/${cluster}\\.yaml on ${cluster}: \\d+ nodes replaced`,
        ),
      );
      const check = github().checkRuns.find((c) => c.name === `noderoll apply / ${cluster}`)!;
      expect(check).toMatchObject({ head_sha: SHA, status: "completed", conclusion: "success" });
      expect(readFileSync(r.outputs["events-file"]!, "utf8")).toContain('"type":"group.end"');
      expect(await recordOn(cluster)).toMatchObject({
        fleet: "eks",
        stage: "dev",
        state: "succeeded",
        release: { kubernetesVersion: "1.33", releaseVersion: "1.33.4-20250904" },
      });
      // Every group is on the fleet's pinned release.
      const world = account.world(cluster);
      expect(world.eks.nodegroup(`${cluster}-system`).releaseVersion).toBe("1.33.4-20250904");
    }

    const staging = account.world("staging-eu");
    const writes = clusterWrites().length;
    const r = await rollJob({
      stage: "staging",
      environment: "staging",
      cluster: "staging-eu",
      region: "eu-west-1",
      policy: "policies/fleet/staging-eu.yaml",
      resume: false,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.result).toBe("skipped");
    expect(r.stdout).toMatch(
      /::notice::noderoll: staging-eu is not due: waiting for stage dev, soaking until \w{3} \d{1,2} \w{3} \d{4} \d\d:\d\d UTC; nothing was changed/,
    );
    expect(r.summary).toMatch(
      /\| `staging-eu` \| `policies\/fleet\/staging-eu\.yaml` \| skipped \|/,
    );
    expect(r.outputs.summary).toMatch(/^noderoll skipped policies\/fleet\/staging-eu\.yaml/);
    // Nothing touched: no node cordoned, no record, not one write to a cluster.
    expect([...staging.kube.nodes.values()].some((n) => n.unschedulable)).toBe(false);
    expect(await recordOn("staging-eu")).toBeUndefined();
    expect(clusterWrites().length).toBe(writes);
    expect(github().checkRuns.some((c) => c.name === "noderoll apply / staging-eu")).toBe(false);
  }, 120_000);

  it("refuses a policy the fleet does not name, before reading a cluster", async () => {
    const r = await rollJob({ policy: "policies/fleet/nowhere.yaml" } as Due);
    expect(r.code).toBe(1);
    expect(r.outputs.result).toBe("refused");
    expect(r.stdout).toContain(
      "::error::noderoll refused: policies/fleet/nowhere.yaml is not a policy of fleet eks (policies/fleet/eks.yaml)",
    );
  });
});
