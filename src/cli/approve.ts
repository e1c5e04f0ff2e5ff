// Asking before a roll on a terminal, as Terraform's apply asks
// (https://developer.hashicorp.com/terraform/cli/commands/apply): the plan shown, then "Do you
// want to perform these actions?" — only "yes" approves; any other answer, the end of input or a
// stop signal changes nothing. Off a terminal (a script, CI, the action: where the merge is the
// approval) nothing is asked; `--auto-approve` skips the question on a terminal too. Whether a
// person is there is the input's question, as Terraform decides it: `apply | tee log` at a
// terminal still asks, the question on stderr so that it reaches the person, not the log.

/** Whether to ask: a person typing at a terminal, not told to skip it, with work to do. */
export function mustAsk(o: {
  stdinTTY: boolean | undefined;
  autoApprove: boolean;
  hasWork: boolean;
}): boolean {
  return Boolean(o.stdinTTY) && !o.autoApprove && o.hasWork;
}

export const QUESTION =
  "\nDo you want to perform these actions?\n  noderoll will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ";

/** Ask, and read one line: true only for "yes". */
export function approve(
  input: NodeJS.ReadableStream,
  output: { write(s: string): unknown },
  signal?: AbortSignal,
): Promise<boolean> {
  output.write(QUESTION);
  return new Promise((resolve) => {
    let line = "";
    const done = (yes: boolean) => {
      input.off("data", onData);
      input.off("end", onEnd);
      signal?.removeEventListener("abort", onEnd);
      input.pause();
      resolve(yes);
    };
    const onData = (chunk: Buffer | string) => {
      line += chunk.toString();
      const end = line.indexOf("\n");
      if (end >= 0) done(line.slice(0, end).replace(/\r$/, "").trim() === "yes");
    };
    const onEnd = () => done(false);
    if (signal?.aborted) return done(false);
    signal?.addEventListener("abort", onEnd, { once: true });
    input.on("data", onData);
    input.on("end", onEnd);
    input.resume();
  });
}
