// `noderoll apply --policy P [--sandbox S] [--events FILE.jsonl] [--groups a,b]
//   [--replace-all] [--delete-after-drain-timeout] [--reason TEXT]
//   [--max-duration 5h30m] [--ignore-window] [--out DIR]`, or `noderoll apply FILE [--sandbox S] …`
// Rolls the policy's groups with live progress on the terminal and the JSONL event log; with
// FILE, exactly the plan `plan --out FILE` saved, refused if it no longer holds (saved-plan.ts).
// `noderoll resume` is the same with the flags of apply: it first clears a pause or an abort
// standing on the cluster's Lease (src/app/control.ts).
// Exit: 0 rolled (or nothing to do), 1 failed (or aborted), 3 stopped early (cancelled,
// --max-duration, window closed: run it again to continue; paused: resume it); 2 usage.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { applyPolicy, type ApplyRequest } from "../app/apply.js";
import { resumePolicy } from "../app/control.js";
import { rollBack } from "../app/rollback.js";
import type { Session } from "../app/session.js";
import { ProgressFeed } from "../app/progress.js";
import type { ApplyResult } from "../engine/apply.js";
import type { PlanOptions } from "../engine/index.js";
import { summaryLine, type Plan } from "../plan/index.js";
import { parseDuration, type Policy } from "../policy/index.js";
import { EventLog, type RollEvent } from "../ports/index.js";
import {
  applyComment,
  emptyProgress,
  progressCheckRun,
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
  reviewedMarker,
  seedFromPlan,
  type CheckRunPayload,
} from "../render/index.js";
import { durationArg, groupsOf, parseFlags, policyOrExit, runFlags } from "./args.js";
import { APPLY_OPTIONS } from "./flags.js";
import type { HintContext } from "./hints.js";
import { liveSession, sandboxSession, type CliSession } from "./session.js";
import { Terminal, useColour } from "./terminal.js";
import { approve, mustAsk } from "./approve.js";
import {
  loadSavedPlan,
  policySha256,
  reachFlags,
  readable,
  savedPlanArgument,
  SavedPlanRefused,
  stillHolds,
} from "./saved-plan.js";
import type { SavedPlan } from "../plan/saved.js";

const OPTIONS = APPLY_OPTIONS;

export const EXIT = { success: 0, failure: 1, stopped: 3 } as const;

/** After SIGTERM/SIGINT the process ends within this long, whatever is still in flight. */
const STOP_WITHIN_MS = 30_000;
/** The adapters are closed (every request and watch ended) this long after the signal. */
const CLOSE_AFTER_MS = 20_000;

/**
 * SIGTERM / SIGINT: the run stops at once (every call it waits for is abandoned), gives the
 * lock back, and the process ends within STOP_WITHIN_MS; a second signal ends it at once.
 */
function onStopSignals(controller: AbortController, adapters: AbortController): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write(`\n${signal} again: exiting now; run apply again to continue\n`);
      process.exit(EXIT.stopped);
    }
    stopping = true;
    process.stderr.write(
      `\n${signal}: stopping now; what is in flight is abandoned, leaving only marks the next run resumes from. Run apply again to continue\n`,
    );
    controller.abort();
    setTimeout(() => adapters.abort(), CLOSE_AFTER_MS).unref();
    setTimeout(() => {
      process.stderr.write(
        `noderoll: still running ${STOP_WITHIN_MS / 1000} s after ${signal}; exiting\n`,
      );
      process.exit(EXIT.stopped);
    }, STOP_WITHIN_MS).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  // Relaunched with a higher heap limit (src/cli/heap.ts): the first process is gone, killed
  // outright. Stop as on SIGTERM, unless already stopping (its SIGTERM may have come first).
  process.on("disconnect", () => {
    if (!stopping) stop("the first process is gone");
  });
}

export function exitCodeFor(r: ApplyResult): number {
  return r.result === "success"
    ? EXIT.success
    : r.result === "failure"
      ? EXIT.failure
      : EXIT.stopped;
}

