// Health gates while a group rolls: the signals that say whether the new release is good, read
// every GATE_PERIOD_MS of roll time, in waves and bakes alike, so that an alarm that fires stops
// the roll before its next cordon. The verdicts follow Argo Rollouts' analysis (successful /
// failed / inconclusive: https://argo-rollouts.readthedocs.io/en/stable/features/analysis/); the
// alarms are CloudWatch's, as EC2 Auto Scaling's instance refresh reads them
// (https://docs.aws.amazon.com/autoscaling/ec2/userguide/instance-refresh-rollback.html). Which
// instances are the group's replacements is its kind's to say (GateSubject); the rest is here.
import { formatDuration, type GateSettings, type PrometheusGate } from "../policy/index.js";
import {
  abortError,
  describeFailure,
  isReady,
  listAll,
  pageOf,
  type GateVerdict,
  type Node,
  type Pod,
} from "../ports/index.js";
import { RollError, Stopped, type RollContext } from "./context.js";
import { LEASE_NAMESPACE, leaseName } from "./lease.js";
import { setRequest, stopOf, type LeaseRequest } from "./lease-request.js";
import { crashLooping, watchedPodsOf } from "./critical-pods.js";

/** How often the gates are read: each gate costs at most one request per period. */
export const GATE_PERIOD_MS = 30_000;

export interface GateReading {
  gate: string;
  verdict: GateVerdict;
  /** What was read, in short: "ALARM", "0.031", "2 pods". */
  value: string;
  detail?: string;
  /** The replacement nodes the verdict is about, when it is about some. */
  nodes?: string[];
}

/** A group's replacement: an instance launched since its roll began, and its node once joined. */
export interface ReplacementNode {
  instance: string;
  node?: Node;
}

export interface GateSubject {
  group: string;
  settings: GateSettings;
  /** The group's replacements now (its kind reads them; a read reused within a period is fine). */
  replacements(): Promise<ReplacementNode[]>;
}

/** What stops the roll: a failed gate, or an inconclusive one the policy does not go on past. */
export interface GateStop {
  verdict: Exclude<GateVerdict, "pass">;
  reading: GateReading;
}

/** Whether `reading` stops the roll under the group's settings. */
function stopsOn(settings: GateSettings, reading: GateReading): GateStop | undefined {
  if (reading.verdict === "fail") return { verdict: "fail", reading };
  if (reading.verdict === "inconclusive" && settings.onInconclusive !== "continue")
    return { verdict: "inconclusive", reading };
  return undefined;
}

/**
 * A group's gates, read in the background while it rolls (start … close). The first verdict
 * that stops the roll is kept (`stopped`) and aborts `halted`, which the drains in flight listen
 * to: no eviction is made after it.
 */
export class GateWatch {
  private readonly firstSeen = new Map<string, number>();
  private last?: { at: number; readings: GateReading[] };
  /** The reading under way: a second ask while it runs shares it (one request per gate). */
  private reading?: Promise<GateStop | undefined>;
  /** The first reading, which the roll waits for before its first write. */
  private first?: Promise<GateStop | undefined>;
  private readonly halt = new AbortController();
  private readonly closed = new AbortController();
  private loop?: Promise<void>;
  private stop?: GateStop;

  constructor(
    private readonly ctx: RollContext,
    private readonly subject: GateSubject,
  ) {}

  /** Aborted once a verdict stops the roll. */
  get halted(): AbortSignal {
    return this.halt.signal;
  }

  get stopped(): GateStop | undefined {
    return this.stop;
  }

  /**
   * Read the gates now and every period after, until closed or stopped. Resolves with the first
   * reading: a gate that fails before anything is done (an alarm firing already) stops the roll
   * before its first write.
   */
  start(): Promise<GateStop | undefined> {
    this.first ??= this.evaluate();
    this.loop ??= this.run();
    return this.first;
  }

