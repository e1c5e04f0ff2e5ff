// An EKS managed node group's update as a reviewer should expect it (Amazon EKS user guide,
// "Understand each phase of node updates"): a scale-up of max(2 × zones, maxUnavailable), then
// maxUnavailable nodes at a time — drain, EKS's fixed 60 s wait, terminate — then the scale-down.
// With updateStrategy MINIMAL there is no scale-up and no scale-down: a node goes first, and its
// replacement is launched in its place.
import {
  BOOT_ESTIMATE_MS,
  chunk,
  waveDrainMs,
  type ManagedGroupInfo,
  type Schedule,
  type ScheduleInput,
  type Wave,
} from "../../plan/index.js";
import { EKS_BEHAVIOUR, eksScaleUp, strategyOf } from "./settings.js";

/** What a termination takes to be seen, after EKS's wait. */
const TERMINATE_MS = 30_000;
/** The scale-down back to the original size. */
const SCALE_DOWN_MS = 60_000;

export function managedSchedule(live: ManagedGroupInfo, input: ScheduleInput): Schedule {
  const { replacements, zones, budgets } = input;
  if (replacements.length === 0) return { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };
  const minimal = strategyOf(input.settings, live) === "MINIMAL";
  const surge = eksScaleUp(zones.length, budgets.maxUnavailable, minimal ? "MINIMAL" : "DEFAULT");
  const drainInput = {
    ...input,
    timeoutMs: EKS_BEHAVIOUR.drainTimeoutMs,
    deleteAfterDrainTimeout: input.settings.deleteAfterDrainTimeout,
  };
  // DEFAULT waits for the scale-up's nodes before the first drain; MINIMAL drains at once, and
  // each terminated node's replacement boots while the next wave drains.
  let t = minimal ? 0 : BOOT_ESTIMATE_MS;
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
  // MINIMAL has nothing to scale down: its last replacements boot instead.
  t += minimal ? BOOT_ESTIMATE_MS : SCALE_DOWN_MS;
  return { waves, zoneOrder: [], surge, estimatedMs: t };
}