/** What `--out DIR` writes: the plan, the event log, the check-run payloads, the final PR comment. */
function writeOut(dir: string, plan: Plan, events: RollEvent[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "plan.txt"), renderPlanText(plan));
  writeFileSync(join(dir, "plan.md"), renderPlanMarkdown(plan));
  writeFileSync(join(dir, "plan.json"), renderPlanJson(plan));
  writeFileSync(join(dir, "events.jsonl"), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  // The check run as the action moves it: each update it sends at once, then the conclusion.
  const payloads: CheckRunPayload[] = [];
  const feed = new ProgressFeed(
    seedFromPlan({ ...emptyProgress(), trigger: "cli" }, plan),
    (p, atOnce) => {
      if (atOnce) payloads.push(progressCheckRun(p));
    },
  );
  for (const e of events) feed.event(e);
  payloads.push(progressCheckRun(feed.progress));
  writeFileSync(join(dir, "check-runs.json"), JSON.stringify(payloads, null, 2) + "\n");
  const comment = applyComment(plan.policy.name, feed.progress, plan, {}, reviewedMarker(plan));
  writeFileSync(join(dir, "comment.md"), comment);
}

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS }>>["values"];

interface Run {
  policy: Policy;
  file: string;
  groups: string[] | undefined;
  /** What the run forces (its flags). */
  options: PlanOptions;
  values: Values;
  signal: AbortSignal;
  maxDurationMs: number | undefined;
  lockWaitMs: number | undefined;
  /** `noderoll resume`: a pause or an abort on the Lease cleared first; `noderoll rollback`: the
   * recorded groups back to what they ran before. */
  mode: ApplyMode;
  /** `apply FILE`: the saved plan, carried out if it holds; and the policy's hash as read now. */
  saved?: { file: string; plan: SavedPlan; sha256: string; reach: string };
}

export type ApplyMode = "apply" | "resume" | "rollback";

/** Apply; or (resume) clear the pause first and say what was cleared; or roll back. */
function applyOrResume(
  run: Run,
): (s: Session, r: ApplyRequest) => Promise<ApplyResult & { plan?: Plan }> {
  if (run.mode === "rollback")
    return (s, r) => rollBack(s, { ...r, ...(run.groups && { only: run.groups }) });
  if (run.mode === "apply") return applyPolicy;
  return (s, r) => resumePolicy(s, r, (c) => process.stdout.write(`resume: ${c.message}\n`));
}

/** On a terminal, the person's "yes" (unless --auto-approve); elsewhere, approved. */
async function approved(run: Run, plan: Plan): Promise<boolean> {
  const hasWork =
    plan.summary.nodesToReplace + plan.summary.configChanges + plan.summary.cleanups > 0;
  const ask = mustAsk({
    stdinTTY: process.stdin.isTTY,
    autoApprove: run.values["auto-approve"],
    hasWork,
  });
  if (!ask) return true;
  if (run.values.quiet) process.stdout.write(`${summaryLine(plan.summary)}\n`);
  return approve(process.stdin, process.stderr, run.signal);
}

/** The terminal follows the roll; between events a TTY's status line ticks, a log gets a beat. */
function follow(run: Run, log: EventLog, plan: Plan, clock: { now(): Date }) {
  const { values } = run;
  const terminal = new Terminal(process.stdout, process.env, plan);
  log.on((e) => {
    if (values.events) appendFileSync(values.events, JSON.stringify(e) + "\n");
    if (!values.quiet) terminal.event(e);
  });
  const ticker = setInterval(
    () => !values.quiet && terminal.tick(clock.now()),
    process.stdout.isTTY ? 1000 : 15_000,
  );
  ticker.unref();
  return () => {
    clearInterval(ticker);
    terminal.close();
  };
}

