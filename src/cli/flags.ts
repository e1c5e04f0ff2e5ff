// The flags of plan, apply, pause, abort and resume, each with the argument it takes and what it
// does: one table, from which the commands parse their arguments (node:util parseArgs ignores
// `arg` and `help`) and `noderoll CMD --help` lists every flag (test/cli/help-flags.test.ts). No
// import beyond types: `--help` loads this and nothing heavy.

/** What a run may force, for plan and apply; `force` is declared only to be refused clearly. */
export const RUN_FLAGS = {
  "replace-all": {
    type: "boolean",
    default: false,
    help: "replace every node of the groups, whatever its version (kOps' --force); apply needs --reason",
  },
  "delete-after-drain-timeout": {
    type: "boolean",
    default: false,
    help: "what a drain leaves at its timeout is deleted, past PodDisruptionBudgets (EKS's force); apply needs --reason",
  },
  force: {
    type: "boolean",
    default: false,
    help: "refused: it meant three things; use --replace-all, --delete-after-drain-timeout or the policy's unmanagedPods",
  },
} as const;

/** Which cluster, and how it is reached: for every command that connects to one. */
const CONNECT_FLAGS = {
  policy: { type: "string", arg: "FILE", help: "the upgrade policy (required)" },
  sandbox: {
    type: "string",
    arg: "S",
    help: "a sandbox scenario instead of a live cluster: demo, or a scenario file",
  },
  kubeconfig: {
    type: "string",
    arg: "PATH",
    help: "the Kubernetes API from this kubeconfig; default: the endpoint EKS names, with an EKS token",
  },
} as const;

/** Where the cluster is read from, for plan and apply. */
const SOURCE_FLAGS = {
  ...CONNECT_FLAGS,
  groups: { type: "string", arg: "a,b", help: "only these groups of the policy" },
} as const;

export const PLAN_OPTIONS = {
  ...SOURCE_FLAGS,
  format: {
    type: "string",
    default: "text",
    arg: "text|markdown|json",
    help: "how to print the plan",
  },
  "detailed-exitcode": {
    type: "boolean",
    default: false,
    help: "exit 0 when nothing would change, 2 when something would",
  },
  out: {
    type: "string",
    arg: "FILE",
    help: "also save the plan to FILE, for `apply FILE` to carry out exactly (refused there if a decision in it no longer holds)",
  },
  ...RUN_FLAGS,
  rehearse: {
    type: "boolean",
    default: false,
    help: "also run the roll on a sandbox twin of the cluster, in virtual time (docs/rehearsal.md)",
  },
  "rehearse-events": {
    type: "string",
    arg: "FILE.jsonl",
    help: "write the rehearsal's event log here",
  },
  "rehearse-timing": {
    type: "string",
    arg: "boot=90s,...",
    help: "timings the rehearsal assumes where the cluster cannot show them",
  },
} as const;

export const APPLY_OPTIONS = {
  ...SOURCE_FLAGS,
  policy: {
    type: "string",
    arg: "FILE",
    help: "the upgrade policy (required; with `apply FILE`, the saved plan names it)",
  },
  events: {
    type: "string",
    arg: "FILE.jsonl",
    help: "write the roll's event log here, a line an event",
  },
  ...RUN_FLAGS,
  reason: {
    type: "string",
    arg: "TEXT",
    help: "why (required with a forced roll); recorded with the result",
  },
  "max-duration": {
    type: "string",
    arg: "5h30m",
    help: "start no node after this long; exit 3, run again to continue",
  },
  "ignore-window": {
    type: "boolean",
    default: false,
    help: "start nodes outside the policy's maintenance window",
  },
  "lock-wait": {
    type: "string",
    arg: "10m",
    help: "wait this long for another run's cluster lock (default: do not wait)",
  },
  "run-id": {
    type: "string",
    arg: "ID",
    help: "this run's name on the cluster lock (default: host and process)",
  },
  out: { type: "string", arg: "DIR", help: "write the plan, the events and the report here" },
  quiet: { type: "boolean", default: false, help: "do not print the plan before rolling" },
  "auto-approve": {
    type: "boolean",
    default: false,
    help: "on a terminal, roll without asking (off a terminal nothing is asked)",
  },
} as const;

/** apply's one argument, listed in its --help above its flags. */
export const APPLY_ARGUMENTS = {
  FILE: "a plan saved by `plan --out FILE`: carried out exactly, without asking; refused (exit 1, nothing changed) if a decision in it no longer holds. It fixes --policy, --groups, --replace-all and --delete-after-drain-timeout",
} as const;

/** The flags a saved plan fixes: given beside one, they are refused (as Terraform refuses
 * planning options beside a saved plan). */
export const FIXED_BY_SAVED_PLAN = [
  "policy",
  "groups",
  "replace-all",
  "delete-after-drain-timeout",
] as const;

