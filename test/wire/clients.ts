// Running real command-line clients (kubectl, the aws CLI) against a sandbox served in this
// process: asynchronously, so the server keeps answering while they run.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CREDENTIALS } from "../../src/sandbox/wire/sts-face.js";

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

/** The aws CLI: Debian's awscli (v2, what .ci/run installs), else whichever `aws` is on PATH. */
export const AWS = existsSync("/usr/bin/aws") ? "/usr/bin/aws" : "aws";

/**
 * An aws CLI bound to a sandbox: the sandbox's credentials, a home and config files of its own
 * under `dir` (nothing from the machine's ~/.aws), no pager, no retries, JSON out. A command
 * that prints words rather than JSON (update-kubeconfig) answers `{ text }`.
 */
export function awsCli(dir: string, endpoint: () => string) {
  return async (...args: string[]): Promise<Record<string, unknown>> => {
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      AWS_ACCESS_KEY_ID: DEFAULT_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: DEFAULT_CREDENTIALS.secretAccessKey,
      AWS_DEFAULT_REGION: "eu-west-1",
      AWS_CONFIG_FILE: join(dir, "config"),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, "credentials"),
      KUBECONFIG: join(dir, "kubeconfig"),
      AWS_PAGER: "",
      AWS_MAX_ATTEMPTS: "1",
    };
    const r = await run(AWS, [...args, "--endpoint-url", endpoint(), "--output", "json"], env);
    if (r.code !== 0) throw new Error(`aws ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
    const out = r.stdout.trim();
    if (out === "") return {};
    return out.startsWith("{") ? (JSON.parse(out) as Record<string, unknown>) : { text: out };
  };
}
