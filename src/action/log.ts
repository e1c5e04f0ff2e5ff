// The job log. One line per roll event worth reading: the same lines as the terminal
// (src/render/lines.ts), so a reader of either sees the same roll. And every plain line goes
// through `info`: text that carries anything from a pull request (a file name, a policy's key,
// a message quoting them) must never start a line the runner reads as a workflow command
// (`::save-state::`, `::add-mask::`, `::warning::`, …). Where a line could, the text is written
// between `::stop-commands::` and its token (GitHub docs, "Workflow commands for GitHub
// Actions", stopping and starting workflow commands). core.warning/error/notice escape their
// own messages.
import { randomUUID } from "node:crypto";
import * as core from "@actions/core";

export { eventLine } from "../render/index.js";

const COMMAND_LIKE = /^\s*::/m;

export function info(text: string): void {
  if (!COMMAND_LIKE.test(text)) return core.info(text);
  const token = randomUUID();
  core.info(`::stop-commands::${token}`);
  core.info(text);
  core.info(`::${token}::`);
}
