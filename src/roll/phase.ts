// A phase of a group's roll (setup, scale-up, upgrade, scale-down) as events: started, then
// ended with success, skipped (and why), failure or cancellation.
import type { Phase } from "../ports/index.js";
import type { RollContext } from "./context.js";

export async function runPhase<T>(
  ctx: RollContext,
  group: string,
  name: Phase,
  body: () => Promise<T | "skipped">,
  skipMessage?: string,
): Promise<T | "skipped"> {
  ctx.emit({ type: "phase.start", group, phase: name });
  try {
    const r = await body();
    ctx.emit({
      type: "phase.end",
      group,
      phase: name,
      result: r === "skipped" ? "skipped" : "success",
      ...(r === "skipped" && skipMessage && { message: skipMessage }),
    });
    return r;
  } catch (e) {
    ctx.emit({
      type: "phase.end",
      group,
      phase: name,
      result: ctx.signal.aborted ? "cancelled" : "failure",
      message: (e as Error).message,
    });
    throw e;
  }
}
