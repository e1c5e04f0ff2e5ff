// The action's contract as users read it: every input in action.yml is documented and read by
// the code, the example workflows in docs/workflows/ are the ones docs/action.md shows, use only
// inputs that exist, and ask for the permissions its table says.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readInputs } from "../../src/action/inputs.js";
import { ROOT } from "../helpers/cli.js";

interface ActionYml {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string };
}

const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as ActionYml;
const readme = readFileSync(join(ROOT, "docs/action.md"), "utf8");
const workflowDir = join(ROOT, "docs/workflows");
const workflows = readdirSync(workflowDir).filter((f) => f.endsWith(".yml"));

describe("action.yml", () => {
  it("runs dist/index.js on node24 and documents every input and output", () => {
    expect(action.runs).toEqual({ using: "node24", main: "dist/index.js", post: "dist/post.js" });
    expect(Object.keys(action.inputs).sort()).toEqual(
      [
        "apply-refs",
        "check-run",
        "comment",
        "delete-after-drain-timeout",
        "events-file",
        "fleet",
        "force",
        "github-token",
        "groups",
        "ignore-window",
        "kubeconfig",
        "labels",
        "max-duration",
        "mode",
        "policy",
        "reason",
        "rehearse",
        "replace-all",
        "retry-failed",
      ].sort(),
    );
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description.length, name).toBeGreaterThan(30);
      expect(readme, `docs/action.md documents input ${name}`).toContain(`| \`${name}\``);
    }
    expect(Object.keys(action.outputs).sort()).toEqual([
      "check-run-url",
      "comment-url",
      "events-file",
      "fleet-due",
      "fleet-json",
      "groups-blocked",
      "groups-rolled",
      "has-changes",
      "nodes-replaced",
      "plan-json",
      "result",
      "summary",
      "valid",
    ]);
  });

  it("every input is read by the code, and the defaults parse", () => {
    const asked = new Set<string>();
    const defaults = Object.fromEntries(
      Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ""]),
    );
    const inputs = readInputs((name) => {
      asked.add(name);
      return name === "github-token" ? "t" : (defaults[name] ?? "");
    });
    expect([...asked].sort()).toEqual(Object.keys(action.inputs).sort());
    expect(inputs).toMatchObject({
      policy: ["policies/*.yaml"],
      mode: "auto",
      replaceAll: false,
      deleteAfterDrainTimeout: false,
      comment: true,
      checkRun: true,
      maxDurationMs: 5.5 * 3600_000,
      labels: false,
    });
    expect(inputs.eventsFile).toBeUndefined();
  });
});

describe("example workflows", () => {
  it("are the ones docs/action.md shows, verbatim", () => {
    expect(workflows.sort()).toEqual([
      "apply.yml",
      "emergency.yml",
      "fleet-rollout.yml",
      "fleet.yml",
      "notify.yml",
      "plan.yml",
    ]);
    for (const f of workflows) {
      const text = readFileSync(join(workflowDir, f), "utf8");
      expect(readme, `docs/action.md shows docs/workflows/${f}`).toContain(
        `\`\`\`yaml\n${text}\`\`\``,
      );
    }
  });

  it("use only inputs the action has, and ask for what they need", () => {
    for (const f of workflows) {
      const wf = parse(readFileSync(join(workflowDir, f), "utf8")) as {
        permissions: Record<string, string>;
        jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
      };
      const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
      const ours = steps.filter((s) => s.uses?.includes("/noderoll@"));
      expect(ours.length, f).toBeGreaterThan(0);
      for (const s of ours)
        for (const key of Object.keys(s.with ?? {}))
          expect(Object.keys(action.inputs), `${f}: ${key}`).toContain(key);
      expect(wf.permissions.checks, f).toBe("write");
      expect(wf.permissions["id-token"], f).toBe("write");
      expect(wf.permissions.contents, f).toBe("read");
      expect(
        steps.some((s) => s.uses?.startsWith("aws-actions/configure-aws-credentials@")),
        f,
      ).toBe(true);
    }
  });
});

describe("workflows that cannot lose a merge", () => {
  it("the rolling workflows also run on a schedule, which applies (mode apply), and never cancel a roll", () => {
    for (const f of ["apply.yml", "fleet.yml", "notify.yml"]) {
      const wf = parse(readFileSync(join(workflowDir, f), "utf8")) as {
        on: { schedule?: { cron: string }[]; push?: unknown };
        jobs: Record<
          string,
          {
            concurrency: { "cancel-in-progress": boolean | string };
            steps: { uses?: string; with?: Record<string, string> }[];
          }
        >;
      };
      expect(wf.on.push, f).toBeDefined();
      expect(wf.on.schedule?.[0]?.cron, f).toMatch(/^[\d*/,-]+ [\d*/,-]+ \* \* [\d*,-]+$/);
      const job = Object.values(wf.jobs)[0]!;
      const step = job.steps.find((x) => x.uses?.includes("/noderoll@"))!;
      expect(step.with?.mode, f).toBe(
        "${{ github.event_name == 'schedule' && 'apply' || 'auto' }}",
      );
      expect(String(job.concurrency["cancel-in-progress"]), f).not.toBe("true");
    }
  });
});

describe("least privilege, for plan and for apply", () => {
  const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!.includes("kind: ClusterRole\n") ? m[1]!.split(/^---$/m).map((d) => parse(d)) : [],
  ) as { kind: string; metadata: { name: string }; rules?: { verbs: string[] }[] }[];
  const role = (name: string) =>
    blocks.find((d) => d.kind === "ClusterRole" && d.metadata.name === name);

  it("the plan's ClusterRole only reads; apply's is a separate role", () => {
    const plan = role("noderoll-plan")!;
    expect(
      plan.rules!.flatMap((r) => r.verbs).every((v) => ["get", "list", "watch"].includes(v)),
    ).toBe(true);
    expect(role("noderoll")!.rules!.flatMap((r) => r.verbs)).toContain("patch");
    expect(readme).toContain("--kubernetes-groups noderoll-plan");
  });

  it("apply's ClusterRole watches PodDisruptionBudgets (drains wait on the watch)", () => {
    const rules = role("noderoll")!.rules as { resources: string[]; verbs: string[] }[];
    const pdb = rules.find((r) => r.resources.includes("poddisruptionbudgets"))!;
    expect(pdb.verbs).toEqual(expect.arrayContaining(["list", "watch"]));
  });

  it("the plan role's IAM policy only reads; the apply role's adds the changes", () => {
    const policies = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
      .map((m) => JSON.parse(m[1]!) as { Statement: { Sid?: string; Action: string | string[] }[] })
      .filter((p) => p.Statement.some((x) => x.Sid === "NoderollRead"));
    expect(policies).toHaveLength(2);
    const actions = (p: (typeof policies)[number]) => p.Statement.flatMap((x) => x.Action);
    expect(actions(policies[0]!).every((a) => /:(Describe|List|Get)/.test(a))).toBe(true);
    // `releaseVersion: latest` is read from the public SSM parameters of the EKS AMIs.
    expect(actions(policies[0]!)).toContain("ssm:GetParameters");
    expect(actions(policies[1]!)).toEqual(
      expect.arrayContaining([...actions(policies[0]!), "eks:UpdateNodegroupVersion"]),
    );
  });
});
