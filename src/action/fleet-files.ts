// A fleet as the action reads it (issue 49): the fleet file and the policies its stages name,
// read from the checkout (adapters/files/read-fleet.ts) — never a file outside it, since a pull
// request may change the fleet file — its problems as annotations and Markdown, and its clusters
// reached the way a policy's cluster is (RunContext.connect).
import { basename } from "node:path";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { LivePorts } from "../adapters/connect.js";
import { readFleetFiles } from "../adapters/files/read-fleet.js";
import type { FleetDeps, FleetMember } from "../app/fleet.js";
import type { Fleet } from "../fleet/schema.js";
import { formatDiagnostic, type Diagnostic } from "../policy/index.js";
import { cell, provenance, type RunInfo } from "../render/index.js";
import type { RunContext } from "./context.js";
import { info } from "./log.js";
import { outsideWorkspace, refusal } from "./policy-file.js";

export type FleetInput =
  | { ok: true; file: string; name: string; fleet: Fleet; members: FleetMember[] }
  | { ok: false; file: string; name: string; errors: Diagnostic[] };

/** The hidden marker of a fleet's one comment on a pull request. */
export const fleetMarker = (name: string) => `<!-- noderoll:fleet:${name} -->`;
export const fleetCheckName = (name: string) => `noderoll fleet / ${name}`;

/** metadata.name of a fleet file that does not validate, or its file name. */
function guessName(path: string, file: string): string {
  try {
    const doc = parse(readFileSync(path, "utf8"), { maxAliasCount: 0 }) as {
      kind?: unknown;
      metadata?: { name?: unknown };
    };
    const name = doc?.metadata?.name;
    if (doc?.kind === "Fleet" && typeof name === "string" && /^[a-z0-9-]{1,63}$/.test(name))
      return name;
  } catch {
    // not YAML: the file's name
  }
  return basename(file).replace(/\.ya?ml$/i, "");
}

/**
 * The fleet and its members, or every problem with them. A file the fleet leads to outside the
 * workspace (a `../` glob, a symlink) refuses the whole fleet, saying only which path: nothing
 * read there is quoted.
 */
export function readFleetInput(file: string, workspace: string): FleetInput {
  const name = () => guessName(`${workspace}/${file}`, file);
  const own = outsideWorkspace(file, workspace);
  if (own) return { ok: false, file, name: basename(file), errors: [refusal(file, own)] };
  const read = readFleetFiles(file, workspace);
  const files = read.ok ? read.members.map((m) => m.file) : read.errors.map((d) => d.file);
  const away = [...new Set(files)].find((f) => outsideWorkspace(f, workspace));
  if (away)
    return {
      ok: false,
      file,
      name: name(),
      errors: [refusal(file, `a stage names ${away}: ${outsideWorkspace(away, workspace)}`)],
    };
  if (!read.ok) return { ok: false, file, name: name(), errors: read.errors };
  return {
    ok: true,
    file,
    name: read.fleet.metadata.name,
    fleet: read.fleet,
    members: read.members,
  };
}

/** The fleet's problems, as the job log says them (annotations come with them: see below). */
export function logDiagnostics(diags: readonly Diagnostic[]): void {
  for (const d of diags) info(formatDiagnostic(d));
}

/** An invalid fleet in Markdown: its file, each problem where it is, and that nothing was read. */
export function invalidFleetMarkdown(f: FleetInput & { ok: false }, run: RunInfo): string {
  const shown = f.errors.slice(0, 100);
  const from = provenance(run);
  const n = f.errors.length;
  return [
    `### noderoll fleet \`${f.name}\` · ❌ invalid`,
    "",
    `\`${f.file}\` and its policies have ${n} error${n === 1 ? "" : "s"}; no cluster was read or changed.${from ? ` ${from}` : ""}`,
    "",
    "| file | line | key | problem |",
    "| --- | --: | --- | --- |",
    ...shown.map(
      (d) =>
        `| \`${cell(d.file)}\` | ${d.line}:${d.col} | \`${cell(d.path || "-")}\` | ${cell(d.message)} |`,
    ),
    ...(n > shown.length ? [`| … | | | ${n - shown.length} more |`] : []),
    "",
  ].join("\n");
}

/**
 * Each member's cluster reached as the action reaches a policy's (kubeconfig input, or EKS
 * DescribeCluster and a token), once: the roll of a due cluster goes on over the connection
 * its fleet record was read through.
 */
export function fleetConnector(ctx: RunContext): {
  connect: FleetDeps["connect"];
  opened: Map<string, LivePorts>;
} {
  const opened = new Map<string, LivePorts>();
  const connect = async (m: FleetMember) => {
    let ports = opened.get(m.file);
    if (!ports) {
      // The fleet asks a cluster's time only once it has answered (app/fleet-store.ts).
      ports = await ctx.connect(m.policy);
      opened.set(m.file, ports);
    }
    return { ports, signal: ctx.signal };
  };
  return { connect, opened };
}

/** A fleet plan rolls nothing: readFleet never asks it to. */
export const noRoll: FleetDeps["roll"] = () =>
  Promise.reject(new Error("mode fleet-plan changes nothing"));
