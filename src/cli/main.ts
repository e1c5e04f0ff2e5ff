// The command line: `noderoll validate / schema` (plan, apply and the sandbox come next).
// Exit codes: 0 success, 1 the input is invalid or the work failed, 2 usage.
import { parseArgs } from "node:util";
import { policyJsonSchemaText } from "../policy/index.js";
import { renderValidationText, validateFiles } from "./validate.js";

const USAGE = `usage: noderoll <command> [options]

commands:
  validate POLICY... [--format text|json]   check policy files; exit 0 valid, 1 invalid, 2 usage
  schema                                    print the policy's JSON Schema (for editors)
`;

class UsageError extends Error {}

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

export function main(argv: string[]): number {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "validate":
        return runValidate(rest);
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
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`noderoll: ${(e as Error).message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}

process.exitCode = main(process.argv.slice(2));
