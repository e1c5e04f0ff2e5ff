// A fleet's plan as people read it (issue 49): per stage and cluster — the release it runs and
// the one pinned, its state (waiting, due, rolling, soaking until…, done, failed, blocked by the
// stage above) and what the next run starts; as text for a terminal, Markdown for the sticky
// pull-request comment (with the stages as a Mermaid gantt), and JSON whose `due` list is the
// matrix a workflow's per-cluster jobs run.
import type { ClusterState, FleetPlan, StagePlan, StageState } from "../fleet/schedule.js";
import type { Target } from "../policy/index.js";
import { readableTime, ZoneTime } from "./time.js";

export interface FleetInfo {
  /** The fleet file, as given. */
  file: string;
  /** Whether any policy of the fleet has gates beyond the built-in (alarms, Prometheus). */
  gated: boolean;
  now: Date;
}

export const releaseText = (t: Target | undefined): string =>
  t
    ? [
        t.kubernetesVersion && `Kubernetes ${t.kubernetesVersion}`,
        t.releaseVersion && `release ${t.releaseVersion}`,
        t.launchTemplateVersion !== undefined && `launch template ${t.launchTemplateVersion}`,
      ]
        .filter(Boolean)
        .join(", ")
    : "";

const when = (iso: string) => readableTime(iso);

export function stageWords(s: StageState): string {
  switch (s.kind) {
    case "blocked":
      return `waiting for stage ${s.by.stage}, ${stageWords(s.by.state)}`;
    case "rolling":
      return "in progress";
    case "soaking":
      return `soaking until ${when(s.until)}${s.pending ? `, then until its gates can be judged (${s.pending})` : ""}`;
    case "soaked":
      return "done";
    case "halted":
      return `halted: ${s.why}`;
  }
}

export function clusterWords(s: ClusterState): string {
  switch (s.kind) {
    case "done":
      return `done ${when(s.finishedAt)}`;
    case "rolling":
      return `rolling since ${when(s.since)}${s.run ? ` (${s.run})` : ""}`;
    case "failed":
      return `failed ${when(s.at)}${s.message ? `: ${s.message}` : ""}${s.retry ? " — retried by this run" : ""}`;
    case "due":
      return s.resume ? "due: the next run resumes its roll" : "due: the next run starts it";
    case "queued":
      return "waiting for a slot (maxConcurrency)";
    case "blocked":
      return `waiting for stage ${s.by.stage}`;
    case "unreadable":
      return `not read: ${s.why}`;
  }
}

/** The first lines: the fleet, the release it promotes and the one pinned, a pause. */
function head(plan: FleetPlan, info: FleetInfo, release: Target): string[] {
  const images = plan.images?.length
    ? `, launch templates' $Latest at ${plan.images.join(", ")}`
    : "";
  const pinned = plan.pinned
    ? `pinned to ${releaseText(plan.pinned)}${images} for every stage`
    : release.releaseVersion === "latest"
      ? "not pinned yet: latest is resolved when the first cluster starts, then kept for every stage"
      : "pinned for every stage when the first cluster starts";
  const lines = [`Fleet ${plan.fleet} (${info.file}) promotes ${releaseText(release)}; ${pinned}.`];
  if (plan.paused)
    lines.push(
      `Paused${plan.paused.by ? ` by ${plan.paused.by}` : ""} ${when(plan.paused.at)}${plan.paused.reason ? `: ${plan.paused.reason}` : ""}; no cluster starts until \`noderoll fleet resume\`.`,
    );
  lines.push(
    info.gated
      ? "A stage has soaked once its soak time has passed with every cluster's gates green."
      : "No policy of the fleet has gates beyond the built-in: a stage soaks on time alone.",
  );
  return lines;
}

/** "Next run: starts dev-a, dev-b (stage dev)", or why it starts nothing. */
export function nextRunText(plan: FleetPlan): string {
  if (plan.due.length > 0)
    return `The next run starts ${plan.due.map((d) => `${d.view.cluster}${d.resume ? " (resumed)" : ""}`).join(", ")}.`;
  if (plan.paused) return "The next run starts nothing: the fleet is paused.";
  const waiting = plan.stages.find((s) => s.state.kind !== "soaked");
  return waiting
    ? `The next run starts nothing: stage ${waiting.stage.name} is ${stageWords(waiting.state)}.`
    : "The next run starts nothing: every stage is done.";
}

const stageHead = (s: StagePlan) =>
  `stage ${s.stage.name} (maxConcurrency ${s.concurrency}${s.stage.soak ? `, soak ${s.stage.soak}` : ""}${s.stage.environment ? `, environment ${s.stage.environment}` : ""}${s.stage.failureThreshold ? `, failureThreshold ${s.stage.failureThreshold}` : ""})`;

