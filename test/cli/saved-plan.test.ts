// `noderoll plan --out FILE` and `noderoll apply FILE` (issue 48, item 3), as Terraform's saved
// plan: the bundled command line run as a user runs it. The saved plan is carried out exactly —
// its groups and the nodes it named — without asking; refused, changing nothing on the cluster,
// when a decision in it no longer holds (a budget edited in the policy, against `sandbox serve`
// whose world the test reads); and a file that is not a saved plan, or options the saved plan
// fixes, get a clear error.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEASE_NAMESPACE, leaseName } from "../../src/roll/lease.js";
import { servedGroup } from "../helpers/cli-async.js";
import { ROOT, runCli } from "../helpers/cli.js";

const tmp = () => mkdtempSync(join(tmpdir(), "noderoll-saved-"));
const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }
).version;

interface SavedJson {
  saved: { noderoll: string; policySha256: string; clusterArn?: string };
  options: { groups?: string[] };
  groups: { name: string; replacements: { instance: string }[] }[];
}

/** The demo's plan for ingress and workers, saved to a file of a fresh directory. */
function savedDemo(): { file: string; dir: string; saved: SavedJson; stdout: string } {
  const dir = tmp();
  const file = join(dir, "roll.plan");
  const r = runCli([
    "plan",
    "--policy",
    "policies/demo.yaml",
    "--sandbox",
    "demo",
    "--groups",
    "ingress,workers",
    "--out",
    file,
  ]);
  expect(r.status, r.stderr).toBe(0);
  return {
    file,
    dir,
    saved: JSON.parse(readFileSync(file, "utf8")) as SavedJson,
    stdout: r.stdout,
  };
}

describe("plan --out FILE, then apply FILE", () => {
  it("saves the plan, stamped, and apply rolls exactly the groups and nodes it named", () => {
    const { file, dir, saved, stdout } = savedDemo();
    // The plan is printed as usual, and said to be saved.
    expect(stdout).toContain("Plan: 2 groups to roll (11 nodes)");
    expect(stdout).toContain(`Saved the plan to ${file}`);
    // The command to run next reaches the same cluster the plan read.
    expect(stdout).toContain(`run: noderoll apply ${file} --sandbox demo\n`);
    expect(saved.saved).toEqual({
      noderoll: VERSION,
      policySha256: createHash("sha256")
        .update(readFileSync(join(ROOT, "policies/demo.yaml")))
        .digest("hex"),
      clusterArn: "arn:aws:eks:eu-west-1:123456789012:cluster/demo",
    });
    expect(saved.options.groups).toEqual(["ingress", "workers"]);

    const events = join(dir, "events.jsonl");
    // No --groups and no --policy: the saved plan carries them.
    const r = runCli(["apply", file, "--sandbox", "demo", "--events", events]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain("Do you want to perform these actions?");
    expect(lastLine(r.stdout)).toBe("success: 2 groups rolled");
    const log = readFileSync(events, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; group?: string; instance?: string });
    expect(log[0]).toMatchObject({ type: "roll.start", groups: ["ingress", "workers"] });
    for (const g of saved.groups) {
      const terminated = log
        .filter((e) => e.type === "instance.terminate" && e.group === g.name)
        .map((e) => e.instance);
      expect(terminated.sort(), g.name).toEqual(g.replacements.map((x) => x.instance).sort());
    }
  }, 240_000);

  const pty = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
  it.skipIf(!pty)(
    "does not ask on a terminal: the saved plan was the approval",
    () => {
      const { file } = savedDemo();
      const command = [process.execPath, "dist/cli.js", "apply", file, "--sandbox", "demo"];
      const r = spawnSync(
        "bash",
        ["-c", `exec </dev/null; script -qec "${command.join(" ")}" /dev/null`],
        {
          cwd: ROOT,
          encoding: "utf8",
          timeout: 240_000,
        },
      );
      const out = r.stdout.replace(/\r/g, "");
      expect(out).not.toContain("Do you want to perform these actions?");
      expect(out).toMatch(/success: 2 groups rolled\n?$/);
      expect(r.status).toBe(0);
    },
    240_000,
  );
});

describe("apply FILE refuses a saved plan that no longer holds, against sandbox serve", () => {
  const served = servedGroup("saving", 3);
  const { world, dir, policy, cli } = served;
  const kubeconfig = ["--kubeconfig", join(dir, "kubeconfig")];
  beforeAll(() => served.start());
  afterAll(() => served.close());

  it("names the budget edited since, exits 1, and leaves the cluster as it was", async () => {
    const file = join(dir, "work.plan");
    const planned = await cli(["plan", "--policy", policy, ...kubeconfig, "--out", file]);
    expect(planned.code, planned.stderr).toBe(0);
    writeFileSync(
      policy,
      readFileSync(policy, "utf8").replace("maxUnavailable: 1", "maxUnavailable: 2"),
    );

    const r = await cli(["apply", file, ...kubeconfig]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `noderoll: the saved plan ${file} no longer holds; nothing was changed:`,
    );
    expect(r.stderr).toContain(
      "  - group work: maxUnavailable was 1 in the saved plan, is now 2\n",
    );
    expect(r.stderr).toMatch(/ {2}- the policy \S+policy\.yaml changed since the plan was saved/);
    expect(r.stderr).toContain(
      `Run \`noderoll plan --policy ${policy} ${kubeconfig.join(" ")} --out ${file}\` again, review it, and apply that file.`,
    );
    expect(r.stdout).not.toMatch(/cordon|terminat/);

    // Nothing was written: no node cordoned, no instance replaced, no Lease taken.
    expect(world.nodes("work").filter((n) => n.unschedulable)).toEqual([]);
    expect(world.instances("work").map((i) => i.ltVersion)).toEqual([1, 1, 1]);
    const lease = await world.cluster.getLease(LEASE_NAMESPACE, leaseName("saving")).then(
      () => "taken",
      (e: { status?: number }) => e.status,
    );
    expect(lease).toBe(404);
  }, 240_000);
});

