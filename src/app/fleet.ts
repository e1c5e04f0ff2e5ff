// A fleet's run, for the command line and the action alike (issue 49): read every cluster's
// record concurrently, decide from them and the time what is due (fleet/schedule.ts), and — for
// `fleet apply` — roll the due clusters, each an ordinary apply of its policy with every group's
// target set to the fleet's pinned release, recording on the cluster how it went. It returns
// when those rolls end: it never waits out a soak; the next run, on any machine, goes on from
// what the clusters record.
import { underFleet } from "../fleet/agree.js";
import { promotionOf, type FleetRecord } from "../fleet/record.js";
import { scheduleFleet, type ClusterView, type FleetPlan } from "../fleet/schedule.js";
import type { Fleet } from "../fleet/schema.js";
import { CONCURRENCY, mapLimit } from "../plan/limit.js";
import { policySignals, type Policy, type Target } from "../policy/index.js";
import { readSignals } from "../roll/gates.js";
import { describeFailure, type Result } from "../ports/index.js";
import { latestImages, pinnedToImages } from "./fleet-images.js";
import { readStored, viewOf, writePause, writeRecord, type StoredState } from "./fleet-store.js";
import { driveOf, type Session } from "./session.js";

/** A policy the fleet names, and the stage it is in. */
export interface FleetMember {
  stage: string;
  file: string;
  policy: Policy;
}

export interface FleetDeps {
  /** The member's cluster, connected (a sandbox account's, or live). */
  connect(member: FleetMember): Promise<Session>;
  /** Roll one cluster: apply `policy` (the member's, targets under the fleet's release). */
  roll(
    member: FleetMember,
    session: Session,
    policy: Policy,
  ): Promise<{ result: Result; message: string }>;
  runId: string;
  /** Clusters read at once (default 8): concurrent, and within every API server's budget. */
  readConcurrency?: number;
}

export interface FleetRead {
  plan: FleetPlan;
  sessions: Map<string, Session>;
  now: Date;
}

/** Every member's cluster read, and the fleet's next steps decided. */
export async function readFleet(
  fleet: Fleet,
  members: readonly FleetMember[],
  deps: FleetDeps,
  options: { retryFailed?: boolean } = {},
): Promise<FleetRead> {
  const sessions = new Map<string, Session>();
  const promotion = promotionOf(fleet);
  const read = await mapLimit(members, deps.readConcurrency ?? CONCURRENCY, async (m) => {
    const base = {
      stage: m.stage,
      policyFile: m.file,
      cluster: m.policy.cluster.name,
      region: m.policy.cluster.region,
    };
    try {
      const session = await deps.connect(m);
      sessions.set(m.file, session);
      const [stored, current] = await driveOf(session)(
        Promise.all([
          readStored(session.ports.cluster, base.cluster, fleet.metadata.name, () =>
            session.ports.clock.now(),
          ),
          currentRelease(session, m.policy).catch(() => undefined),
        ]),
      );
      // A cluster done with this promotion soaks: its gates are read each run.
      const done = stored.record?.promotion === promotion && stored.record.state === "succeeded";
      const gates = done ? await driveOf(session)(soakVerdict(session, m.policy)) : undefined;
      const view = {
        ...viewOf(base, stored),
        ...(current && { current }),
        ...(gates && { gates }),
      };
      return { view, stored, now: stored.now };
    } catch (e) {
      return { view: { ...base, unreadable: describeFailure(e) } as ClusterView };
    }
  });
  const now = read.find((r) => r.now)?.now ?? new Date();
  const pause = read.map((r) => (r as { stored?: StoredState }).stored?.pause).find(Boolean);
  const plan = scheduleFleet({
    fleet,
    promotion,
    views: read.map((r) => r.view),
    now,
    ...(options.retryFailed && { retryFailed: true }),
    ...(pause && { paused: { at: pause.at, by: pause.by, reason: pause.reason } }),
  });
  return { plan, sessions, now };
}

