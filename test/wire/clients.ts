// Running real command-line clients (kubectl, the aws CLI) against a sandbox served in this
// process: asynchronously, so the server keeps answering while they run.
import { execFile } from "node:child_process";

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      // Only to end a hung client, far above any plausible run, and below vitest's limit
      // (vitest.config.ts) so that the test still reports what the client printed.
      { env, timeout: 540_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Whether a command runs at all (`cmd --version` exits 0). */
export async function available(cmd: string, args = ["--version"]): Promise<boolean> {
  const r = await run(cmd, args);
  return r.code === 0;
}