describe("apply FILE with a file that is not a saved plan, or with what the plan fixes", () => {
  it("names the file and what is wrong with it, and changes nothing (exit 1)", () => {
    const dir = tmp();
    const garbage = join(dir, "garbage.plan");
    writeFileSync(garbage, "\u0089PNG not a plan");
    const plain = join(dir, "plain.json");
    writeFileSync(
      plain,
      runCli(["plan", "--policy", "policies/demo.yaml", "--sandbox", "demo", "--format", "json"])
        .stdout,
    );
    const cases: [string, RegExp][] = [
      [
        garbage,
        /^noderoll: saved plan \S+garbage\.plan is not JSON \(.*\); nothing was read or changed\n$/,
      ],
      [
        plain,
        /^noderoll: saved plan \S+plain\.json is a plan without the "saved" stamp \(as `plan --format json` prints it\), not a saved plan: save one with `noderoll plan --out FILE`; nothing was read or changed\n$/,
      ],
      [
        join(dir, "absent.plan"),
        /^noderoll: saved plan \S+absent\.plan cannot be read: no such file; nothing was read or changed\n$/,
      ],
      [
        "policies/demo.yaml",
        /^noderoll: policies\/demo\.yaml is a policy, not a saved plan: did you mean noderoll apply --policy policies\/demo\.yaml\?/,
      ],
    ];
    for (const [file, message] of cases) {
      const r = runCli(["apply", file, "--sandbox", "demo"]);
      expect(r.status, file).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });

  it("refuses a plan another noderoll saved (exit 1), before reading the cluster", () => {
    const { file, saved } = savedDemo();
    writeFileSync(file, JSON.stringify({ ...saved, saved: { ...saved.saved, noderoll: "0.0.1" } }));
    const r = runCli(["apply", file, "--sandbox", "demo"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `  - the saved plan was made by noderoll 0.0.1, this is noderoll ${VERSION}\n`,
    );
    expect(r.stdout).toBe("");
  });

  it("says so when the policy the plan names is not there from where apply runs (exit 1)", () => {
    const { file, dir } = savedDemo();
    const r = runCli(["apply", file, "--sandbox", "demo"], { cwd: dir });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `noderoll: saved plan ${file} was made from the policy policies/demo.yaml, which is not there from ${dir}: run apply where plan ran; nothing was read or changed\n`,
    );
  });

  it("refuses --policy and the run's options beside a saved plan, and a second file (exit 2)", () => {
    const { file } = savedDemo();
    const cases: [string[], string][] = [
      [["--policy", "policies/demo.yaml"], "--policy"],
      [["--groups", "workers"], "--groups"],
      [["--replace-all", "--reason", "CVE"], "--replace-all"],
      [["--delete-after-drain-timeout", "--reason", "CVE"], "--delete-after-drain-timeout"],
    ];
    for (const [flags, flag] of cases) {
      const r = runCli(["apply", file, "--sandbox", "demo", ...flags]);
      expect(r.status, flag).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          `^noderoll: ${flag} cannot be given with a saved plan: ${file.replace(/[.]/g, "\\.")} fixes it; plan again with ${flag} and --out to change it`,
        ),
      );
    }
    const two = runCli(["apply", file, file, "--sandbox", "demo"]);
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(/^noderoll: apply takes one saved plan, not 2/);
    const resume = runCli(["resume", file, "--sandbox", "demo"]);
    expect(resume.status).toBe(2);
    expect(resume.stderr).toMatch(/^noderoll: resume takes no saved plan/);
    const none = runCli(["apply", "--sandbox", "demo"]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(
      /^noderoll: --policy FILE is required \(or a saved plan: apply FILE\)/,
    );
  });

  it("documents FILE and --out in apply's and plan's --help", () => {
    const apply = runCli(["apply", "--help"]).stdout;
    expect(apply).toMatch(/^usage: noderoll apply \[FILE\] /);
    expect(apply).toMatch(/^ {4}FILE +a plan saved by `plan --out FILE`/m);
    const plan = runCli(["plan", "--help"]).stdout;
    expect(plan).toMatch(/^ {4}--out FILE +also save the plan to FILE, for `apply FILE`/m);
  });
});