/**
 * What the policy's groups run now, in a few words: a managed node group's release (EKS
 * DescribeNodegroup), a self-managed group's launch template versions in use (one
 * DescribeAutoScalingGroups for them all). AWS calls only: a fleet of 1,000-node clusters is
 * read without listing a node.
 */
export async function currentRelease(session: Session, policy: Policy): Promise<string> {
  const { eks, autoScaling } = session.ports.cloud;
  const managed = new Set(await eks.listNodegroups(policy.cluster.name));
  const names = policy.groups.map((g) => g.name);
  const parts = new Map<string, string>();
  await Promise.all(
    names
      .filter((n) => managed.has(n))
      .map(async (n) => {
        const ng = await eks.describeNodegroup(policy.cluster.name, n);
        parts.set(n, `${n} ${ng.releaseVersion}`);
      }),
  );
  const asgs = names.filter((n) => !managed.has(n));
  if (asgs.length > 0)
    for (const g of await autoScaling.describeAutoScalingGroups({ AutoScalingGroupNames: asgs })) {
      const used = [...new Set(g.Instances.map((i) => i.LaunchTemplate?.Version ?? "?"))].sort();
      parts.set(
        g.AutoScalingGroupName,
        `${g.AutoScalingGroupName} launch template ${used.join("+")}`,
      );
    }
  return names.flatMap((n) => parts.get(n) ?? []).join("; ");
}

/**
 * Whether any policy of the fleet reads gates beyond the built-in (alarms, Prometheus): what
 * "soaked green" can mean for it; without, a stage soaks on time alone.
 */
export function fleetGated(members: readonly FleetMember[]): boolean {
  return members.some((m) => {
    const s = policySignals(m.policy);
    return s.alarms.length > 0 || s.prometheus.length > 0;
  });
}

/**
 * The verdict of a soaking cluster's gates — its policy's alarms and Prometheus thresholds, read
 * once (roll/gates.ts readSignals) — or undefined when it has none: it soaks on time alone.
 */
export async function soakVerdict(
  session: Session,
  policy: Policy,
): Promise<ClusterView["gates"] | undefined> {
  const signals = policySignals(policy);
  if (signals.alarms.length === 0 && signals.prometheus.length === 0) return undefined;
  const { cloud, metrics } = session.ports;
  const readings = await readSignals({ cloud, ...(metrics && { metrics }) }, signals);
  const say = (v: string) =>
    readings
      .filter((r) => r.verdict === v)
      .map((r) => `${r.gate} ${r.value}${r.detail ? ` (${r.detail})` : ""}`)
      .join("; ");
  if (readings.some((r) => r.verdict === "fail")) return { verdict: "fail", detail: say("fail") };
  if (readings.some((r) => r.verdict === "inconclusive"))
    return { verdict: "inconclusive", detail: say("inconclusive") };
  return { verdict: "pass", detail: readings.map((r) => `${r.gate} ${r.value}`).join("; ") };
}

/** The release to pin: `latest` resolved once, through the first due cluster's AWS. */
export async function resolveRelease(release: Target, session: Session): Promise<Target> {
  if (release.releaseVersion !== "latest" || !release.kubernetesVersion) return release;
  const eks = session.ports.cloud.eks;
  const latest = (await driveOf(session)(
    eks.latestReleaseVersions?.([release.kubernetesVersion]) ?? Promise.resolve({}),
  )) as Record<string, string>;
  const version = latest[release.kubernetesVersion];
  if (!version)
    throw new Error(
      `the latest EKS AMI release for Kubernetes ${release.kubernetesVersion} is not known: name releaseVersion in the fleet's release`,
    );
  return { ...release, releaseVersion: version };
}

export interface FleetApplied {
  read: FleetRead;
  release?: Target;
  rolled: { member: FleetMember; result: Result; message: string }[];
}

