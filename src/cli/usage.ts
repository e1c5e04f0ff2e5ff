// What each command takes and does: `noderoll help`, `noderoll CMD --help`, and the usage after
// a mistake.
import { closest } from "../policy/suggest.js";
import { UsageError } from "./args.js";
import {
  ABORT_OPTIONS,
  APPLY_ARGUMENTS,
  APPLY_OPTIONS,
  CONTROL_OPTIONS,
  FLEET_OPTIONS,
  flagLines,
  GENERATE_OPTIONS,
  SERVE_OPTIONS,
  VALIDATE_OPTIONS,
  PLAN_OPTIONS,
} from "./flags.js";

/** `sandbox`'s two subcommands, each its own usage (`noderoll sandbox generate --help`). */
const SANDBOX = {
  serve: `sandbox serve [--scenario S]... [--port N] [--kubeconfig PATH] [--speed X]
      [--repo OWNER/NAME] [--pull N:FILE[,FILE]...]... [--read-only-token TOKEN]...
    The sandbox over HTTP on 127.0.0.1 (Kubernetes, EKS, Auto Scaling, EC2, CloudWatch, SSM,
    STS, GitHub, and Prometheus at /prometheus); Ctrl-C stops it. Several scenarios: several
    clusters in one AWS account and region, each Kubernetes API on a TLS port and with a CA of
    its own; a kubeconfig for each (kc.yaml: kc.NAME.yaml for the others). GitHub: merge a pull
    request with PUT /repos/OWNER/NAME/pulls/N/merge; the pull requests, their comments and
    check runs are on a page at /github/ (try the loop: npm run demo:pr).
${flagLines(SERVE_OPTIONS)}`,
  generate: `sandbox generate --nodes N --groups G --pods-per-node P [--seed S] [--policy-out FILE]
     [--cluster NAME]
    A large synthetic scenario on stdout; with --policy-out, a policy covering its groups
    (plan it: plan --policy FILE --sandbox SCENARIO). --cluster names the cluster (default
    generated) and starts its groups' names with it: a fleet's clusters share one account.
${flagLines(GENERATE_OPTIONS)}`,
} as const;