/** pause and abort: the cluster, and why (resume is an apply: it takes apply's flags). */
export const CONTROL_OPTIONS = {
  ...CONNECT_FLAGS,
  reason: {
    type: "string",
    arg: "TEXT",
    help: "why; recorded on the cluster's Lease and in the stopped run's result",
  },
} as const;

/** abort: pause's flags, and whether the groups go back to what they ran before. */
export const ABORT_OPTIONS = {
  ...CONTROL_OPTIONS,
  rollback: {
    type: "boolean",
    help: "then roll back: the run holding the cluster does, once stopped; with none, this command does (as noderoll rollback)",
  },
} as const;

/**
 * "    --policy FILE            the upgrade policy (required)", a line a flag, aligned; the
 * command's arguments (`FILE`), if any, first.
 */
export function flagLines(
  options: Readonly<Record<string, { arg?: string; help: string }>>,
  args: Readonly<Record<string, string>> = {},
): string {
  const rows = [
    ...Object.entries(args),
    ...Object.entries(options).map(([name, o]) => [`--${name}${o.arg ? ` ${o.arg}` : ""}`, o.help]),
  ];
  const width = Math.max(...rows.map(([head]) => (head as string).length)) + 2;
  return rows.map(([head, help]) => `    ${(head as string).padEnd(width)}${help}`).join("\n");
}

/** `noderoll fleet plan|apply|pause|resume`: the fleet, and where its clusters are. */
export const FLEET_OPTIONS = {
  fleet: { type: "string", arg: "FILE", help: "the fleet file (required)" },
  sandbox: {
    type: "string",
    multiple: true,
    arg: "S",
    help: "sandbox scenarios instead of live clusters, one per cluster (again for each): one account, one virtual clock",
  },
  format: {
    type: "string",
    default: "text",
    arg: "text|markdown|json",
    help: "how to print the fleet's plan (json: its `due` list is a workflow's matrix)",
  },
  "retry-failed": {
    type: "boolean",
    default: false,
    help: "the clusters that failed are due again, with the same pinned release",
  },
  every: {
    type: "string",
    arg: "1h",
    help: "apply with --sandbox: run again every this long of virtual time until the fleet is done, halted or paused — a whole rollout, soaks included, in seconds",
  },
  only: {
    type: "string",
    arg: "POLICY",
    help: "apply: roll only this policy's cluster, and only if the fleet says it is due (a matrix job)",
  },
  reason: {
    type: "string",
    arg: "TEXT",
    help: "why (pause: recorded on every cluster of the fleet)",
  },
  "run-id": {
    type: "string",
    arg: "ID",
    help: "this run's name in the fleet's records and the clusters' locks (default: host and process)",
  },
} as const;

/** `noderoll validate POLICY...`. */
export const VALIDATE_OPTIONS = {
  format: {
    type: "string",
    default: "text",
    arg: "text|json",
    help: "how to print the result: each error as file:line:col, or JSON",
  },
} as const;

/** `noderoll sandbox serve`. */
export const SERVE_OPTIONS = {
  scenario: {
    type: "string",
    multiple: true,
    arg: "S",
    help: "demo (default) or a scenario file; again for each more cluster (at most 8, one account)",
  },
  port: { type: "string", arg: "N", help: "the HTTP port on 127.0.0.1 (default: any free one)" },
  kubeconfig: {
    type: "string",
    arg: "PATH",
    help: "write the first cluster's kubeconfig here, each other's with its name inserted",
  },
  speed: {
    type: "string",
    arg: "X",
    help: "virtual seconds per real second (default 1; time also jumps while every client waits)",
  },
  repo: {
    type: "string",
    arg: "OWNER/NAME",
    help: "the repository the GitHub API serves (default octo-org/infra)",
  },
  pull: {
    type: "string",
    multiple: true,
    arg: "N:FILE[,FILE]",
    help: "an open pull request N changing these files; again for each",
  },
  "read-only-token": {
    type: "string",
    multiple: true,
    arg: "TOKEN",
    help: "a token that may only read (a fork's); again for each",
  },
} as const;

/** `noderoll sandbox generate`. */
export const GENERATE_OPTIONS = {
  nodes: { type: "string", arg: "N", help: "nodes in all (required)" },
  groups: { type: "string", arg: "G", help: "node groups to spread them over (default 4)" },
  "pods-per-node": { type: "string", arg: "P", help: "workload pods per node (default 30)" },
  seed: { type: "string", arg: "S", help: "the same scenario for the same seed (default 1)" },
  cluster: {
    type: "string",
    arg: "NAME",
    help: "the cluster's name (default generated), also starting its groups' names",
  },
  "policy-out": {
    type: "string",
    arg: "FILE",
    help: "also write a policy covering the scenario's groups here",
  },
} as const;