/** Start what is due now, roll it, record how it went; return without waiting out a soak. */
export async function applyFleet(
  fleet: Fleet,
  members: readonly FleetMember[],
  deps: FleetDeps,
  options: { retryFailed?: boolean; only?: readonly string[] } = {},
): Promise<FleetApplied> {
  const read = await readFleet(fleet, members, deps, options);
  // `only`: a matrix job's one cluster, rolled only if the fleet (read whole) says it is due.
  const wanted = read.plan.due.filter(
    (d) => !options.only || options.only.includes(d.view.policyFile),
  );
  const due = wanted.flatMap((d) => {
    const member = members.find((m) => m.file === d.view.policyFile);
    const session = read.sessions.get(d.view.policyFile);
    return member && session ? [{ member, session, stage: d.stage.name }] : [];
  });
  const [first] = due;
  if (!first) return { read, rolled: [] };
  const release = read.plan.pinned ?? (await resolveRelease(fleet.release, first.session));
  const images = read.plan.pinned
    ? (read.plan.images ?? [])
    : await driveOf(first.session)(
        latestImages(first.session, underRelease(first.member.policy, release)),
      );
  const promotion = promotionOf(fleet);
  // Every due cluster rolls at once (the schedule kept them within maxConcurrency), in one
  // stretch of the ports' time: a sandbox account's clock is one for all its clusters.
  const rolled = await driveOf(first.session)(
    Promise.all(
      due.map(async ({ member, session, stage }) => {
        const ports = { ...session, drive: undefined };
        const record: FleetRecord = {
          fleet: fleet.metadata.name,
          promotion,
          release,
          ...(images.length > 0 && { images }),
          stage,
          state: "rolling",
          startedAt: session.ports.clock.now().toISOString(),
          run: deps.runId,
        };
        await writeRecord(session.ports.cluster, member.policy.cluster.name, record);
        const out = await rollOne(deps, member, ports, release, images);
        // Stopped early (a window, a deadline, a pause): the record stays "rolling" with no lock,
        // and the next run resumes it.
        if (out.result === "success" || out.result === "failure")
          await writeRecord(session.ports.cluster, member.policy.cluster.name, {
            ...record,
            state: out.result === "success" ? "succeeded" : "failed",
            finishedAt: session.ports.clock.now().toISOString(),
            ...(out.result === "failure" && { message: out.message }),
          });
        return { member, ...out };
      }),
    ),
  );
  return { read, release, rolled };
}

/** The policy with every group's target the fleet's release. */
const underRelease = (policy: Policy, release: Target): Policy => ({
  ...policy,
  groups: policy.groups.map((g) => ({ ...g, target: underFleet(g.target, release) })),
});

/**
 * The member's apply under the fleet's release, `$Latest` templates at the pinned AMIs; what
 * throws (no version runs them, say) is the cluster's failure.
 */
async function rollOne(
  deps: FleetDeps,
  member: FleetMember,
  session: Session,
  release: Target,
  images: readonly string[],
) {
  try {
    const policy = await pinnedToImages(session, underRelease(member.policy, release), images);
    return await deps.roll(member, session, policy);
  } catch (e) {
    return { result: "failure" as Result, message: describeFailure(e) };
  }
}

/**
 * `fleet pause` (a pause given) or `fleet resume` (none): written on every cluster of the fleet,
 * so that any run on any machine, reading any of them, starts nothing until it is cleared. A
 * roll in flight goes on (`noderoll pause` stops one); what each cluster said is returned.
 */
export async function holdFleet(
  fleet: Fleet,
  members: readonly FleetMember[],
  deps: Pick<FleetDeps, "connect">,
  pause: { by?: string; reason?: string } | undefined,
): Promise<{ cluster: string; error?: string }[]> {
  return mapLimit(members, CONCURRENCY, async (m) => {
    const cluster = m.policy.cluster.name;
    try {
      const session = await deps.connect(m);
      const at = session.ports.clock.now().toISOString();
      const record = pause && { fleet: fleet.metadata.name, at, ...pause };
      await driveOf(session)(writePause(session.ports.cluster, cluster, record));
      return { cluster };
    } catch (e) {
      return { cluster, error: describeFailure(e) };
    }
  });
}
