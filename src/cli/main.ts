// The command line. Exit codes: 0 success, 1 invalid input or failure, 2 usage (plan:
// --detailed-exitcode 2 = changes), 3 apply stopped early (run it again to continue).
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { policyJsonSchemaText } from "../policy/index.js";
import { describeFailure } from "../ports/index.js";
import { generatePolicyYaml, generateScenarioYaml } from "../sandbox/scenarios/generate.js";
import { loadAccount, loadWorld } from "./sandbox-world.js";
import { runApply } from "./apply.js";
import { GroupsError, hintContext, UsageError } from "./args.js";
import { followParent, HeapTooSmall, relaunch } from "./heap.js";
import { hintFor } from "./hints.js";
import { runPlan } from "./plan.js";
import { renderValidationText, validateFiles } from "./validate.js";

/** Each command's usage, for `noderoll CMD --help` and `noderoll help CMD`. */
const COMMANDS: Record<string, string> = {
  validate: `validate POLICY... [--format text|json]
    Check policy files; every error as file:line:col: path: message.
    Exit 0 valid, 1 invalid, 2 usage.`,
  plan: `plan --policy P [--sandbox S] [--format text|markdown|json] [--detailed-exitcode]
     [--groups a,b] [--force] [--kubeconfig PATH]
     [--rehearse [--rehearse-events FILE.jsonl] [--rehearse-timing boot=90s,...]]
    What apply would do; changes nothing. Exit 0 (with --detailed-exitcode: 0 no changes,
    2 changes), 1 error. --rehearse also runs the roll on a sandbox twin of the cluster
    in virtual time and shows what it does to every workload (docs/rehearsal.md).`,
  apply: `apply --policy P [--sandbox S] [--events FILE.jsonl] [--groups a,b] [--force --reason TEXT]
      [--max-duration 5h30m] [--ignore-window] [--lock-wait 10m] [--out DIR] [--kubeconfig PATH]
      [--quiet]
    Roll the nodes, with live progress. Exit 0 done, 1 failed, 3 stopped early (cancelled,
    --max-duration, window closed: run it again to continue), 2 usage.`,
  sandbox: `sandbox serve [--scenario S]... [--port N] [--kubeconfig PATH] [--speed X]
    The sandbox over HTTP on 127.0.0.1 (Kubernetes, EKS, Auto Scaling, EC2, STS, GitHub);
    Ctrl-C stops it. --scenario again: several clusters in one AWS account and region, each
    Kubernetes API on a TLS port and with a CA of its own; --kubeconfig PATH is the first
    cluster's, each other's is PATH with its name inserted (kc.yaml: kc.NAME.yaml).
sandbox generate --nodes N --groups G --pods-per-node P [--seed S] [--policy-out FILE]
    A large synthetic scenario on stdout; with --policy-out, a policy covering its groups
    (plan it: plan --policy FILE --sandbox SCENARIO).`,
  schema: `schema
    The policy's JSON Schema (for editors without network: save it and point
    "# yaml-language-server: $schema=./upgrade-policy.schema.json" at the file).`,
  help: `help [COMMAND]
    This text, or one command's.`,
};

const USAGE = `usage: noderoll <command> [options]     (noderoll help <command>, noderoll --version)

${Object.values(COMMANDS)
  .map((u) => `  ${u.replace(/\n/g, "\n  ")}`)
  .join("\n")}

Without --sandbox, plan and apply read the live cluster: AWS from the default credential chain,
Kubernetes from --kubeconfig or from EKS itself. --sandbox demo is the built-in demo cluster.
`;

function usageOf(command: string | undefined): string {
  if (command === undefined) return USAGE;
  const text = COMMANDS[command];
  if (!text)
    throw new UsageError(`no command "${command}"; commands: ${Object.keys(COMMANDS).join(", ")}`);
  return `usage: noderoll ${text}\n`;
}

/** The package's version, from the package.json beside dist/ (or the source tree). */
function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version?: string;
    };
    if (pkg.version) return pkg.version;
  } catch {
    // run from elsewhere: fall through
  }
  return "unknown";
}

function runValidate(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: "string", default: "text" } },
  });
  if (positionals.length === 0) throw new UsageError("validate needs at least one policy file");
  if (values.format !== "text" && values.format !== "json")
    throw new UsageError(`--format must be text or json, not ${values.format}`);
  const reports = validateFiles(positionals);
  process.stdout.write(
    values.format === "json"
      ? `${JSON.stringify({ files: reports }, null, 2)}\n`
      : renderValidationText(reports),
  );
  return reports.every((r) => r.valid) ? 0 : 1;
}

