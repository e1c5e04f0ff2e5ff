// `npm run demo:pr`: the action's whole pull-request loop on this machine, with no GitHub and no
// AWS. `noderoll sandbox serve` plays both: the demo cluster (EKS, Auto Scaling, EC2, Kubernetes)
// and a repository holding two pull requests that change policies/demo.yaml. The bundled action
// (dist/index.js) is run as the GitHub runner runs it — a child process with the GITHUB_* and
// INPUT_* variables, the event's payload file (a real webhook payload from
// @octokit/webhooks-examples), GITHUB_OUTPUT and GITHUB_STEP_SUMMARY — three times:
//   1. pull request #7 is opened: the plan, as its sticky comment and a check run;
//   2. pull request #8 comes from a fork, so its token may only read: the plan goes to the log
//      and the job summary only, and #8 gets nothing;
//   3. #7 is merged (GitHub's merge endpoint) and the push to main applies it: the cluster is
//      rolled, and #7's comment follows the roll to its end.
// Each time it prints what a person reads on the pull request, and at the end saves the served
// page (GET /github/) that shows the same in a browser. `--keep` serves on until Ctrl-C;
// `--out DIR` is where the page is saved (default out/demo-pr).
/* global fetch -- Node's own (Node 24), as the action's Octokit uses */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";

const ROOT = dirname(import.meta.dirname);
const OWNER = "octo-org";
const REPO = "infra";
const POLICY = "policies/demo.yaml";
const TOKEN = "ghs_demoWriteToken000000000000000000";
const FORK_TOKEN = "ghs_demoForkToken0000000000000000000";
const PULL = 7;
const FORK_PULL = 8;

/**
 * The demo policy, with the waits the action spends in real time between nodes (postDrainDelay,
 * interval, the validations 10 s apart) cut short: the served cluster's own time jumps ahead
 * whenever the action waits, but the action's clock is the real one.
 */
function demoPolicy() {
  const demo = readFileSync(join(ROOT, POLICY), "utf8");
  const fast = demo.replace(
    "  postDrainDelay: 5s\n  interval: 15s\n",
    "  postDrainDelay: 0s\n  interval: 0s\n  validation: { timeout: 10m, count: 1 }\n",
  );
  if (fast === demo)
    throw new Error(`${POLICY} changed: update demoPolicy() in scripts/demo-pr.mjs`);
  return fast;
}

// ---- the payloads GitHub sends -------------------------------------------------------------

const examples = createRequire(import.meta.url)(
  "@octokit/webhooks-examples/api.github.com/index.json",
);

function example(name, pick) {
  const found = examples.find((e) => e.name === name)?.examples.find(pick);
  if (!found) throw new Error(`@octokit/webhooks-examples has no ${name} example`);
  const p = JSON.parse(JSON.stringify(found));
  Object.assign(p.repository, {
    name: REPO,
    full_name: `${OWNER}/${REPO}`,
    default_branch: "main",
    master_branch: "main",
  });
  p.repository.owner.login = OWNER;
  return p;
}

function pullRequestEvent(pull, fork) {
  const p = example("pull_request", (x) => x.action === "opened");
  p.number = pull.number;
  Object.assign(p.pull_request, {
    number: pull.number,
    title: `Roll the demo cluster (#${pull.number})`,
  });
  p.pull_request.head.sha = pull.head.sha;
  if (fork)
    Object.assign(p.pull_request.head.repo, { fork: true, full_name: `a-contributor/${REPO}` });
  return p;
}

function pushEvent(sha) {
  const p = example("push", (x) => x.ref === "refs/heads/master");
  p.ref = "refs/heads/main";
  p.after = sha;
  const commit = p.commits[0];
  Object.assign(commit, { id: sha, added: [], modified: [POLICY], removed: [] });
  p.head_commit = commit;
  return p;
}

// ---- sandbox serve, and the action as the runner starts it ---------------------------------

/** `noderoll sandbox serve` with the demo cluster and the two pull requests, until stop(). */
async function serve(dir) {
  const kubeconfig = join(dir, "kubeconfig");
  const pulls = [PULL, FORK_PULL].flatMap((n) => ["--pull", `${n}:${POLICY}`]);
  const args = ["sandbox", "serve", "--kubeconfig", kubeconfig, ...pulls];
  const child = spawn(
    process.execPath,
    [join(ROOT, "dist/cli.js"), ...args, "--read-only-token", FORK_TOKEN],
    {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((done) => child.on("close", done));
  await new Promise((ready, fail) => {
    child.stdout.on("data", () => stdout.includes("export KUBECONFIG=") && ready());
    void exited.then((code) => fail(new Error(`sandbox serve exited (${code}): ${stderr}`)));
  });
  const env = Object.fromEntries(
    [...stdout.matchAll(/^ {2}export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]),
  );
  return {
    url: env.GITHUB_API_URL,
    env,
    dir,
    kubeconfig,
    stop: () => (child.kill("SIGTERM"), exited),
  };
}

/** GITHUB_OUTPUT's heredoc format: name<<delimiter, value lines, delimiter. */
function outputs(text) {
  const out = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]);
    if (!m) continue;
    const value = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]);
    out[m[1]] = value.join("\n");
  }
  return out;
}

