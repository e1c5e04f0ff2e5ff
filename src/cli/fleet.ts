// `noderoll fleet plan|apply|pause|resume --fleet F` (issue 49): one release promoted across a
// fleet of clusters, stage by stage. plan reads every cluster's record and says what is due;
// apply rolls what is due now (or, with --only, the one cluster a matrix job is for) and
// returns — it never waits out a soak; pause and resume hold or release every later start.
// Live, each policy's cluster is reached as `plan` reaches one; --sandbox S (again for each
// cluster) builds the clusters as one account on one virtual clock, for a try or a test.
// Exit: 0 done (or nothing due), 1 invalid files or a cluster's roll failed, 2 usage, 3 a roll
// stopped early (run it again to continue).
import { hostname, userInfo } from "node:os";
import {
  applyFleet,
  fleetGated,
  holdFleet,
  readFleet,
  type FleetApplied,
  type FleetDeps,
  type FleetMember,
} from "../app/fleet.js";
import { planAndApply } from "../app/apply.js";
import { readFleetFiles } from "../adapters/files/read-fleet.js";
import type { Fleet } from "../fleet/schema.js";
import { formatDiagnostic, formatDuration, parseDuration } from "../policy/index.js";
import type { Account } from "../sandbox/world/account.js";
import { EventLog, type RollEvent } from "../ports/index.js";
import { renderFleetJson, renderFleetMarkdown, renderFleetText } from "../render/fleet.js";
import { durationArg, parseFlags, UsageError } from "./args.js";
import { FLEET_OPTIONS } from "./flags.js";
import type { HintContext } from "./hints.js";
import { loadAccount } from "./sandbox-world.js";
import { liveSession, type CliSession } from "./session.js";

type Values = ReturnType<typeof parseFlags<typeof FLEET_OPTIONS>>["values"];

const SUBCOMMANDS = ["plan", "apply", "pause", "resume"] as const;

type Connector = FleetDeps["connect"] & { close(): void; account?: Account };

/** Where the clusters are: a sandbox account, or each policy's live cluster. */
function connector(values: Values, hints: HintContext): Connector {
  const opened: CliSession[] = [];
  const files = values.sandbox ?? [];
  const account = files.length > 0 ? loadAccount(files) : undefined;
  const connect = async (m: FleetMember) => {
    if (account)
      return {
        ports: account.ports(m.policy.cluster.name),
        drive: <T>(t: Promise<T>) => account.run(t),
      };
    const s = await liveSession(m.policy, undefined, hints);
    opened.push(s);
    return s;
  };
  return Object.assign(connect, {
    close: () => opened.forEach((s) => s.close()),
    ...(account && { account }),
  });
}

/** Each cluster's roll as a few lines: its groups' ends and its own, prefixed with its name. */
function rollDeps(values: Values, connect: FleetDeps["connect"]): FleetDeps {
  const runId = values["run-id"] ?? `noderoll-fleet-${hostname()}-${process.pid}`;
  return {
    runId,
    connect,
    roll: async (m, session, policy) => {
      const name = m.policy.cluster.name;
      const log = new EventLog(session.ports.clock);
      log.on((e: RollEvent) => {
        if (e.type === "group.end") process.stdout.write(`${name}: ${e.group} ${e.result}\n`);
      });
      process.stdout.write(`${name}: rolling ${m.file} (stage ${m.stage})\n`);
      const r = await planAndApply(policy, m.file, session.ports, log, {
        runId: `${runId}-${name}`,
        ...(values.reason && { reason: values.reason }),
      });
      process.stdout.write(`${name}: ${r.result}: ${r.message}\n`);
      return { result: r.result, message: r.message };
    },
  };
}

function print(
  values: Values,
  read: Awaited<ReturnType<typeof readFleet>>,
  fleet: Fleet,
  file: string,
  gated: boolean,
) {
  const info = { file, gated, now: read.now };
  const render =
    values.format === "json"
      ? renderFleetJson
      : values.format === "markdown"
        ? renderFleetMarkdown
        : renderFleetText;
  if (!["text", "json", "markdown"].includes(values.format))
    throw new UsageError(`--format takes text, markdown or json, not ${values.format}`);
  process.stdout.write(render(read.plan, info, fleet.release));
}

const who = () => {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return `${process.env.USER ?? "someone"}@${hostname()}`;
  }
};

