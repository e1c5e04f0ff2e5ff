// What a fleet's next run does, decided from the clusters' own records and the time alone
// (issue 49): which stage is rolling, which soaks until when, which clusters are due now (within
// the stage's maxConcurrency, after the stage before soaked green), and where the fleet halts.
// Pure: `fleet plan` shows it, `fleet apply` carries it out and returns — it never waits out a
// soak; the next run, on any machine, reads the same records and goes on.
import { parseDuration } from "../policy/duration.js";
import type { Target } from "../policy/schema.js";
import type { FleetRecord } from "./record.js";
import type { Concurrency, Fleet, Stage } from "./schema.js";

/** One cluster of the fleet as read now: which policy names it, and what it records. */
export interface ClusterView {
  stage: string;
  policyFile: string;
  cluster: string;
  region: string;
  /** The fleet's record on the cluster, of any promotion. */
  record?: FleetRecord;
  /** Whether a run holds the cluster's lock now (a "rolling" record without one was cut short). */
  locked?: boolean;
  /** The health gates' verdict now, where the cluster's policy has gates beyond the built-in. */
  gates?: { verdict: "pass" | "fail" | "inconclusive"; detail: string };
  /** What the cluster's groups run now, in a few words (read by the application). */
  current?: string;
  /** Why the cluster could not be read: it is then neither done nor free. */
  unreadable?: string;
}

export type ClusterState =
  | { kind: "done"; finishedAt: string }
  | { kind: "rolling"; since: string; run?: string }
  | { kind: "failed"; at: string; message?: string; retry: boolean }
  | { kind: "due"; resume: boolean }
  | { kind: "queued" }
  | { kind: "blocked"; by: Upstream }
  | { kind: "unreadable"; why: string };

/** The first stage above that has not soaked, and where it is: what holds every stage below. */
export interface Upstream {
  stage: string;
  state: Exclude<StageState, { kind: "soaked" } | { kind: "blocked" }>;
}

export type StageState =
  | { kind: "blocked"; by: Upstream }
  | { kind: "rolling" }
  | { kind: "soaking"; until: string; pending?: string }
  | { kind: "soaked"; at: string }
  | { kind: "halted"; why: string };

export interface StagePlan {
  stage: Stage;
  state: StageState;
  clusters: { view: ClusterView; state: ClusterState }[];
  concurrency: number;
}

export interface FleetPlan {
  fleet: string;
  promotion: string;
  /** The release pinned when the first stage started; undefined until then. */
  pinned?: Target;
  /** The AMIs `$Latest` launch templates were pinned to then (fleet/record.ts). */
  images?: string[];
  paused?: { by?: string; reason?: string; at: string };
  stages: StagePlan[];
  /** What the next run starts, in stage order. */
  due: { stage: Stage; view: ClusterView; resume: boolean }[];
}

export interface ScheduleInput {
  fleet: Fleet;
  promotion: string;
  views: readonly ClusterView[];
  now: Date;
  retryFailed?: boolean;
  paused?: FleetPlan["paused"];
}

/** Clusters of a stage that may roll at once: a count, or a share of them (at least one). */
export function concurrencyOf(c: Concurrency | undefined, clusters: number): number {
  if (c === undefined) return 1;
  if (typeof c === "number") return c;
  return Math.max(1, Math.floor((clusters * Number(c.slice(0, -1))) / 100));
}

/** The fleet's next steps, stage by stage: a stage starts only after the one before soaked. */
export function scheduleFleet(input: ScheduleInput): FleetPlan {
  const { fleet, promotion } = input;
  const pinned = pinnedRecord(input.views, promotion);
  const stages: StagePlan[] = [];
  let upstream: Upstream | undefined; // what holds later stages, once one has not soaked
  for (const stage of fleet.stages) {
    const views = input.views.filter((v) => v.stage === stage.name);
    const plan = upstream
      ? blockedStage(stage, views, promotion, upstream)
      : activeStage(stage, views, input);
    stages.push(plan);
    if (!upstream && plan.state.kind !== "soaked" && plan.state.kind !== "blocked")
      upstream = { stage: stage.name, state: plan.state };
  }
  const due = input.paused
    ? []
    : stages.flatMap((s) =>
        s.clusters.flatMap(({ view, state }) =>
          state.kind === "due" ? [{ stage: s.stage, view, resume: state.resume }] : [],
        ),
      );
  return {
    fleet: fleet.metadata.name,
    promotion,
    pinned: pinned?.release,
    ...(pinned?.images?.length && { images: pinned.images }),
    ...(input.paused && { paused: input.paused }),
    stages,
    due,
  };
}

