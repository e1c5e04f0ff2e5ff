// The order and pace in which a self-managed group's nodes are replaced, as kOps does it
// (https://kops.sigs.k8s.io/operations/rolling-update/): a canary first (kOps' when no instance is
// up to date; noderoll's in every group), then a sliding window of maxSurge + maxUnavailable nodes, zones taken in turn —
// ordered for the disruption budgets' turns where budgets hold pods (turns.ts) — and instances
// detached for surge last. The waves are the order apply follows: the plan's replacements are
// put in it once (plan/waves.ts inWaveOrder), and the roll takes them as they come.
import { rollWindow, VALIDATION_PERIOD_MS } from "../../policy/index.js";
import {
  BOOT_ESTIMATE_MS,
  chunk,
  heldBy,
  interleaveByZone,
  isDetached,
  waveDrainMs,
  type Replacement,
  type Schedule,
  type ScheduleInput,
  type SelfManagedGroupInfo,
  type Wave,
} from "../../plan/index.js";
import { orderForTurns } from "./turns.js";

/**
 * What keeps this kind's drain (src/roll/drain.ts) until its timeout: a budget that never allows
 * refuses the evictions until then. Pods several budgets select are refused at once (HTTP 500)
 * and, under deleteAfterDrainTimeout, deleted then; a pod that comes back to the cordoned node
 * is a new pod, which the drain does not wait for.
 */
const HELD_BY = ["pdb-blocks"] as const;

/**
 * The replacement order: nodes out of service already first (NotReady or unreachable: they
 * cost no budget, and replacing them gives the group its capacity back — what kOps' issue 11367
 * proposed), then zones in turn (when asked) and for the disruption budgets' turns, instances
 * detached for surge last.
 */
function replacementOrder(input: ScheduleInput): Replacement[] {
  const { replacements, settings } = input;
  const attached = replacements.filter((r) => !isDetached(r));
  const down = attached.filter((r) => r.down);
  const up = attached.filter((r) => !r.down);
  const detached = replacements.filter(isDetached);
  const zoned = settings.spreadAcrossZones ? interleaveByZone(up) : up;
  return [...down, ...orderForTurns(zoned, input.podsByNode, input.pdbs), ...detached];
}

/**
 * kOps starts with a single node when none of the group is up to date yet; noderoll starts every
 * group so, whatever is up to date already: the gates judge one replacement before a wave of
 * them, and a group a halt stopped resumes as carefully as it began.
 */
export function startsWithCanary(toReplace: number): boolean {
  return toReplace > 1;
}

/** The checkpoints' waits after each wave: a checkpoint's delay where the wave reaches one. */
function checkpointWaits(input: ScheduleInput, groups: Replacement[][]): number[] {
  const { checkpoints, checkpointDelayMs } = input.settings.gates;
  const total = input.upToDate + input.replacements.length;
  let done = input.upToDate;
  return groups.map((g) => {
    const before = done;
    done += g.length;
    const reached = checkpoints.some((c) => before < c * total && done >= c * total);
    return reached && done < total ? (checkpointDelayMs ?? 0) : 0;
  });
}

export function selfManagedSchedule(_live: SelfManagedGroupInfo, input: ScheduleInput): Schedule {
  const { settings, replacements, budgets } = input;
  if (replacements.length === 0) return { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };
  const ordered = replacementOrder(input);
  const window = rollWindow(budgets);
  const canary = startsWithCanary(ordered.length);
  const groups = canary
    ? [ordered.slice(0, 1), ...chunk(ordered.slice(1), window)]
    : chunk(ordered, window);
  const perNodeFixed =
    settings.postDrainDelayMs +
    settings.intervalMs +
    (settings.validation.count - 1) * VALIDATION_PERIOD_MS;
  const drainInput = {
    ...input,
    timeoutMs: settings.drainTimeoutMs,
    deleteAfterDrainTimeout: settings.deleteAfterDrainTimeout,
    held: heldBy(input.holds, HELD_BY),
  };
  const waits = checkpointWaits(input, groups);
  let t = budgets.maxSurge > 0 ? BOOT_ESTIMATE_MS : 0;
  const waves: Wave[] = groups.map((g, i) => {
    // Without surge, a replacement boots after its predecessor is terminated.
    const boot =
      budgets.maxSurge === 0 ? BOOT_ESTIMATE_MS : i === 0 && canary ? BOOT_ESTIMATE_MS : 0;
    // Each wave's bake, and a checkpoint's delay where it reaches one.
    const durationMs = settings.drainAndTerminate
      ? waveDrainMs(g, drainInput, t) +
        perNodeFixed +
        boot +
        settings.gates.bakeMs +
        (waits[i] ?? 0)
      : 0;
    const wave = {
      nodes: g.map((r) => r.node ?? r.instance),
      canary: canary && i === 0,
      startMs: t,
      durationMs,
    };
    t += durationMs;
    return wave;
  });
  return {
    waves,
    zoneOrder: [...new Set(ordered.map((r) => r.zone))],
    surge: budgets.maxSurge,
    estimatedMs: t,
  };
}
