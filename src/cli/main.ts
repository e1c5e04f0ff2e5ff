// The command line. Exit codes: 0 success, 1 invalid input or failure, 2 usage (plan:
// --detailed-exitcode 2 = changes), 3 apply stopped early (run it again to continue).
import { parseArgs } from "node:util";
import { policyJsonSchemaText } from "../policy/index.js";
import { describeFailure } from "../ports/index.js";
import { generateScenarioYaml } from "../sandbox/scenarios/generate.js";
import { serveSandbox } from "../sandbox/wire/serve.js";
import { loadWorld } from "./sandbox-world.js";
import { runApply } from "./apply.js";
import { GroupsError, UsageError } from "./args.js";
import { runPlan } from "./plan.js";
import { renderValidationText, validateFiles } from "./validate.js";

const USAGE = `usage: noderoll <command> [options]

commands:
  validate POLICY... [--format text|json]        check policy files; exit 0 valid, 1 invalid, 2 usage
  plan --policy P [--sandbox S] [--format text|markdown|json] [--detailed-exitcode]
       [--groups a,b] [--force] [--kubeconfig PATH]
                                                 what apply would do; changes nothing
  apply --policy P [--sandbox S] [--events FILE.jsonl] [--groups a,b] [--force --reason TEXT]
        [--max-duration 5h30m] [--ignore-window] [--lock-wait 10m] [--out DIR] [--kubeconfig PATH]
                                                 roll the nodes; exit 0 done, 1 failed, 3 stopped early
  sandbox serve [--scenario S] [--port N] [--kubeconfig PATH] [--speed X]
                                                 the sandbox over HTTP on 127.0.0.1 (Kubernetes, EKS,
                                                 Auto Scaling, EC2, STS, GitHub); Ctrl-C stops it
  sandbox generate --nodes N --groups G --pods-per-node P [--seed S]
                                                 a large synthetic scenario on stdout
  schema                                         the policy's JSON Schema (for editors)

Without --sandbox, plan and apply read the live cluster: AWS from the default credential chain,
Kubernetes from --kubeconfig or from EKS itself. --sandbox demo is the built-in demo cluster.
`;

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
      scenario: { type: "string" },
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
  const server = await serveSandbox(loadWorld(values.scenario), {
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
      },
    });
    const yaml = generateScenarioYaml({
      nodes: count("nodes", values.nodes),
      groups: count("groups", values.groups, 4),
      podsPerNode: count("pods-per-node", values["pods-per-node"], 30),
      seed: count("seed", values.seed, 1),
    });
    process.stdout.write(yaml);
    return 0;
  }
  if (sub === "serve") return serve(rest);
  throw new UsageError(
    sub ? `unknown sandbox command "${sub}"` : "sandbox needs a command: serve or generate",
  );
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
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
      case "--help":
      case "-h":
        process.stdout.write(USAGE);
        return 0;
      default:
        throw new UsageError(command ? `unknown command "${command}"` : "no command given");
    }
  } catch (e) {
    if (e instanceof GroupsError) {
      process.stderr.write(`noderoll: ${e.message}\n`);
      return 2;
    }
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`noderoll: ${(e as Error).message}\n\n${USAGE}`);
      return 2;
    }
    // Which API and call failed, after how many attempts, when it was an API call.
    process.stderr.write(`noderoll: ${describeFailure(e)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
