// The action's view of one policy's roll as it goes: a log group per phase (one open at a time,
// as the runner allows), an event line per event, a heartbeat when the log has said nothing for
// a while, and the check run and the merged pull request's comment moved with it — at once when
// a phase or a group begins or ends (src/app/progress.ts), otherwise at most every
// PROGRESS_INTERVAL_MS, so a long roll stays far below GitHub's rate limits.
import * as core from "@actions/core";
import { Coalescer } from "../adapters/github/coalesce.js";
import { ProgressFeed } from "../app/progress.js";
import type { Plan } from "../plan/index.js";
import type { Policy } from "../policy/index.js";
import type { Clock, EventLog } from "../ports/index.js";
import {
  applyComment,
  applyMarkdown,
  heartbeatDue,
  HEARTBEAT_MS,
  progressCheckRun,
  type Progress,
  type RunInfo,
} from "../render/index.js";
import type { RunContext } from "./context.js";
import type { Check } from "./github.js";
import { eventLine, info } from "./log.js";

export const PROGRESS_INTERVAL_MS = 5000;

/** Where one policy's roll is reported: its check run, the merged pull request's comment. */
export interface Reporters {
  check?: Check;
  pullRequest?: number;
  name: string;
  info: RunInfo;
  /** The reviewed plan's hidden marker, carried from the plan comment into this one. */
  reviewed?: string;
}

export class RollFollower {
  private groupOpen = false;
  /** When the log was last written to (the roll's clock), for the heartbeat. */
  private lastLine: number | undefined;
  private beat?: ReturnType<typeof setInterval>;
  private plan?: Plan;
  private readonly updates: Coalescer<Progress>;

  constructor(
    private readonly ctx: RunContext,
    private readonly to: Reporters,
    readonly progress: Progress,
  ) {
    this.updates = new Coalescer((p) => this.send(p), PROGRESS_INTERVAL_MS);
  }

  /** A log group of its own (the plan's read, a phase); the one open before is closed. */
  startGroup(title: string): void {
    this.endGroup();
    core.startGroup(title);
    this.groupOpen = true;
  }

  endGroup(): void {
    if (this.groupOpen) core.endGroup();
    this.groupOpen = false;
  }

  /** Follow the roll of `plan`: every event of `log`, and a heartbeat between them. */
  follow(log: EventLog, plan: Plan, clock: Clock, policy: Policy): void {
    this.plan = plan;
    const feed = new ProgressFeed(this.progress, (p, atOnce) => void this.updates.offer(p, atOnce));
    log.on((e) => {
      this.ctx.post.record(e, policy);
      if (e.type === "phase.start") this.startGroup(`${e.group}: ${e.phase}`);
      feed.event(e);
      const line = eventLine(e);
      if (line) this.write(`${e.t.slice(11, 19)} ${line}`, clock);
      if (e.type === "phase.end") this.endGroup();
    });
    this.beat = setInterval(() => {
      const line = heartbeatDue(this.progress, clock.now(), this.lastLine);
      if (line) this.write(line, clock);
    }, HEARTBEAT_MS / 3);
    this.beat.unref();
  }

  /** The roll is over: no more beats, the last group closed, every queued update sent. */
  async stop(): Promise<void> {
    clearInterval(this.beat);
    this.endGroup();
    // Whatever progress is still queued goes first, so the conclusion is the last word.
    await this.updates.flush();
  }

  /** The conclusion: the check run completed, the comment's last state, the job summary. */
  async finish(): Promise<void> {
    const payload = progressCheckRun(this.progress, this.to.info);
    await this.to.check?.complete(payload.conclusion ?? "neutral", payload.output);
    await this.comment(this.progress);
    this.ctx.summary.addFitted((d) => applyMarkdown(this.progress, this.plan, this.to.info, d));
  }

  private write(line: string, clock: Clock): void {
    info(line);
    this.lastLine = clock.now().getTime();
  }

  private async send(p: Progress): Promise<void> {
    await this.to.check?.update(progressCheckRun(p, this.to.info).output);
    await this.comment(p);
  }

  private async comment(p: Progress): Promise<void> {
    const { pullRequest, name, info, reviewed } = this.to;
    if (this.ctx.inputs.comment && pullRequest !== undefined)
      await this.ctx.gh.comment(
        pullRequest,
        name,
        applyComment(name, p, this.plan, info, reviewed),
      );
  }
}
