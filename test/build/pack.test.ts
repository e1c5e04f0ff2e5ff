// The package a team installs (issue 48, item 2): `npm pack`'s tarball, installed into an empty
// directory elsewhere with nothing else (no network: the bundle carries every dependency), gives
// a `noderoll` command that runs — its version, a policy of the package validated, and the main
// job on the built-in sandbox — with the LICENSE and CHANGELOG in it.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const work = mkdtempSync(join(tmpdir(), "noderoll-pack-"));
const app = join(work, "app");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
/** Node 24 first on PATH: the hashbang's `env node` finds it, as on a machine that has it. */
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` };
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

beforeAll(() => {
  const out = npm(["pack", "--json", "--pack-destination", work], ROOT);
  const tarball = join(work, (JSON.parse(out) as { filename: string }[])[0]!.filename);
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), '{ "name": "platform", "private": true }\n');
  npm(["install", "--offline", "--no-audit", "--no-fund", tarball], app);
}, 180_000);

const noderoll = (...args: string[]) =>
  spawnSync(join(app, "node_modules/.bin/noderoll"), args, { cwd: app, env, encoding: "utf8" });

describe("the package from npm pack, installed elsewhere", () => {
  it("has a noderoll command that says its version", () => {
    const r = noderoll("--version");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(`noderoll ${pkg.version}\n`);
  });

  it("runs through npx as the issue's user types it: --version, then a plan of the demo", () => {
    const npx = (...args: string[]) =>
      spawnSync("npx", ["noderoll", ...args], { cwd: app, env, encoding: "utf8" });
    const v = npx("--version");
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toBe(`noderoll ${pkg.version}\n`);
    const policy = join(app, "node_modules/noderoll/policies/demo.yaml");
    const plan = npx("plan", "--policy", policy, "--sandbox", "demo");
    expect(plan.status, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^Plan: \d+ groups? to roll \(\d+ nodes\)/m);
  }, 120_000);

  it("validates the policies it ships and runs the main job on the built-in sandbox", () => {
    const policy = join(app, "node_modules/noderoll/policies/demo.yaml");
    expect(noderoll("validate", policy).status).toBe(0);
    const r = noderoll("apply", "--policy", policy, "--sandbox", "demo", "--quiet");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^success: \d+ groups rolled\n$/m);
  }, 120_000);

  it("carries the LICENSE (Apache-2.0, as package.json says) and the CHANGELOG", () => {
    const dir = join(app, "node_modules/noderoll");
    expect(readFileSync(join(dir, "LICENSE"), "utf8")).toMatch(/Apache License\s+Version 2\.0/);
    expect(readFileSync(join(dir, "CHANGELOG.md"), "utf8")).toContain(`## ${pkg.version}`);
    // The action's own bundle and the sources stay out of the package.
    expect(existsSync(join(dir, "src"))).toBe(false);
    expect(existsSync(join(dir, "dist/index.js"))).toBe(false);
  });
});
