// `noderoll sandbox serve` (the sandbox over HTTP, one cluster or an account of several) and
// `noderoll sandbox generate` (a large synthetic scenario, and a policy for it).
import { writeFileSync } from "node:fs";
import { generatePolicyYaml, generateScenarioYaml } from "../sandbox/scenarios/generate.js";
import { closest } from "../policy/suggest.js";
import { parseFlags, UsageError } from "./args.js";
import { GENERATE_OPTIONS, SERVE_OPTIONS } from "./flags.js";
import { expandScenarios, loadAccount, loadWorld } from "./sandbox-world.js";

function count(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} takes a whole number >= 1`);
  return n;
}

/** `--pull N:FILE[,FILE]...`: pull request N changes these files (no number twice). */
function pullFlags(values: readonly string[]): { number: number; files: string[] }[] {
  const pulls = values.map((value) => {
    const m = /^(\d+):(.+)$/.exec(value);
    const files = m?.[2]?.split(",").filter((f) => f.length > 0) ?? [];
    if (!m || Number(m[1]) < 1 || files.length === 0)
      throw new UsageError(
        `--pull takes N:FILE[,FILE]... (pull request N changes these files), not "${value}"`,
      );
    return { number: Number(m[1]), files };
  });
  for (const [i, p] of pulls.entries())
    if (pulls.findIndex((q) => q.number === p.number) !== i)
      throw new UsageError(`--pull ${p.number} is given twice: one --pull per pull request`);
  return pulls;
}

/** `--repo OWNER/NAME`, the repository the GitHub face serves (default octo-org/infra). */
function repoFlag(value: string | undefined): { owner: string; repo: string } {
  if (value === undefined) return { owner: "octo-org", repo: "infra" };
  const m = /^([\w.-]+)\/([\w.-]+)$/.exec(value);
  if (!m) throw new UsageError(`--repo takes OWNER/NAME, not "${value}"`);
  return { owner: m[1] as string, repo: m[2] as string };
}

/** Serve until SIGINT/SIGTERM; the endpoints and the variables to export go to stdout. */
async function serve(args: string[]): Promise<number> {
  const { values } = parseFlags(args, SERVE_OPTIONS);
  const { owner, repo } = repoFlag(values.repo);
  const pulls = pullFlags(values.pull ?? []);
  const speed = values.speed === undefined ? 1 : Number(values.speed);
  if (!Number.isFinite(speed) || speed < 0)
    throw new UsageError("--speed takes a number >= 0 (virtual seconds per real second)");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError("--port takes a port number");
  // Loaded here, not at start-up: its HTTP server's module (node:http) brings in undici when
  // imported, ~50 ms before any other command could begin.
  const { MAX_SERVED_CLUSTERS, serveSandbox, servedPull } =
    await import("../sandbox/wire/serve.js");
  const scenarios = expandScenarios(values.scenario ?? []);
  if (scenarios.length > MAX_SERVED_CLUSTERS)
    throw new UsageError(
      `--scenario: at most ${MAX_SERVED_CLUSTERS} clusters are served at once (each has a TLS identity, a certificate authority, of its own), not ${scenarios.length}`,
    );
  const served = scenarios.length > 1 ? loadAccount(scenarios) : loadWorld(scenarios[0]);
  const server = await serveSandbox(served, {
    port,
    speed,
    ...(values.kubeconfig && { kubeconfigPath: values.kubeconfig }),
    github: {
      owner,
      repo,
      pulls: pulls.map((p) => servedPull(owner, repo, p.number, p.files)),
      readOnlyTokens: values["read-only-token"] ?? [],
    },
  });
  process.stdout.write(server.describe());
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  return 0;
}

export async function runSandbox(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "generate") {
    const { values } = parseFlags(rest, GENERATE_OPTIONS);
    const opts = {
      nodes: count("nodes", values.nodes),
      groups: count("groups", values.groups, 4),
      podsPerNode: count("pods-per-node", values["pods-per-node"], 30),
      seed: count("seed", values.seed, 1),
      ...(values.cluster !== undefined && { cluster: values.cluster }),
    };
    // The policy first: a path that cannot be written fails before the scenario is printed.
    if (values["policy-out"]) writeFileSync(values["policy-out"], generatePolicyYaml(opts));
    process.stdout.write(generateScenarioYaml(opts));
    return 0;
  }
  if (sub === "serve") return serve(rest);
  const subs = ["serve", "generate"];
  const guess = sub && (closest(sub, subs) ?? subs.find((x) => x.startsWith(sub)));
  throw new UsageError(
    sub
      ? `unknown sandbox command "${sub}"${guess ? `; did you mean "${guess}"?` : "; it has serve and generate"}`
      : "sandbox needs a command: serve or generate",
  );
}