/** One job's step: dist/index.js with the runner's variables; its exit code, log and files. */
async function runAction(served, workspace, { event, payload, sha, ref, token }) {
  const dir = mkdtempSync(join(served.dir, "run-"));
  const files = {
    event: join(dir, "event.json"),
    output: join(dir, "output"),
    summary: join(dir, "summary.md"),
  };
  writeFileSync(files.event, JSON.stringify(payload));
  for (const f of [files.output, files.summary, join(dir, "state")]) writeFileSync(f, "");
  mkdirSync(join(dir, "runner-temp"));
  const { KUBECONFIG: _kubeconfig, ...sandbox } = served.env;
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    GITHUB_ACTIONS: "true",
    CI: "true",
    GITHUB_EVENT_NAME: event,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
    GITHUB_REPOSITORY_OWNER: OWNER,
    GITHUB_SHA: sha,
    GITHUB_REF: ref,
    GITHUB_WORKSPACE: workspace,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_RUN_ID: "4242",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_STATE: join(dir, "state"),
    RUNNER_TEMP: join(dir, "runner-temp"),
    // No ~/.aws files: the AWS SDK's default chain finds the sandbox's keys in the environment.
    AWS_CONFIG_FILE: join(dir, "aws-config"),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, "aws-credentials"),
    ...sandbox,
    INPUT_POLICY: POLICY,
    "INPUT_GITHUB-TOKEN": token,
    INPUT_KUBECONFIG: served.kubeconfig,
  };
  const child = spawn(process.execPath, [join(ROOT, "dist/index.js")], { cwd: workspace, env });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  const code = await new Promise((done) => child.on("close", done));
  return {
    code,
    log,
    outputs: outputs(readFileSync(files.output, "utf8")),
    summary: readFileSync(files.summary, "utf8"),
  };
}

// ---- reading GitHub back, as a person does -------------------------------------------------

async function github(served, path, init = {}) {
  const res = await fetch(`${served.url}/repos/${OWNER}/${REPO}/${path}`, {
    ...init,
    headers: {
      authorization: `token ${TOKEN}`,
      accept: "application/vnd.github+json",
      ...init.headers,
    },
  });
  if (!res.ok)
    throw new Error(`GitHub ${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * What GitHub shows of a comment before a click: its Markdown without the hidden `<!-- -->`
 * markers, and each `<details>` block folded to its summary line.
 */
function shown(body) {
  const lines = [];
  let depth = 0;
  for (const line of body.replace(/<!--[\s\S]*?-->\n?/g, "").split("\n")) {
    const summary = /^<summary>(.*)<\/summary>$/.exec(line.trim());
    if (depth === 1 && summary) lines.push(`▶ ${summary[1]}`);
    if (/^<details\b/.test(line.trim())) depth++;
    else if (line.trim() === "</details>") depth--;
    else if (depth === 0) lines.push(line);
  }
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

async function printComments(served, number, print, note = "") {
  const comments = await github(served, `issues/${number}/comments?per_page=100`);
  for (const c of comments) {
    const edited = c.updated_at !== c.created_at ? ", edited" : "";
    print(`\n─── #${number} · comment by ${c.user.login}${edited}${note} ───`);
    print(shown(c.body));
  }
  return comments.length;
}

async function printCheckRuns(served, sha, where, print) {
  const { check_runs: runs } = await github(served, `commits/${sha}/check-runs?per_page=100`);
  print(`\n─── check runs on ${sha.slice(0, 7)} (${where}) ───`);
  for (const r of runs)
    print([r.name, r.status, r.conclusion, r.output.title].filter(Boolean).join(" · "));
  return runs.length;
}

function ran(run, print) {
  print(`   the action: exit ${run.code}, result ${run.outputs.result ?? "(none)"}`);
  if (run.code !== 0) {
    print(run.log);
    throw new Error("the action failed: its log is above");
  }
}

// ---- the loop --------------------------------------------------------------------------------

