// The real adapters (the AWS SDK's clients, the Kubernetes client and what they load), loaded
// only when a command reaches a live cluster: a sandbox run, a validation or `--help` never uses
// them, and evaluating them at start-up was about half of the command line's 0.6 s before it
// could do anything.
import type { connectLive as connect } from "../adapters/connect.js";

export async function connectLive(...args: Parameters<typeof connect>): ReturnType<typeof connect> {
  const { connectLive: live } = await import("../adapters/connect.js");
  return live(...args);
}
