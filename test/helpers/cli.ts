// Running the bundled command line (dist/cli.js) the way a user does, on this Node.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv; node?: string[] } = {},
): CliResult {
  const r = spawnSync(process.execPath, [...(options.node ?? []), `${ROOT}dist/cli.js`, ...args], {
    cwd: options.cwd ?? ROOT,
    ...(options.env && { env: options.env }),
    input: options.input,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
