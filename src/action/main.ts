// The GitHub Action entry (dist/index.js, action.yml): sets the process up — SIGINT / SIGTERM (a
// cancelled workflow) stop the roll cleanly — runs the action (run.ts: the event decides
// whether the policies are planned or applied), and reports: the outputs and the job summary,
// whatever happened.
import * as core from "@actions/core";
import { errorMessage } from "./context.js";
import { emptyOutputs, run, type RunResult } from "./run.js";
import { JobSummary } from "./summary.js";

/**
 * After a cancellation, how long the adapters stay open for the run to give the lock back and
 * report (the engine gives the lock at most 5 s): GitHub sends SIGTERM 7.5 s after SIGINT and
 * kills the job 2.5 s later (GitHub docs, "Canceling a workflow").
 */
const CLOSE_AFTER_CANCEL_MS = 6_500;

async function main(): Promise<void> {
  const controller = new AbortController();
  const adapters = new AbortController();
  const stop = (signal: string) => {
    if (controller.signal.aborted) return;
    core.warning(
      `${signal}: the workflow was cancelled; stopping now, abandoning what is in flight. The next run continues where this one stopped.`,
    );
    controller.abort();
    setTimeout(() => adapters.abort(), CLOSE_AFTER_CANCEL_MS).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  const summary = new JobSummary();
  const outputs = emptyOutputs();
  let result: RunResult = "failure";
  try {
    result = await run(summary, outputs, controller, adapters.signal);
  } catch (e) {
    core.setFailed(`noderoll: ${errorMessage(e)}`);
    summary.add(`## noderoll\n\n❌ ${errorMessage(e)}\n`);
  } finally {
    for (const [name, value] of Object.entries({ ...outputs, result })) core.setOutput(name, value);
    try {
      await summary.write();
    } catch (e) {
      core.warning(`could not write the job summary: ${errorMessage(e)}`);
    }
  }
  // Watches and keep-alive sockets may linger; the run is over once the log is flushed.
  const code = Number(process.exitCode ?? 0);
  process.stdout.write("", () => process.exit(code));
}

await main();
