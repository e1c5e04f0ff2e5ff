// The roll on a terminal. Every event worth a line gets one (per node: cordon, drain with what
// was evicted, terminate, validation; EKS's update status). On a TTY a live status line sits
// under them, redrawn in place; off a TTY (CI, a pipe) a heartbeat every HEARTBEAT_MS says
// where the roll is and what it waits for. Colour only on a TTY, and never when NO_COLOR is
// set (no-color.org).
import type { Plan } from "../plan/index.js";
import type { RollEvent } from "../ports/index.js";
import {
  applyEvent,
  emptyProgress,
  eventLine,
  heartbeatDue,
  seedFromPlan,
  statusLine,
  type Progress,
} from "../render/index.js";
import { ansiPaint, type Tone } from "../render/colour.js";

export interface Screen {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Colour only on a TTY, and not when NO_COLOR is set to anything but "" (no-color.org). */
export function useColour(screen: Screen, env: NodeJS.ProcessEnv): boolean {
  return Boolean(screen.isTTY) && !env.NO_COLOR;
}

function tone(line: string): Tone | undefined {
  // A refusal that is retried (a budget's, a throttle's) is a wait, not a failure.
  if (/\bretrying\b/.test(line)) return "yellow";
  if (/\b(failure|failed|refused|Failed)\b/.test(line)) return "red";
  if (/\b(success|Successful)\b/.test(line)) return "green";
  if (/\b(cancelled|skipped|retrying|deleted)\b/.test(line)) return "yellow";
  return undefined;
}

export class Terminal {
  readonly progress: Progress = emptyProgress();
  private readonly colour: boolean;
  private lastPrint?: number;
  private statusShown = false;

  constructor(
    private readonly screen: Screen,
    env: NodeJS.ProcessEnv,
    plan?: Plan,
  ) {
    this.colour = useColour(screen, env);
    if (plan) seedFromPlan(this.progress, plan);
  }

  private paint(text: string, c: Tone | undefined): string {
    return this.colour ? ansiPaint(text, c) : text;
  }

  private clearStatus(): void {
    if (this.statusShown) this.screen.write("\r\x1b[K");
    this.statusShown = false;
  }

  private drawStatus(now: Date): void {
    if (!this.screen.isTTY || this.progress.result || !this.progress.startedAt) return;
    this.screen.write(this.paint(statusLine(this.progress, now), "dim"));
    this.statusShown = true;
  }

  /** One event: its line (roll.end excepted: the command closes with one line of its own). */
  event(e: RollEvent): void {
    applyEvent(this.progress, e);
    const line = e.type === "roll.end" ? undefined : eventLine(e);
    const now = new Date(e.t);
    if (line) {
      this.clearStatus();
      this.screen.write(
        `${this.paint(e.t.slice(11, 19), "dim")} ${this.paint(line, tone(line))}\n`,
      );
      this.lastPrint = now.getTime();
    }
    if (this.screen.isTTY) {
      this.clearStatus();
      this.drawStatus(now);
    } else this.beat(now);
  }

  /** Off a TTY: a heartbeat line when nothing was printed for HEARTBEAT_MS. */
  beat(now: Date): void {
    if (this.screen.isTTY) return;
    const line = heartbeatDue(this.progress, now, this.lastPrint);
    if (!line) return;
    this.screen.write(`${line}\n`);
    this.lastPrint = now.getTime();
  }

  /** Redraw the status line (a TTY's clock ticking between events). */
  tick(now: Date): void {
    if (!this.screen.isTTY) return this.beat(now);
    this.clearStatus();
    this.drawStatus(now);
  }

  close(): void {
    this.clearStatus();
  }
}
