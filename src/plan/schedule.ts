// The order and pace in which a group's nodes would be replaced, and how long that should take.
// Self-managed groups follow kOps (reference 004): a canary first when no instance is up to
// date, then a sliding window of maxSurge + maxUnavailable nodes, zones taken in turn, surge
// instances (detached) last. Managed groups follow EKS (reference 000): a scale-up of
// max(2 × zones, maxUnavailable), then maxUnavailable nodes at a time.
import type { EffectiveSettings } from "../policy/index.js";
import type { PodInfo } from "./snapshot.js";
import type { Replacement, Schedule, Wave } from "./types.js";

/** EC2 launch, kubelet registration and Ready: what a new node typically takes. */
export const BOOT_ESTIMATE_MS = 150_000;
/** EKS's wait after a drain, and what a termination request takes to be seen. */
export const EKS_POST_DRAIN_MS = 60_000;
const EVICTION_OVERHEAD_MS = 5_000;

export interface ScheduleInput {
  kind: "managed" | "self-managed";
  replacements: Replacement[];
  /** Instances of the group that are already up to date. */
  upToDate: number;
  zones: string[];
  settings: EffectiveSettings;
  podsByNode: Map<string, PodInfo[]>;
}

/** Zones in turn: a, b, c, a, b, c… oldest instance first within a zone (input order). */
export function interleaveByZone(replacements: Replacement[]): Replacement[] {
  const byZone = new Map<string, Replacement[]>();
  for (const r of replacements) byZone.set(r.zone, [...(byZone.get(r.zone) ?? []), r]);
  const zones = [...byZone.keys()].sort();
  const out: Replacement[] = [];
  for (let i = 0; out.length < replacements.length; i++) {
    for (const z of zones) {
      const r = byZone.get(z)?.[i];
      if (r) out.push(r);
    }
  }
  return out;
}

function drainEstimateMs(node: string | undefined, podsByNode: Map<string, PodInfo[]>): number {
  const pods = node ? (podsByNode.get(node) ?? []) : [];
  const movable = pods.filter((p) => p.owner?.kind !== "DaemonSet" && !p.mirror);
  const grace = Math.max(0, ...movable.map((p) => p.terminationGracePeriodSeconds));
  return movable.length === 0 ? 0 : EVICTION_OVERHEAD_MS + grace * 1000;
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function eksScaleUp(zones: number, maxUnavailable: number): number {
  return Math.max(2 * zones, maxUnavailable);
}

export function schedule(input: ScheduleInput): Schedule {
  const { settings, replacements } = input;
  if (replacements.length === 0) return { waves: [], zoneOrder: [], surge: 0, estimatedMs: 0 };
  if (input.kind === "managed") return managedSchedule(input);
  const detached = replacements.filter((r) =>
    r.reasons.some((x) => x.kind === "detached-for-surge"),
  );
  const attached = replacements.filter((r) => !detached.includes(r));
  const ordered = [
    ...(settings.spreadAcrossZones ? interleaveByZone(attached) : attached),
    ...detached,
  ];
  const window = Math.max(1, settings.maxSurge + settings.maxUnavailable);
  const canary = input.upToDate === 0 && ordered.length > 1;
  const groups = canary
    ? [ordered.slice(0, 1), ...chunk(ordered.slice(1), window)]
    : chunk(ordered, window);
  const perNodeFixed =
    settings.postDrainDelayMs + settings.intervalMs + (settings.validation.count - 1) * 10_000;
  let t = settings.maxSurge > 0 ? BOOT_ESTIMATE_MS : 0;
  const waves: Wave[] = groups.map((g, i) => {
    const drain = Math.max(...g.map((r) => drainEstimateMs(r.node, input.podsByNode)));
    // Without surge, a replacement boots after its predecessor is terminated.
    const boot =
      settings.maxSurge === 0 ? BOOT_ESTIMATE_MS : i === 0 && canary ? BOOT_ESTIMATE_MS : 0;
    const durationMs = settings.drainAndTerminate ? drain + perNodeFixed + boot : 0;
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
    surge: settings.maxSurge,
    estimatedMs: t,
  };
}

function managedSchedule(input: ScheduleInput): Schedule {
  const { settings, replacements, zones } = input;
  const surge = eksScaleUp(zones.length, settings.maxUnavailable);
  let t = BOOT_ESTIMATE_MS;
  const waves: Wave[] = chunk(replacements, Math.max(1, settings.maxUnavailable)).map((g) => {
    const drain = Math.max(...g.map((r) => drainEstimateMs(r.node, input.podsByNode)));
    const wave = {
      nodes: g.map((r) => r.node ?? r.instance),
      canary: false,
      startMs: t,
      durationMs: drain + EKS_POST_DRAIN_MS + 30_000,
    };
    t += wave.durationMs;
    return wave;
  });
  // Scale-down back to the original size.
  t += 60_000;
  return { waves, zoneOrder: [], surge, estimatedMs: t };
}