export async function runFleet(args: string[], hints: HintContext): Promise<number> {
  const [sub, ...rest] = args;
  if (!SUBCOMMANDS.includes(sub as (typeof SUBCOMMANDS)[number]))
    throw new UsageError(
      `fleet takes plan, apply, pause or resume${sub ? `, not ${JSON.stringify(sub)}` : ""}`,
    );
  const { values } = parseFlags(rest, FLEET_OPTIONS);
  if (!values.fleet) throw new UsageError("--fleet FILE is required");
  const files = readFleetFiles(values.fleet, process.cwd());
  if (!files.ok) {
    for (const e of files.errors) process.stderr.write(`${formatDiagnostic(e)}\n`);
    process.stderr.write(`${values.fleet}: invalid fleet; nothing was read or changed\n`);
    return 1;
  }
  const { fleet, members } = files;
  const only = values.only
    ? members.filter((m) => m.file === values.only!.replace(/^\.\//, ""))
    : members;
  if (values.only && only.length === 0)
    throw new UsageError(`--only ${values.only}: no stage of ${values.fleet} names that policy`);
  const gated = fleetGated(members);
  const connect = connector(values, hints);
  try {
    const deps = rollDeps(values, connect);
    if (sub === "pause" || sub === "resume") {
      const pause =
        sub === "pause"
          ? { by: who(), ...(values.reason && { reason: values.reason }) }
          : undefined;
      const said = await holdFleet(fleet, members, deps, pause);
      for (const r of said)
        if (r.error) process.stderr.write(`${r.cluster}: not ${sub}d: ${r.error}\n`);
        else process.stdout.write(`${r.cluster}: ${sub}d\n`);
      return said.some((r) => r.error) ? 1 : 0;
    }
    if (sub === "plan") {
      print(
        values,
        await readFleet(fleet, members, deps, { retryFailed: values["retry-failed"] }),
        fleet,
        values.fleet,
        gated,
      );
      return 0;
    }
    const options = {
      retryFailed: values["retry-failed"],
      // --only: the whole fleet is read (what is due is the fleet's to say), one cluster rolled.
      ...(values.only && { only: only.map((m) => m.file) }),
    };
    const rolled = values.every
      ? await everyInterval(values.every, connect.account, () =>
          applyFleet(fleet, members, deps, options),
        )
      : (await applyFleet(fleet, members, deps, options)).rolled;
    // What the fleet looks like now, read afresh from the clusters the rolls changed.
    print(values, await readFleet(fleet, members, deps), fleet, values.fleet, gated);
    const results = rolled.map((r) => r.result);
    return results.includes("failure") ? 1 : results.some((r) => r !== "success") ? 3 : 0;
  } finally {
    connect.close();
  }
}

/** Runs of a whole sandbox rollout before it is given up as one that never ends. */
const MAX_RUNS = 24 * 90;

/**
 * `fleet apply --sandbox … --every 1h`: apply, let `every` of virtual time pass, apply again —
 * as a schedule would — until a run finds nothing left to start and nothing rolling (every
 * stage done, or the fleet halted or paused). Each run's starts are said with their hour.
 */
async function everyInterval(
  every: string,
  account: Account | undefined,
  run: () => ReturnType<typeof applyFleet>,
): Promise<FleetApplied["rolled"]> {
  const ms = durationArg("--every", every, parseDuration);
  if (!account || !ms)
    throw new UsageError(
      "--every runs a whole rollout in the sandbox: give --sandbox for each cluster, and a duration such as 1h",
    );
  const start = account.clock.nowMs();
  const all: FleetApplied["rolled"] = [];
  for (let i = 0; i < MAX_RUNS; i++) {
    const applied = await run();
    all.push(...applied.rolled);
    const { plan } = applied.read;
    const busy = plan.stages.some((s) => s.clusters.some((c) => c.state.kind === "rolling"));
    const open = plan.stages.some((s) => s.state.kind === "soaking" || s.state.kind === "rolling");
    const halted = plan.stages.some((s) => s.state.kind === "halted");
    if (applied.rolled.length === 0 && !busy && (!open || halted || plan.paused)) break;
    await account.advance(ms);
    if (applied.rolled.length > 0)
      process.stdout.write(
        `(+${formatDuration(Math.round((account.clock.nowMs() - start) / 60_000) * 60_000)} of virtual time)\n`,
      );
  }
  return all;
}