/** A record of this promotion: each carries what the first stage pinned. */
function pinnedRecord(views: readonly ClusterView[], promotion: string): FleetRecord | undefined {
  return views.find((v) => v.record?.promotion === promotion)?.record;
}

/** What a cluster of this promotion has come to, from its record alone. */
function recorded(view: ClusterView, promotion: string, retry: boolean): ClusterState | undefined {
  if (view.unreadable) return { kind: "unreadable", why: view.unreadable };
  const r = view.record;
  // A roll in flight holds the cluster whatever it promotes; one whose run is gone resumes.
  if (r?.state === "rolling" && view.locked)
    return { kind: "rolling", since: r.startedAt, run: r.run };
  if (!r || r.promotion !== promotion) return undefined;
  if (r.state === "succeeded") return { kind: "done", finishedAt: r.finishedAt ?? r.startedAt };
  if (r.state === "failed")
    return { kind: "failed", at: r.finishedAt ?? r.startedAt, message: r.message, retry };
  return { kind: "due", resume: true };
}

function blockedStage(
  stage: Stage,
  views: readonly ClusterView[],
  promotion: string,
  by: Upstream,
): StagePlan {
  const clusters = views.map((view) => {
    const state = recorded(view, promotion, false);
    // Only what already happened is shown as it is; nothing new starts here.
    return {
      view,
      state: state && state.kind !== "due" ? state : ({ kind: "blocked", by } as ClusterState),
    };
  });
  return {
    stage,
    state: { kind: "blocked", by },
    clusters,
    concurrency: concurrencyOf(stage.maxConcurrency, views.length),
  };
}

function activeStage(stage: Stage, views: readonly ClusterView[], input: ScheduleInput): StagePlan {
  const concurrency = concurrencyOf(stage.maxConcurrency, views.length);
  const states = views.map((v) => recorded(v, input.promotion, input.retryFailed ?? false));
  const failed = states.filter((s) => s?.kind === "failed").length;
  const threshold = stage.failureThreshold ?? 0;
  const halted = failed > threshold && !input.retryFailed;
  let slots = concurrency - states.filter((s) => s?.kind === "rolling").length;
  const clusters = views.map((view, i) => {
    let state = states[i];
    const wants = !state || state.kind === "due" || (state.kind === "failed" && state.retry);
    if (wants) {
      const resume = state?.kind === "due" && state.resume;
      state = !halted && slots > 0 ? { kind: "due", resume } : { kind: "queued" };
      if (state.kind === "due") slots--;
    }
    return { view, state: state as ClusterState };
  });
  return {
    stage,
    state: stageState(stage, clusters, input, halted, failed),
    clusters,
    concurrency,
  };
}

function stageState(
  stage: Stage,
  clusters: StagePlan["clusters"],
  input: ScheduleInput,
  halted: boolean,
  failed: number,
): StageState {
  if (halted)
    return {
      kind: "halted",
      why: `${failed} cluster${failed === 1 ? "" : "s"} failed (failureThreshold ${stage.failureThreshold ?? 0}); fleet apply --retry-failed reruns them with the same release`,
    };
  if (clusters.length === 0) return { kind: "soaked", at: input.now.toISOString() };
  // Failures within the threshold are tolerated: the stage ends when the rest are done.
  const finished = clusters.filter((c) => c.state.kind === "done" || c.state.kind === "failed");
  if (finished.length < clusters.length) return { kind: "rolling" };
  // Soaked green: the gates of every cluster done pass; one failing halts the fleet, one that
  // cannot be judged holds the stage until it can.
  const judged = (v: string) =>
    clusters.find((c) => c.state.kind === "done" && c.view.gates?.verdict === v);
  const red = judged("fail");
  if (red)
    return {
      kind: "halted",
      why: `gates failing on ${red.view.cluster} while it soaks: ${red.view.gates?.detail}`,
    };
  const amber = judged("inconclusive");
  const last = Math.max(
    ...finished.map((c) =>
      Date.parse(
        (c.state as { finishedAt?: string; at?: string }).finishedAt ??
          (c.state as { at: string }).at,
      ),
    ),
  );
  const until = last + (stage.soak ? (parseDuration(stage.soak) ?? 0) : 0);
  if (until > input.now.getTime() || amber)
    return {
      kind: "soaking",
      until: new Date(until).toISOString(),
      ...(amber && {
        pending: `gates of ${amber.view.cluster} inconclusive: ${amber.view.gates?.detail}`,
      }),
    };
  return { kind: "soaked", at: new Date(until).toISOString() };
}
