// Running the bundled action (dist/index.js) the way the GitHub runner does — a child process
// with GITHUB_* and INPUT_* variables, an event payload file, GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY — against `sandbox serve` on loopback (AWS, Kubernetes and GitHub faces).
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { World } from "../../src/sandbox/world/world.js";
import { Account } from "../../src/sandbox/world/account.js";
import { DEMO_SCENARIO_YAML } from "../../src/sandbox/scenarios/demo.js";
import type { GitHubOptions } from "../../src/sandbox/wire/github-face.js";
import { serveSandbox, type SandboxServer } from "../../src/sandbox/wire/serve.js";
import { ROOT } from "../helpers/cli.js";

export const OWNER = "octo-org";
export const REPO = "infra";
export const TOKEN = "ghs_writeToken0000000000000000000000";
export const READ_ONLY_TOKEN = "ghs_forkToken00000000000000000000000";

const examples = createRequire(import.meta.url)(
  "@octokit/webhooks-examples/api.github.com/index.json",
) as { name: string; examples: Record<string, unknown>[] }[];

/** A real webhook payload from @octokit/webhooks-examples, as a fresh copy. */
export function example(
  name: string,
  pick: (p: Record<string, unknown>) => boolean = () => true,
): Record<string, unknown> {
  const found = examples.find((e) => e.name === name)?.examples.find(pick);
  if (!found) throw new Error(`no ${name} example`);
  return structuredClone(found);
}

function pointAtRepo(p: Record<string, unknown>): void {
  const repo = p.repository as Record<string, unknown> | undefined;
  if (!repo) return;
  Object.assign(repo, {
    name: REPO,
    full_name: `${OWNER}/${REPO}`,
    default_branch: "main",
    master_branch: "main",
  });
  (repo.owner as Record<string, unknown>).login = OWNER;
}

/** The "opened" pull_request example, renumbered to match a pull request of the GitHub face. */
export function pullRequestPayload(number: number, headSha: string): Record<string, unknown> {
  const p = example("pull_request", (x) => x.action === "opened");
  p.number = number;
  const pr = p.pull_request as Record<string, unknown>;
  pr.number = number;
  (pr.head as Record<string, unknown>).sha = headSha;
  pointAtRepo(p);
  return p;
}

/** The push example on the default branch, changing `files`, moved to `sha`. */
export function pushPayload(sha: string, files: string[]): Record<string, unknown> {
  const p = example("push", (x) => x.ref === "refs/heads/master");
  p.ref = "refs/heads/main";
  p.after = sha;
  const commit = (p.commits as Record<string, unknown>[])[0]!;
  Object.assign(commit, { id: sha, added: [], modified: files, removed: [] });
  p.head_commit = commit;
  pointAtRepo(p);
  return p;
}

export function dispatchPayload(inputs: Record<string, string>): Record<string, unknown> {
  const p = example("workflow_dispatch", (x) => x.ref === "refs/heads/main");
  p.inputs = inputs;
  pointAtRepo(p);
  return p;
}

export interface Served {
  server: SandboxServer;
  world: World;
  dir: string;
  kubeconfig: string;
  close(): Promise<void>;
}

/** A world served on loopback, with its kubeconfig, and GitHub pull requests for the events. */
export async function serve(
  worldOrYaml: World | Account | string = DEMO_SCENARIO_YAML,
  github: GitHubOptions = {},
): Promise<Served> {
  const served = typeof worldOrYaml === "string" ? World.fromYaml(worldOrYaml) : worldOrYaml;
  // An account's first cluster is the one its kubeconfig (and `world`) stand for.
  const world = served instanceof Account ? (served.worlds[0] as World) : served;
  const dir = mkdtempSync(join(tmpdir(), "noderoll-action-"));
  const kubeconfig = join(dir, "kubeconfig");
  const server = await serveSandbox(served, {
    kubeconfigPath: kubeconfig,
    github: { owner: OWNER, repo: REPO, readOnlyTokens: [READ_ONLY_TOKEN], ...github },
  });
  return {
    server,
    world,
    dir,
    kubeconfig,
    close: () => {
      killRunning();
      return server.close();
    },
  };
}

/** A workspace (the checkout) with these files, relative paths → contents. */
export function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-ws-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

export interface ActionRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** What the step saved for its post step (GITHUB_STATE), name → value. */
  state: Record<string, string>;
}

