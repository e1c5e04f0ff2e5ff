// An EKS managed node group's update as a reviewer should expect it (Amazon EKS user guide,
// "Understand each phase of node updates"): a scale-up of max(2 × zones, maxUnavailable), then
// maxUnavailable nodes at a time — drain, EKS's fixed 60 s wait, terminate — then the scale-down.
// With updateStrategy MINIMAL there is no scale-up and no scale-down: a node goes first, and its
// replacement is launched in its place.
import {
  BOOT_ESTIMATE_MS,
  chunk,
  heldBy,
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
/**
 * What keeps EKS's drain until its 15 minutes: it evicts until the node is empty (the user
 * guide's upgrade phase; PodEvictionFailure lists a budget that never allows, pods several
 * budgets select, and pods that tolerate the cordon and come back), and force lets it go on
 * only then.
 */
const HELD_BY = ["pdb-blocks", "multiple-pdbs", "tolerates-everything"] as const;

export function managedSchedule(live: ManagedGroupInfo, input: ScheduleInput): Schedule {
  const { replacements, zones, budgets } = input;
  if (replacements.length === 0) return { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };
  const minimal = strategyOf(input.settings, live) === "MINIMAL";
  const surge = eksScaleUp(zones.length, budgets.maxUnavailable, minimal ? "MINIMAL" : "DEFAULT");
  const drainInput = {
    ...input,
    timeoutMs: EKS_BEHAVIOUR.drainTimeoutMs,
    deleteAfterDrainTimeout: input.settings.deleteAfterDrainTimeout,
    held: heldBy(input.holds, HELD_BY),
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
