// The bundled command line (dist/cli.js) run asynchronously, as a user runs it against
// `sandbox serve` answering in the test's own process: `onEvent` is called once the run's event
// log (its --events file) first shows what `started` looks for — to act from a second process
// mid-roll. A hang, not a slow run, on a busy 2-core machine ends it.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./cli.js";

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

const HANG_MS = 400_000;

export function cliAsync(
  o: { cwd: string; env: Record<string, string> },
  args: string[],
  started?: (eventLog: string) => boolean,
  onStart?: () => void,
): Promise<Ran> {
  return new Promise<Ran>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, "dist/cli.js"), ...args], {
      cwd: o.cwd,
      env: { PATH: process.env.PATH, HOME: o.cwd, ...o.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const events = args[args.indexOf("--events") + 1] ?? "";
    let fired = false;
    const watch = setInterval(() => {
      const text = started && existsSync(events) ? readFileSync(events, "utf8") : "";
      if (!fired && started?.(text)) {
        fired = true;
        onStart?.();
      }
    }, 200);
    const hang = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
    child.on("close", (code) => {
      clearInterval(watch);
      clearTimeout(hang);
      resolve({ code, stdout, stderr });
    });
  });
}
