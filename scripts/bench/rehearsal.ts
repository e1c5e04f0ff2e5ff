// Part 4 of the bench: `plan --rehearse` of a generated cluster as a user pays for it on top of
// the plan — the read of every node, pod and PDB, the twin built from it, and apply run on the
// twin to the end — in a process of its own. The policy is `sandbox generate --policy-out`'s.
import { observeAndPlan } from "../../src/engine/observe.js";
import { loadPolicy } from "../../src/policy/index.js";
import { rehearsePlan } from "../../src/app/rehearse.js";
import { readLiveCluster } from "../../src/rehearsal/index.js";
import { generatePolicyYaml, generateScenario } from "../../src/sandbox/scenarios/generate.js";
import { World } from "../../src/sandbox/world/world.js";
import { generatedCluster } from "./cluster.js";

export interface RehearsalFigures {
  nodes: number;
  wallMs: number;
  result: string;
  virtualMinutes: number;
  groups: number;
  stalls: number;
  peakExtraNodes: number;
  peakRssMiB: number;
}

export async function measureRehearsal(nodes: number): Promise<RehearsalFigures> {
  const opts = generatedCluster(nodes);
  const r = loadPolicy(generatePolicyYaml(opts), "generated.yaml");
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join("\n"));
  const policy = r.policy;
  const world = new World(generateScenario(opts));
  const planned = await world.run(observeAndPlan(policy, "generated.yaml", world));
  const t0 = performance.now();
  // The live cluster (here the sandbox) is read in its own virtual time; the twin runs in its own.
  const live = await world.run(readLiveCluster(world));
  const { plan } = await rehearsePlan(
    { policy, file: "generated.yaml", ...planned, options: {} },
    { live },
  );
  const wallMs = Math.round(performance.now() - t0);
  const rehearsal = plan.rehearsal!;
  return {
    nodes,
    wallMs,
    result: rehearsal.result,
    virtualMinutes: Math.round((rehearsal.durationMs / 60_000) * 10) / 10,
    groups: rehearsal.groups.length,
    stalls: rehearsal.stalls.length,
    peakExtraNodes: rehearsal.peakExtraNodes,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}
