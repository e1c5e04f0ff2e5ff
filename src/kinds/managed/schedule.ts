// An EKS managed node group's update as a reviewer should expect it (Amazon EKS user guide,
// "Understand each phase of node updates"): a scale-up of max(2 × zones, maxUnavailable), then
// maxUnavailable nodes at a time — drain, EKS's fixed 60 s wait, terminate — then the scale-down.
import {
  BOOT_ESTIMATE_MS,
  chunk,
  waveDrainMs,
  type ManagedGroupInfo,
  type Schedule,
  type ScheduleInput,
  type Wave,
} from "../../plan/index.js";
import { EKS_BEHAVIOUR, eksScaleUp } from "./settings.js";

/** What a termination takes to be seen, after EKS's wait. */
const TERMINATE_MS = 30_000;
/** The scale-down back to the original size. */
const SCALE_DOWN_MS = 60_000;

export function managedSchedule(_live: ManagedGroupInfo, input: ScheduleInput): Schedule {
  const { replacements, zones, budgets } = input;
  if (replacements.length === 0) return { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };
  const surge = eksScaleUp(zones.length, budgets.maxUnavailable);
  const drainInput = {
    ...input,
    timeoutMs: EKS_BEHAVIOUR.drainTimeoutMs,
    force: input.settings.force,
  };
  let t = BOOT_ESTIMATE_MS;
  const waves: Wave[] = chunk(replacements, Math.max(1, budgets.maxUnavailable)).map((g) => {
    const wave = {
      nodes: g.map((r) => r.node ?? r.instance),
      canary: false,
      startMs: t,
      durationMs: waveDrainMs(g, drainInput, t) + EKS_BEHAVIOUR.postDrainDelayMs + TERMINATE_MS,
    };
    t += wave.durationMs;
    return wave;
  });
  t += SCALE_DOWN_MS;
  return { waves, zoneOrder: [], surge, estimatedMs: t };
}