export function renderFleetText(plan: FleetPlan, info: FleetInfo, release: Target): string {
  const lines = [...head(plan, info, release), ""];
  for (const s of plan.stages) {
    lines.push(`${stageHead(s)}: ${stageWords(s.state)}`);
    for (const { view, state } of s.clusters)
      lines.push(
        `  ${view.cluster} (${view.region}, ${view.policyFile})${view.current ? ` runs ${view.current}` : ""}: ${clusterWords(state)}`,
      );
    lines.push("");
  }
  lines.push(nextRunText(plan));
  return `${lines.join("\n")}\n`;
}

const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderFleetMarkdown(plan: FleetPlan, info: FleetInfo, release: Target): string {
  const out = [`### noderoll fleet \`${plan.fleet}\``, "", ...head(plan, info, release), ""];
  out.push(`**${nextRunText(plan)}**`, "");
  out.push("| stage | cluster | runs | state |", "| --- | --- | --- | --- |");
  for (const s of plan.stages)
    for (const { view, state } of s.clusters)
      out.push(
        `| ${cell(s.stage.name)}: ${cell(stageWords(s.state))} | \`${cell(view.cluster)}\` (${cell(view.region)}) | ${cell(view.current ?? "")} | ${cell(clusterWords(state))} |`,
      );
  out.push("", ...fleetGantt(plan, info.now));
  return `${out.join("\n")}\n`;
}

/**
 * The stages as a Mermaid gantt: what happened (a stage's rolls from its first start to its last
 * end, and its soak), in UTC; a stage not reached yet is a milestone after the one above, since
 * its rolls' length is not known before they are planned.
 */
export function fleetGantt(plan: FleetPlan, now: Date): string[] {
  const z = new ZoneTime("UTC");
  const at = (ms: number) => z.stamp(ms);
  const bars: string[] = [];
  let previous: string | undefined;
  plan.stages.forEach((s, i) => {
    const id = `s${i}`;
    const starts = s.clusters.flatMap((c) => startOf(c.view.record?.startedAt, c.state));
    const ends = s.clusters.flatMap((c) => endOf(c.state));
    bars.push(`  section ${s.stage.name.replace(/[:#;]/g, "_")}`);
    if (starts.length === 0) {
      bars.push(`  not started :${id}, ${previous ? `after ${previous}` : at(now.getTime())}, 1m`);
    } else {
      const end = ends.length === s.clusters.length ? Math.max(...ends) : now.getTime();
      bars.push(
        `  rolls :${id}, ${at(Math.min(...starts))}, ${at(Math.max(end, Math.min(...starts) + 60_000))}`,
      );
      if (s.state.kind === "soaking" || s.state.kind === "soaked") {
        const until = Date.parse(s.state.kind === "soaking" ? s.state.until : s.state.at);
        bars.push(`  soak :${id}s, ${at(end)}, ${at(Math.max(until, end + 60_000))}`);
        previous = `${id}s`;
        return;
      }
    }
    previous = id;
  });
  return [
    "```mermaid",
    "gantt",
    "  dateFormat YYYY-MM-DD HH:mm:ss",
    "  axisFormat %d %b %H:%M",
    "  title Stages (UTC)",
    ...bars,
    "```",
  ];
}

const startOf = (iso: string | undefined, s: ClusterState) =>
  iso && s.kind !== "blocked" && s.kind !== "due" && s.kind !== "queued" ? [Date.parse(iso)] : [];
const endOf = (s: ClusterState) =>
  s.kind === "done" ? [Date.parse(s.finishedAt)] : s.kind === "failed" ? [Date.parse(s.at)] : [];

/** The plan as JSON; `due` is what a workflow's matrix of per-cluster jobs runs. */
export function renderFleetJson(plan: FleetPlan, info: FleetInfo, release: Target): string {
  const doc = {
    fleet: plan.fleet,
    file: info.file,
    release,
    pinned: plan.pinned ?? null,
    images: plan.images ?? [],
    paused: plan.paused ?? null,
    gated: info.gated,
    stages: plan.stages.map((s) => ({
      name: s.stage.name,
      state: s.state,
      maxConcurrency: s.concurrency,
      soak: s.stage.soak ?? null,
      environment: s.stage.environment ?? null,
      clusters: s.clusters.map(({ view, state }) => ({
        cluster: view.cluster,
        region: view.region,
        policy: view.policyFile,
        current: view.current ?? null,
        state,
      })),
    })),
    due: plan.due.map((d) => ({
      stage: d.stage.name,
      environment: d.stage.environment ?? "",
      cluster: d.view.cluster,
      region: d.view.region,
      policy: d.view.policyFile,
      resume: d.resume,
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
