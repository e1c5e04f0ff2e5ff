// The roll's event log as a file a later step can upload (the `events-file` output): one JSON
// object per line, the same lines as the command line's `apply --events`, appended as each event
// happens, so a job killed mid-roll still leaves what it did. Every roll of the run goes to the
// one file (each begins with its roll.start, which names the policy); a run that rolls nothing
// leaves it empty, so an upload step finds it all the same.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { RollEvent } from "../ports/index.js";
import { InputError } from "./inputs.js";

export class EventsFile {
  private failed = false;

  private constructor(
    readonly path: string,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * The file, created empty: `written` (the input, relative to the workspace) or
   * RUNNER_TEMP/noderoll/events.jsonl. One that cannot be written is refused as a wrong input,
   * before anything is read.
   */
  static open(
    written: string | undefined,
    where: { workspace: string; runnerTemp: string },
    warn: (message: string) => void,
  ): EventsFile {
    const path = written
      ? resolve(where.workspace, written)
      : join(where.runnerTemp, "noderoll", "events.jsonl");
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, "");
    } catch (e) {
      throw new InputError(
        `input events-file: cannot write ${path} (${(e as Error).message}); name a file the job may create`,
      );
    }
    return new EventsFile(path, warn);
  }

  /** Append one event; a write that fails is said once and never stops the roll. */
  write(e: RollEvent): void {
    if (this.failed) return;
    try {
      appendFileSync(this.path, `${JSON.stringify(e)}\n`);
    } catch (err) {
      this.failed = true;
      this.warn(`could not write the event log to ${this.path}: ${(err as Error).message}`);
    }
  }
}