  async close(): Promise<void> {
    this.closed.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const signal = AbortSignal.any([this.ctx.signal, this.closed.signal]);
    while (!signal.aborted && !this.stop) {
      await this.evaluate();
      await this.ctx.clock.sleep(GATE_PERIOD_MS, signal).catch(() => undefined);
    }
  }

  /**
   * The gates' verdict now: read afresh when the last reading is a period old (the requests'
   * budget), else the last one's. Every reading goes to the event log.
   */
  evaluate(): Promise<GateStop | undefined> {
    const now = this.ctx.clock.now().getTime();
    if (this.stop || (this.last && now - this.last.at < GATE_PERIOD_MS))
      return Promise.resolve(this.stop);
    this.reading ??= this.readNow(now).finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readNow(now: number): Promise<GateStop | undefined> {
    const readings = await this.read();
    this.last = { at: now, readings };
    for (const r of readings)
      this.ctx.emit({ type: "gate.verdict", group: this.subject.group, ...r });
    const stop = readings.map((r) => stopsOn(this.subject.settings, r)).find(Boolean);
    if (stop && !this.stop && !this.ctx.signal.aborted) {
      this.stop = stop;
      this.halt.abort();
    }
    return this.stop;
  }

  private async read(): Promise<GateReading[]> {
    const s = this.subject.settings;
    const [replacements, signals] = await Promise.all([
      this.replacementGates(),
      readSignals(this.ctx, s),
    ]);
    return [...replacements, ...signals];
  }

  private async replacementGates(): Promise<GateReading[]> {
    let news: ReplacementNode[];
    try {
      news = await this.subject.replacements();
    } catch (e) {
      const value = "unread";
      const detail = `the group could not be read: ${describeFailure(e)}`;
      return [
        { gate: "replacements-ready", verdict: "inconclusive", value, detail },
        { gate: "crash-looping-pods", verdict: "inconclusive", value, detail },
      ];
    }
    return [this.readyGate(news), await crashLoopGate(this.ctx, this.subject.settings, news)];
  }

  /** Each replacement Ready within readyWithin of when its instance was first seen. */
  private readyGate(news: ReplacementNode[]): GateReading {
    const now = this.ctx.clock.now().getTime();
    const within = this.subject.settings.replacements.readyWithinMs;
    const late: string[] = [];
    for (const r of news) {
      const seen = this.firstSeen.get(r.instance) ?? now;
      this.firstSeen.set(r.instance, seen);
      if (!(r.node && isReady(r.node)) && now - seen > within)
        late.push(r.node?.metadata.name ?? r.instance);
    }
    const ready = news.filter((r) => r.node && isReady(r.node)).length;
    if (late.length === 0)
      return {
        gate: "replacements-ready",
        verdict: "pass",
        value: `${ready}/${news.length} Ready`,
      };
    return {
      gate: "replacements-ready",
      verdict: "fail",
      value: `${late.length} not Ready`,
      detail: `${late.join(", ")} not Ready ${formatDuration(within)} after launch (readyWithin)`,
      nodes: late,
    };
  }
}

/** Pods on the replacements' nodes that restart or crash-loop, at or above the threshold. */
async function crashLoopGate(
  ctx: RollContext,
  settings: GateSettings,
  news: ReplacementNode[],
): Promise<GateReading> {
  const gate = "crash-looping-pods";
  const nodes = new Set(news.flatMap((r) => (r.node ? [r.node.metadata.name] : [])));
  if (nodes.size === 0) return { gate, verdict: "pass", value: "0 pods" };
  let looping: Pod[];
  try {
    looping = await loopingOn(ctx, nodes);
  } catch (e) {
    return { gate, verdict: "inconclusive", value: "unread", detail: describeFailure(e) };
  }
  const at = settings.replacements.crashLoopingPods;
  const names = looping.map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
  const value = `${looping.length} pod${looping.length === 1 ? "" : "s"}`;
  if (looping.length < at) return { gate, verdict: "pass", value };
  return {
    gate,
    verdict: "fail",
    value,
    detail: `crash-looping or restarting on replacement nodes (${names.slice(0, 5).join(", ")}${names.length > 5 ? ", …" : ""}); the gate fails at ${at}`,
    nodes: [...new Set(looping.map((p) => p.spec.nodeName as string))],
  };
}

/** From the run's pod watch; while it fails, a list of each replacement node's pods. */
async function loopingOn(ctx: RollContext, nodes: Set<string>): Promise<Pod[]> {
  const cached = (await watchedPodsOf(ctx))?.crashLooping();
  if (cached) return cached.filter((p) => nodes.has(p.spec.nodeName ?? ""));
  const lists = await Promise.all(
    [...nodes].map((n) =>
      listAll((cont) =>
        ctx.cluster.listPods(undefined, { ...pageOf(cont), fieldSelector: `spec.nodeName=${n}` }),
      ),
    ),
  );
  return lists.flatMap((l) => l.items).filter(crashLooping);
}

/** Where the signals are read: the account's CloudWatch, and Prometheus when the run has one. */
type Signals = Pick<RollContext, "cloud" | "metrics">;

/**
 * The gates a release is judged by beyond its replacements — CloudWatch alarms and Prometheus
 * thresholds — read once: a roll's watch reads them every period, a fleet's soak each run.
 */
export async function readSignals(
  ctx: Signals,
  gates: Pick<GateSettings, "alarms" | "prometheus">,
): Promise<GateReading[]> {
  const [alarms, queries] = await Promise.all([
    gates.alarms.length > 0 ? alarmGates(ctx, gates.alarms) : [],
    Promise.all(gates.prometheus.map((p) => prometheusGate(ctx, p))),
  ]);
  return [...alarms, ...queries];
}

/** Each alarm: OK passes, ALARM fails, INSUFFICIENT_DATA (or no such alarm) is inconclusive. */
async function alarmGates(ctx: Signals, names: string[]): Promise<GateReading[]> {
  const gate = (n: string) => `alarm/${n}`;
  let alarms;
  try {
    alarms = await ctx.cloud.cloudWatch.describeAlarms({ AlarmNames: names });
  } catch (e) {
    const detail = `DescribeAlarms failed: ${describeFailure(e)}`;
    return names.map((n) => ({ gate: gate(n), verdict: "inconclusive", value: "unread", detail }));
  }
  return names.map((n): GateReading => {
    const a = alarms.find((x) => x.AlarmName === n);
    if (!a)
      return {
        gate: gate(n),
        verdict: "inconclusive",
        value: "missing",
        detail: `no CloudWatch alarm named ${n} in this account and region`,
      };
    const verdict =
      a.StateValue === "OK" ? "pass" : a.StateValue === "ALARM" ? "fail" : "inconclusive";
    return {
      gate: gate(n),
      verdict,
      value: a.StateValue,
      ...(a.StateReason && { detail: a.StateReason }),
    };
  });
}

/** A Prometheus instant query against its threshold; no single number is inconclusive. */
async function prometheusGate(ctx: Signals, p: PrometheusGate): Promise<GateReading> {
  const gate = `prometheus/${p.name}`;
  if (!ctx.metrics)
    return {
      gate,
      verdict: "inconclusive",
      value: "unread",
      detail: "no Prometheus client in this run",
    };
  try {
    const v = await ctx.metrics.instantQuery({ address: p.address, query: p.query });
    if (v.kind === "empty")
      return { gate, verdict: "inconclusive", value: "no value", detail: v.why };
    const crossed = "above" in p.fail ? v.value > p.fail.above : v.value < p.fail.below;
    const limit = "above" in p.fail ? `above ${p.fail.above}` : `below ${p.fail.below}`;
    return {
      gate,
      verdict: crossed ? "fail" : "pass",
      value: String(v.value),
      ...(crossed && { detail: `${p.query} = ${v.value}, ${limit}` }),
    };
  } catch (e) {
    return { gate, verdict: "inconclusive", value: "unread", detail: describeFailure(e) };
  }
}

/** The roll halted by a failed gate (or an inconclusive one under onInconclusive: halt). */
export class GateFailed extends RollError {
  constructor(
    readonly group: string,
    readonly gate: string,
    /** Only a failed gate is a reason to roll back; an inconclusive one that halts is not. */
    readonly verdict: GateStop["verdict"],
    message: string,
  ) {
    super("GateFailed", message);
  }
}

/**
 * Pause the roll as `noderoll pause` would: the pause stands on the cluster's Lease — every apply
 * refuses until `noderoll resume` — and the run stops (exit 3). A request standing already (an
 * operator's abort, with a rollback or not; another pause) is honoured as it is, never
 * overwritten: the write is conditional on none standing, read afresh on every attempt.
 */
export async function pauseFor(
  ctx: RollContext,
  cluster: string,
  group: string,
  reason: string,
  where: string,
): Promise<Stopped> {
  const request: LeaseRequest = {
    action: "pause",
    by: `noderoll (gates of ${group})`,
    reason,
    at: ctx.clock.now().toISOString(),
  };
  const written = await setRequest(
    ctx.cluster,
    LEASE_NAMESPACE,
    leaseName(cluster),
    request,
    (standing) => standing === undefined,
  );
  return new Stopped(stopOf(written.changed ? request : (written.before ?? request)), where);
}

/** What a self-managed halt has done by the time it is said (kinds/self-managed/gates.ts). */
const HALTED =
  "The roll halted: no node was cordoned after it, and nodes whose drain it interrupted were made schedulable again. Fix the release (or the gate) and run apply again";

/**
 * The roll halted by a failed (or inconclusive, under onInconclusive: halt) gate: exit 1. `after`
 * says what the halt left — its kind's to say (EKS's update goes on, for a managed group).
 */
export function gateFailure(
  group: string,
  stop: GateStop,
  wave: readonly string[],
  after = HALTED,
): GateFailed {
  const r = stop.reading;
  const what = stop.verdict === "fail" ? "failed" : "was inconclusive";
  const about = r.nodes?.length ? r.nodes : wave;
  const nodes = about.length > 0 ? ` (nodes: ${about.join(", ")})` : "";
  return new GateFailed(
    group,
    r.gate,
    stop.verdict,
    `${group}: gate ${r.gate} ${what} — ${r.value}${r.detail ? `: ${r.detail}` : ""}${nodes}. ${after}`,
  );
}

/**
 * What a gate's stop comes to, for every kind: an inconclusive gate the policy pauses on pauses
 * the roll as `noderoll pause` would (`where`: what is left); any other stop fails it
 * (gateFailure, `after` what the halt left).
 */
export function stopOnGate(
  ctx: RollContext,
  o: { cluster: string; group: string; settings: GateSettings; stop: GateStop },
  said: { wave: readonly string[]; where: string; after?: string },
): Promise<RollError> {
  const r = o.stop.reading;
  if (o.stop.verdict === "inconclusive" && o.settings.onInconclusive === "pause") {
    const why = `gate ${r.gate} was inconclusive — ${r.value}${r.detail ? `: ${r.detail}` : ""}`;
    return pauseFor(ctx, o.cluster, o.group, why, said.where);
  }
  return Promise.resolve(gateFailure(o.group, o.stop, said.wave, said.after));
}

/**
 * Watch the gates for `ms` before going on (a bake, a checkpoint's delay), the verdict read again
 * at its end: a halt that aborts `ctx.signal` ends it early, with that abort.
 */
export async function watchFor(
  ctx: RollContext,
  gates: GateWatch | undefined,
  group: string,
  ms: number,
  why: string,
): Promise<void> {
  if (ms <= 0) return;
  ctx.emit({ type: "wait.start", group, what: `${why}: gates watched for ${formatDuration(ms)}` });
  try {
    await ctx.clock.sleep(ms, ctx.signal);
    await gates?.evaluate();
  } finally {
    ctx.emit({ type: "wait.end", group });
  }
  if (ctx.signal.aborted) throw abortError(ctx.signal);
}