async function loop(served, workspace, print) {
  const pull = await github(served, `pulls/${PULL}`);
  print(
    `\nStep 1 · Pull request #${PULL} changes ${POLICY}; the action plans it (event pull_request)`,
  );
  ran(
    await runAction(served, workspace, {
      event: "pull_request",
      payload: pullRequestEvent(pull, false),
      sha: "e".repeat(40),
      ref: `refs/pull/${PULL}/merge`,
      token: TOKEN,
    }),
    print,
  );
  await printComments(served, PULL, print);
  await printCheckRuns(served, pull.head.sha, "its head", print);

  const fork = await github(served, `pulls/${FORK_PULL}`);
  print(
    `\nStep 2 · Pull request #${FORK_PULL}, from a fork, changes ${POLICY}; its token may only read`,
  );
  const forked = await runAction(served, workspace, {
    event: "pull_request",
    payload: pullRequestEvent(fork, true),
    sha: "d".repeat(40),
    ref: `refs/pull/${FORK_PULL}/merge`,
    token: FORK_TOKEN,
  });
  ran(forked, print);
  const comments = (await github(served, `issues/${FORK_PULL}/comments`)).length;
  const { total_count: checks } = await github(served, `commits/${fork.head.sha}/check-runs`);
  print(
    comments === 0 && checks === 0
      ? `   #${FORK_PULL} has no comment and no check run: GitHub refused the writes (403)`
      : `   #${FORK_PULL} has ${comments} comment(s) and ${checks} check run(s)`,
  );
  const warning = forked.log
    .split("\n")
    .find((l) => l.startsWith("::warning::The token may not write"));
  if (warning) print(`   the log warns: ${warning.slice("::warning::".length)}`);
  const summary = forked.summary.trim().split("\n");
  print(`   the plan is in the job summary (${summary.length} lines), which begins:`);
  for (const line of summary.slice(0, 6)) print(`   │ ${line}`);

  print(`\nStep 3 · Merge #${PULL}; the push to main applies it (event push)`);
  const merge = await github(served, `pulls/${PULL}/merge`, {
    method: "PUT",
    body: JSON.stringify({ sha: pull.head.sha, merge_method: "merge" }),
  });
  print(`   #${PULL} is merged (merge commit ${merge.sha.slice(0, 7)})`);
  ran(
    await runAction(served, workspace, {
      event: "push",
      payload: pushEvent(merge.sha),
      sha: merge.sha,
      ref: "refs/heads/main",
      token: TOKEN,
    }),
    print,
  );
  await printComments(served, PULL, print);
  await printCheckRuns(served, merge.sha, "the merge commit", print);
}

async function main() {
  const { values } = parseArgs({
    options: { keep: { type: "boolean" }, out: { type: "string" } },
  });
  const out = resolve(values.out ?? join(ROOT, "out/demo-pr"));
  const print = (line) => process.stdout.write(`${line}\n`);
  const dir = mkdtempSync(join(tmpdir(), "noderoll-demo-pr-"));
  const workspace = join(dir, "checkout");
  mkdirSync(join(workspace, "policies"), { recursive: true });
  writeFileSync(join(workspace, POLICY), demoPolicy());
  print(
    "noderoll: the pull-request loop, on this machine — the bundled action (dist/index.js) run",
  );
  print("as GitHub runs it, against `noderoll sandbox serve` (the demo cluster, and a GitHub).");
  print(`The policy is ${POLICY} with the waits between nodes cut short: the action waits them`);
  print("in real time, while the sandbox's time jumps ahead whenever the action waits, so the");
  print("roll that would take half an hour takes about a minute here.");
  let served;
  try {
    served = await serve(dir);
    const page = `${served.url}/github/`;
    print(`\nsandbox serve: ${served.url}; the pull requests in a browser: ${page}`);
    await loop(served, workspace, print);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, "github.html"), await (await fetch(page)).text());
    print(`\nThe page ${page} is saved as ${join(out, "github.html")}.`);
    if (values.keep) {
      print(`Serving on ${served.url} until Ctrl-C: open ${page}`);
      await new Promise((done) => (process.once("SIGINT", done), process.once("SIGTERM", done)));
    } else print("To keep it served and open it live: npm run demo:pr -- --keep");
  } finally {
    await served?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (Number(process.versions.node.split(".")[0]) < 24) {
  console.error(
    `noderoll needs Node.js 24 or later; this is ${process.version}. npm ci installs it: npm run demo:pr`,
  );
  process.exit(2);
}
main().then(
  () => process.exit(0),
  (e) => {
    console.error(`demo:pr: ${e.message}`);
    process.exit(1);
  },
);