/** Each command's usage, for `noderoll CMD --help` and `noderoll help CMD`. */
export const COMMANDS: Record<string, string> = {
  validate: `validate FILE... [--format text|json]
    Check policy files, and fleet files with the policies they name; every error as
    file:line:col: path: message. Exit 0 valid, 1 invalid, 2 usage.
${flagLines(VALIDATE_OPTIONS)}`,
  plan: `plan --policy P [--sandbox S] [--format text|markdown|json] [--detailed-exitcode] [--out FILE]
     [--groups a,b] [--replace-all] [--delete-after-drain-timeout] [--kubeconfig PATH]
     [--rehearse [--rehearse-events FILE.jsonl] [--rehearse-timing boot=90s,...]]
    What apply would do; changes nothing. Exit 0 (with --detailed-exitcode: 0 no changes,
    2 changes), 1 error. --rehearse also runs the roll on a sandbox twin of the cluster
    in virtual time and shows what it does to every workload (docs/rehearsal.md).
${flagLines(PLAN_OPTIONS)}`,
  apply: `apply [FILE] [--policy P] [--sandbox S] [--events FILE.jsonl] [--groups a,b]
      [--replace-all] [--delete-after-drain-timeout] [--reason TEXT]
      [--max-duration 5h30m] [--ignore-window] [--lock-wait 10m] [--out DIR] [--kubeconfig PATH]
      [--quiet] [--auto-approve]
    Roll the nodes, with live progress: the policy's (--policy P), or exactly the plan saved in
    FILE by \`plan --out FILE\` (FILE fixes the policy and the run's options; it is refused,
    changing nothing, if a decision in it no longer holds — plan again). On a terminal it shows
    the plan and asks first (only "yes" rolls; --auto-approve, or a saved plan, does not ask);
    off a terminal it asks nothing. Exit 0 done, 1 failed (or aborted, or a saved plan refused),
    3 stopped early (cancelled, --max-duration, window closed: run it again to continue; paused:
    resume it), 2 usage. While a pause or an abort stands on the cluster's Lease, apply refuses
    to start.
${flagLines(APPLY_OPTIONS, APPLY_ARGUMENTS)}`,
  pause: `pause --policy P [--reason TEXT] [--sandbox S] [--kubeconfig PATH]
    Ask the run that holds the cluster, from this machine or any other, to stop at its next node
    boundary: it starts no new node (no cordon, no detach), lets the drains in flight finish, and
    ends "paused" (exit 3). Every apply refuses to start until resume. Exit 0 asked (and says
    whether a run holds the cluster now), 1 error, 2 usage.
${flagLines(CONTROL_OPTIONS)}`,
  abort: `abort --policy P [--rollback] [--reason TEXT] [--sandbox S] [--kubeconfig PATH]
    As pause, but the run ends "aborted", a failure (exit 1). Every apply refuses to start until
    resume. With --rollback, the groups then go back to what they ran before: the run holding
    the cluster rolls back once stopped; with none holding it, this command rolls back (exit
    codes as rollback's). Exit 0 asked, 1 error, 2 usage.
${flagLines(ABORT_OPTIONS)}`,
  rollback: `rollback --policy P [--groups a,b] [--reason TEXT] [any flag of apply]
    Roll the groups a roll changed back to what they ran before it (recorded on the cluster
    when it began): an apply with those targets, the same budgets, drain rules and gates.
    A pause or an abort standing on the Lease holds it, except the abort that asked for it.
    Exit codes as apply's; 1 when nothing is recorded to roll back.
${flagLines(APPLY_OPTIONS)}`,
  resume: `resume --policy P [--reason TEXT] [any flag of apply]
    Clear a pause or an abort standing on the cluster's Lease, then apply with the same flags
    as apply (it picks up where the stopped run left off). Exit codes as apply's.
${flagLines(APPLY_OPTIONS)}`,
  fleet: `fleet plan|apply|pause|resume --fleet FILE [--sandbox S]... [--format text|markdown|json]
      [--retry-failed] [--only POLICY] [--reason TEXT] [--run-id ID]
    One release promoted across the fleet file's clusters, stage by stage (docs/fleet.md). plan:
    per stage and cluster, the release it runs and the one pinned, its state, and what the next
    run starts (json: its "due" list is a workflow's matrix). apply: start what is due now —
    within maxConcurrency, after the stage above soaked — roll it, record it on the cluster, and
    return (it never waits out a soak; run it again, on a schedule); --only POLICY rolls that
    cluster alone, if due. pause/resume: hold or release every later start. Exit 0 done or
    nothing due, 1 invalid files or a roll failed, 3 a roll stopped early, 2 usage.
${flagLines(FLEET_OPTIONS)}`,
  sandbox: `${SANDBOX.serve}\n${SANDBOX.generate}`,
  schema: `schema
    The policy's JSON Schema (for editors without network: save it and point
    "# yaml-language-server: $schema=./upgrade-policy.schema.json" at the file).`,
  help: `help [COMMAND]
    This text, or one command's.`,
};

export const USAGE = `usage: noderoll <command> [options]     (noderoll help <command>, noderoll --version)

${Object.values(COMMANDS)
  .map((u) => `  ${u.replace(/\n/g, "\n  ")}`)
  .join("\n")}

Without --sandbox, plan, apply, pause, abort, resume and rollback reach the live cluster: AWS from the
default credential chain, Kubernetes from --kubeconfig or from EKS itself. --sandbox demo is the
built-in demo cluster.
`;

/** "unknown command "aply"; did you mean "apply"?" */
export function unknownCommand(command: string): string {
  const guess = closest(command, Object.keys(COMMANDS));
  return `unknown command "${command}"${guess ? `; did you mean "${guess}"?` : ""}`;
}

export function usageOf(command: string | undefined, sub?: string): string {
  if (command === undefined) return USAGE;
  // `sandbox generate --help`: that subcommand's alone.
  if (command === "sandbox" && (sub === "serve" || sub === "generate"))
    return `usage: noderoll ${SANDBOX[sub]}\n`;
  const text = COMMANDS[command];
  if (!text)
    throw new UsageError(`no command "${command}"; commands: ${Object.keys(COMMANDS).join(", ")}`);
  return `usage: noderoll ${text}\n`;
}