/** GITHUB_OUTPUT's heredoc format: name<<delimiter, value lines, delimiter. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join("\n");
  }
  return out;
}

export interface RunOptions {
  served?: Served;
  cwd: string;
  event: string;
  payload: Record<string, unknown>;
  sha: string;
  ref?: string;
  inputs: Record<string, string>;
  env?: Record<string, string>;
  /** Send `killSignal` (SIGTERM: a cancelled workflow) once the child's stdout matches. */
  killWhen?: RegExp;
  /** Told the moment `killWhen` matched and the signal was sent. */
  onKill?: () => void;
  killSignal?: NodeJS.Signals;
  /**
   * Cancel as GitHub does once `killWhen` matches: SIGINT, SIGTERM 7.5 s later, and the process
   * killed 2.5 s after that (GitHub docs, "Canceling a workflow"). Overrides `killSignal`.
   */
  cancelLikeGitHub?: boolean;
  /** The script to run (default dist/index.js, the main step). */
  entry?: string;
  stateEnv?: Record<string, string>;
  /** Kubernetes by kubeconfig (default) or by an EKS token from the sandbox's EKS face. */
  kubeconfig?: boolean;
}

const running = new Set<ChildProcess>();

/** Kill what a timed-out test left running (SIGKILL: no clean-up wanted). */
export function killRunning(): void {
  for (const child of running) child.kill("SIGKILL");
}

export async function runAction(o: RunOptions): Promise<ActionRun> {
  const dir = mkdtempSync(join(tmpdir(), "noderoll-run-"));
  const eventPath = join(dir, "event.json");
  const output = join(dir, "output");
  const summary = join(dir, "summary.md");
  const stateFile = join(dir, "state");
  const temp = join(dir, "runner-temp");
  mkdirSync(temp);
  writeFileSync(eventPath, JSON.stringify(o.payload));
  writeFileSync(output, "");
  writeFileSync(summary, "");
  writeFileSync(stateFile, "");
  const inputs = Object.fromEntries(
    Object.entries({
      "github-token": TOKEN,
      ...(o.served && o.kubeconfig !== false && { kubeconfig: o.served.kubeconfig }),
      ...o.inputs,
    }).map(([k, v]) => [`INPUT_${k.replace(/ /g, "_").toUpperCase()}`, v]),
  );
  const sandboxEnv = o.served ? { ...o.served.server.env } : {};
  delete sandboxEnv.KUBECONFIG;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    GITHUB_ACTIONS: "true",
    CI: "true",
    GITHUB_EVENT_NAME: o.event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
    GITHUB_REPOSITORY_OWNER: OWNER,
    GITHUB_SHA: o.sha,
    GITHUB_REF: o.ref ?? "refs/heads/main",
    GITHUB_WORKSPACE: o.cwd,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_API_URL: o.served?.server.url ?? "http://127.0.0.1:9",
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_STATE: stateFile,
    RUNNER_TEMP: temp,
    // No ~/.aws files: the default chain finds the sandbox credentials in the environment.
    AWS_CONFIG_FILE: join(dir, "aws-config"),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, "aws-credentials"),
    ...sandboxEnv,
    ...inputs,
    ...o.env,
  };
  const child = spawn(process.execPath, [join(ROOT, o.entry ?? "dist/index.js")], {
    cwd: o.cwd,
    env: { ...env, ...o.stateEnv },
  });
  running.add(child);
  child.on("close", () => running.delete(child));
  const tee = process.env.NODEROLL_ACTION_LOG;
  if (tee) child.stdout.on("data", (d: Buffer) => appendFileSync(tee, d));
  let stdout = "";
  let stderr = "";
  let killed = false;
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
    if (o.killWhen && !killed && o.killWhen.test(stdout)) {
      killed = true;
      if (o.cancelLikeGitHub) {
        child.kill("SIGINT");
        const term = setTimeout(() => child.kill("SIGTERM"), 7_500);
        const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.on("close", () => (clearTimeout(term), clearTimeout(kill)));
      } else child.kill(o.killSignal ?? "SIGTERM");
      o.onKill?.();
    }
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on("close", (c, s) => resolve([c, s])),
  );
  return {
    code,
    signal,
    stdout,
    stderr,
    outputs: parseOutputs(readFileSync(output, "utf8")),
    summary: readFileSync(summary, "utf8"),
    state: parseOutputs(readFileSync(stateFile, "utf8")),
  };
}

/** The post step, as the runner starts it: the main step's saved state as STATE_* variables. */
export function runPost(o: RunOptions, state: Record<string, string>): Promise<ActionRun> {
  const stateEnv = Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v]));
  return runAction({ ...o, entry: "dist/post.js", stateEnv });
}

/** The demo policy with waits the wire tests need not sit through in real time. */
export function fastDemoPolicy(drainTimeout = "2m"): string {
  const demo = readFileSync(join(ROOT, "policies/demo.yaml"), "utf8");
  const fast = demo.replace(
    "  postDrainDelay: 5s\n  interval: 15s\n",
    `  postDrainDelay: 0s\n  interval: 0s\n  drainTimeout: ${drainTimeout}\n  validation: { timeout: 10m, count: 1 }\n`,
  );
  if (fast === demo) throw new Error("policies/demo.yaml changed: update fastDemoPolicy");
  return fast;
}
