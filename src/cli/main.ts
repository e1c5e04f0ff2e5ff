// The command line. Exit codes: 0 success, 1 invalid input or failure (an aborted roll too), 2
// usage (plan: --detailed-exitcode 2 = changes), 3 apply stopped early (run it again to
// continue; paused: resume it).
import { policyJsonSchemaText } from "../policy/index.js";
import { describeFailure } from "../ports/index.js";
import { runApply } from "./apply.js";
import { runControl } from "./control.js";
import { runFleet } from "./fleet.js";
import { GroupsError, UsageError } from "./args.js";
import { followParent, HeapTooSmall, relaunch } from "./heap.js";
import { hintFor, type HintContext } from "./hints.js";
import { runPlan } from "./plan.js";
import { runSandbox } from "./sandbox.js";
import { COMMANDS, unknownCommand, USAGE, usageOf } from "./usage.js";
import { runValidate } from "./validate.js";
import { noderollVersion } from "./version.js";

async function dispatch(
  command: string | undefined,
  rest: string[],
  hints: HintContext,
): Promise<number> {
  switch (command) {
    case "validate":
      return runValidate(rest);
    case "plan":
      return await runPlan(rest, hints);
    case "apply":
      return await runApply(rest, hints);
    case "resume":
    case "rollback":
      return await runApply(rest, hints, command);
    case "pause":
    case "abort":
      return await runControl(command, rest, hints);
    case "sandbox":
      return await runSandbox(rest);
    case "fleet":
      return await runFleet(rest, hints);
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
      process.stdout.write(`noderoll ${noderollVersion()}\n`);
      return 0;
    default:
      throw new UsageError(command ? unknownCommand(command) : "no command given");
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
  // What a hint under a raw error may name: the policy's cluster and region, the kubeconfig.
  const hints: HintContext = {};
  try {
    // `noderoll CMD --help` is a question, not a mistake: answer it before parsing options.
    if (command && COMMANDS[command] && (rest.includes("--help") || rest.includes("-h"))) {
      process.stdout.write(usageOf(command, rest[0]));
      return 0;
    }
    return await dispatch(command, rest, hints);
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
    const hint = hintFor(e, { ...hints, env: process.env });
    process.stderr.write(`noderoll: ${describeFailure(e)}\n${hint ? `hint: ${hint}\n` : ""}`);
    return 1;
  }
}

followParent();
process.exitCode = await main(process.argv.slice(2));