function count(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} takes a whole number >= 1`);
  return n;
}

/** Serve until SIGINT/SIGTERM; the endpoints and the variables to export go to stdout. */
async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      scenario: { type: "string", multiple: true },
      port: { type: "string" },
      kubeconfig: { type: "string" },
      speed: { type: "string" },
    },
  });
  const speed = values.speed === undefined ? 1 : Number(values.speed);
  if (!Number.isFinite(speed) || speed < 0)
    throw new UsageError("--speed takes a number >= 0 (virtual seconds per real second)");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError("--port takes a port number");
  // Loaded here, not at start-up: its HTTP server's module (node:http) brings in undici when
  // imported, ~50 ms before any other command could begin.
  const { MAX_SERVED_CLUSTERS, serveSandbox } = await import("../sandbox/wire/serve.js");
  const scenarios = values.scenario ?? [];
  if (scenarios.length > MAX_SERVED_CLUSTERS)
    throw new UsageError(
      `--scenario: at most ${MAX_SERVED_CLUSTERS} clusters are served at once (each has a TLS identity, a certificate authority, of its own), not ${scenarios.length}`,
    );
  const served = scenarios.length > 1 ? loadAccount(scenarios) : loadWorld(scenarios[0]);
  const server = await serveSandbox(served, {
    port,
    speed,
    ...(values.kubeconfig && { kubeconfigPath: values.kubeconfig }),
  });
  process.stdout.write(server.describe());
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  return 0;
}

async function runSandbox(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "generate") {
    const { values } = parseArgs({
      args: rest,
      options: {
        nodes: { type: "string" },
        groups: { type: "string" },
        "pods-per-node": { type: "string" },
        seed: { type: "string" },
        "policy-out": { type: "string" },
      },
    });
    const opts = {
      nodes: count("nodes", values.nodes),
      groups: count("groups", values.groups, 4),
      podsPerNode: count("pods-per-node", values["pods-per-node"], 30),
      seed: count("seed", values.seed, 1),
    };
    // The policy first: a path that cannot be written fails before the scenario is printed.
    if (values["policy-out"]) writeFileSync(values["policy-out"], generatePolicyYaml(opts));
    process.stdout.write(generateScenarioYaml(opts));
    return 0;
  }
  if (sub === "serve") return serve(rest);
  throw new UsageError(
    sub ? `unknown sandbox command "${sub}"` : "sandbox needs a command: serve or generate",
  );
}

async function dispatch(command: string | undefined, rest: string[]): Promise<number> {
  switch (command) {
    case "validate":
      return runValidate(rest);
    case "plan":
      return await runPlan(rest);
    case "apply":
      return await runApply(rest);
    case "sandbox":
      return await runSandbox(rest);
    case "schema":
      process.stdout.write(policyJsonSchemaText());
      return 0;
    case "help":
      process.stdout.write(usageOf(rest[0]));
      return 0;
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return 0;
    case "--version":
    case "-V":
      process.stdout.write(`noderoll ${version()}\n`);
      return 0;
    default:
      throw new UsageError(command ? `unknown command "${command}"` : "no command given");
  }
}

/** The command again with a higher heap limit (src/cli/heap.ts); 1 where it cannot be started. */
async function relaunchOrSay(e: HeapTooSmall, argv: string[]): Promise<number> {
  try {
    return await relaunch(e, [process.argv[1] as string, ...argv]);
  } catch (err) {
    process.stderr.write(`noderoll: could not run again: ${(err as Error).message}\n`);
    return 1;
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    // `noderoll CMD --help` is a question, not a mistake: answer it before parsing options.
    if (command && COMMANDS[command] && (rest.includes("--help") || rest.includes("-h"))) {
      process.stdout.write(usageOf(command));
      return 0;
    }
    return await dispatch(command, rest);
  } catch (e) {
    if (e instanceof HeapTooSmall) return relaunchOrSay(e, argv);
    if (e instanceof GroupsError) {
      process.stderr.write(`noderoll: ${e.message}\n`);
      return 2;
    }
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      const help = command && COMMANDS[command] ? usageOf(command) : USAGE;
      process.stderr.write(`noderoll: ${(e as Error).message}\n\n${help}`);
      return 2;
    }
    // Which API and call failed, after how many attempts, when it was an API call; and a hint.
    const hint = hintFor(e, { ...hintContext, env: process.env });
    process.stderr.write(`noderoll: ${describeFailure(e)}\n${hint ? `hint: ${hint}\n` : ""}`);
    return 1;
  }
}

followParent();
process.exitCode = await main(process.argv.slice(2));