async function roll(run: Run, session: CliSession): Promise<number> {
  const { policy, file, groups, values } = run;
  const log = new EventLog(session.ports.clock);
  let stop = () => {};
  const result = await applyOrResume(run)(
    { ...session, signal: run.signal, progress: (l) => process.stderr.write(l) },
    {
      policy,
      file,
      options: { ...run.options, ...(groups && { groups }) },
      log,
      apply: {
        runId: values["run-id"] ?? `noderoll-cli-${hostname()}-${process.pid}`,
        ignoreWindow: values["ignore-window"],
        ...(values.reason && { reason: values.reason }),
        ...(run.maxDurationMs !== undefined && { maxDurationMs: run.maxDurationMs }),
        ...(run.lockWaitMs !== undefined && { lockWaitMs: run.lockWaitMs }),
      },
      onPlan: async ({ plan: fresh }) => {
        // A saved plan that holds is carried out without asking: it was the approval.
        const plan = run.saved ? await stillHolds(run.saved, { fresh, session, policy }) : fresh;
        if (!values.quiet)
          process.stdout.write(
            renderPlanText(plan, { colour: useColour(process.stdout, process.env) }) + "\n",
          );
        if (!run.saved && !(await approved(run, plan))) return false;
        stop = follow(run, log, plan, session.ports.clock);
        return plan;
      },
    },
  ).finally(() => stop());
  if (values.out && result.plan) writeOut(values.out, result.plan, log.events);
  // One closing line: the result and what to do next.
  process.stdout.write(`${result.result}: ${result.message}\n`);
  return exitCodeFor(result);
}

export async function runApply(
  args: string[],
  hints: HintContext,
  mode: ApplyMode = "apply",
): Promise<number> {
  const { values, positionals } = parseFlags(args, OPTIONS, true);
  const file = savedPlanArgument(mode, positionals, values);
  const read = file !== undefined ? loadSavedPlan(file) : undefined;
  if (read && "exitCode" in read) return read.exitCode;
  try {
    return await applyWith(values, mode, hints, read && { file: file as string, plan: read.saved });
  } catch (e) {
    if (!(e instanceof SavedPlanRefused)) throw e;
    process.stderr.write(`noderoll: ${e.message}\n`);
    return EXIT.failure;
  }
}

/** The flags a saved plan fixes, as the plan says them. */
function savedValues(saved: SavedPlan, values: Values): Values {
  return {
    ...values,
    policy: saved.policy.file,
    "replace-all": saved.options.replaceAll,
    "delete-after-drain-timeout": saved.options.deleteAfterDrainTimeout,
  };
}

/** Apply with its flags, or a saved plan (which fixes the policy, the groups, what is forced). */
async function applyWith(
  flags: Values,
  mode: ApplyMode,
  hints: HintContext,
  saved?: { file: string; plan: SavedPlan },
): Promise<number> {
  const unread = saved && readable(saved.file, saved.plan);
  if (unread) return unread.exitCode;
  const values = saved ? savedValues(saved.plan, flags) : flags;
  const options = runFlags(values, { reason: values.reason });
  const maxDurationMs = durationArg("--max-duration", values["max-duration"], parseDuration);
  const lockWaitMs = durationArg("--lock-wait", values["lock-wait"], parseDuration);
  // Hashed before it is read: an edit in between can only make the saved plan refused.
  const sha256 = saved ? policySha256(values.policy as string) : "";
  const loaded = policyOrExit(values.policy, hints);
  if ("exitCode" in loaded) return loaded.exitCode;
  const { policy } = loaded;
  // A saved plan's groups as it names them: one the policy no longer has, it refuses.
  const groups = saved ? saved.plan.options.groups : groupsOf(policy, values.groups);
  // The world first: before it, the command has changed nothing (it may run again with a higher
  // heap limit, src/cli/heap.ts), and a Ctrl-C while it is built just ends the process.
  const sandbox = values.sandbox !== undefined ? sandboxSession(values.sandbox) : undefined;
  const controller = new AbortController();
  const adapters = new AbortController();
  onStopSignals(controller, adapters);
  if (values.events) {
    mkdirSync(dirname(values.events), { recursive: true });
    writeFileSync(values.events, "");
  }
  const run: Run = {
    policy,
    file: values.policy as string,
    groups,
    options,
    values,
    signal: controller.signal,
    maxDurationMs,
    lockWaitMs,
    mode,
    ...(saved && { saved: { ...saved, sha256, reach: reachFlags(flags) } }),
  };
  // Live, the adapters close CLOSE_AFTER_MS after a stop signal: in time to give the lock back.
  const session = sandbox ?? (await liveSession(policy, values.kubeconfig, hints, adapters.signal));
  try {
    return await roll(run, session);
  } finally {
    // Nothing may keep the process: requests a stopped run abandoned end here.
    session.close();
  }
}
