// Saved plans on the command line, as Terraform's (`terraform plan -out`, `terraform apply FILE`):
// `plan --out FILE` writes the plan with a stamp of what it was made from — this noderoll, the
// policy file's content, the cluster's ARN — and `apply FILE` reads it back, plans afresh from
// the same policy and options, and carries out the saved plan only if it still holds
// (plan/saved.ts compares them); otherwise it refuses, naming each change, before anything is
// written to the cluster. The file fixes the policy and the run's options: given again beside
// it, they are refused.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { driveOf, type Session } from "../app/session.js";
import type { Plan } from "../plan/index.js";
import {
  describeChange,
  NotASavedPlan,
  readSavedPlan,
  savedPlanChanges,
  savedPlanText,
  type SavedPlan,
  type SavedPlanChange,
  type SavedStamp,
} from "../plan/saved.js";
import type { Policy } from "../policy/index.js";
import { UsageError } from "./args.js";
import { noderollVersion } from "./version.js";
import { FIXED_BY_SAVED_PLAN } from "./flags.js";

/** The policy file's content, sha256 in hex; read before the policy is, so that an edit made
 * between the two can only make apply refuse, never pass unseen. */
export function policySha256(file: string): string {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    // The policy's own reading says what is wrong with the file.
    return "";
  }
}

/** The stamp of a plan made now: the noderoll, the policy's hash, the cluster's ARN. */
async function stampNow(session: Session, policy: Policy, sha256: string): Promise<SavedStamp> {
  const eks = await driveOf(session)(session.ports.cloud.eks.describeCluster(policy.cluster.name));
  return {
    noderoll: noderollVersion(),
    policySha256: sha256,
    ...(eks.arn && { clusterArn: eks.arn }),
  };
}

/**
 * " --sandbox S", " --kubeconfig K": how the command reached the cluster, for the command it
 * tells the person to run next — which must reach the same one.
 */
export function reachFlags(values: { sandbox?: string; kubeconfig?: string }): string {
  return [
    ...(values.sandbox !== undefined ? [` --sandbox ${values.sandbox}`] : []),
    ...(values.kubeconfig !== undefined ? [` --kubeconfig ${values.kubeconfig}`] : []),
  ].join("");
}

/** `plan --out FILE`: the plan saved, stamped; said where (on stderr beside a machine format). */
export async function savePlan(
  out: string,
  plan: Plan,
  made: { session: Session; policy: Policy; sha256: string; reach: string },
): Promise<string> {
  const text = savedPlanText(plan, await stampNow(made.session, made.policy, made.sha256));
  try {
    writeFileSync(out, text);
  } catch (e) {
    throw new Error(
      `the plan could not be saved to ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      { cause: e },
    );
  }
  return `\nSaved the plan to ${out}.\nTo carry out exactly this plan, run: noderoll apply ${out}${made.reach}\n`;
}

/**
 * The saved plan apply was given, if any — checked before anything is read: one file, only for
 * apply, and none of the flags it fixes given beside it (UsageError).
 */
export function savedPlanArgument(
  command: string,
  positionals: string[],
  values: Readonly<Record<string, unknown>>,
): string | undefined {
  if (positionals.length === 0) {
    if (values.policy === undefined && command === "apply")
      throw new UsageError("--policy FILE is required (or a saved plan: apply FILE)");
    return undefined;
  }
  if (command !== "apply")
    throw new UsageError(
      `${command} takes no saved plan (${positionals.join(" ")}); give it --policy P`,
    );
  if (positionals.length > 1)
    throw new UsageError(
      `apply takes one saved plan, not ${positionals.length}: ${positionals.join(" ")}`,
    );
  const file = positionals[0] as string;
  for (const flag of FIXED_BY_SAVED_PLAN) {
    const given = values[flag];
    if (given !== undefined && given !== false)
      throw new UsageError(
        `--${flag} cannot be given with a saved plan: ${file} fixes it; plan again with --${flag} and --out to change it`,
      );
  }
  return file;
}

/** The saved plan in `file`, or what is wrong with it said (exit 1): nothing read or changed. */
export function loadSavedPlan(file: string): { saved: SavedPlan } | { exitCode: number } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a directory" : code;
    return said(`saved plan ${file} cannot be read: ${why ?? String(e)}`);
  }
  // A policy given where a saved plan goes: say which flag takes it.
  if (/^\s*kind\s*:\s*["']?UpgradePolicy\b/m.test(text))
    return said(
      `${file} is a policy, not a saved plan: did you mean noderoll apply --policy ${file}?`,
    );
  try {
    return { saved: readSavedPlan(text) };
  } catch (e) {
    if (!(e instanceof NotASavedPlan)) throw e;
    return said(`saved plan ${file} ${e.message}`);
  }
}

function said(what: string): { exitCode: number } {
  process.stderr.write(`noderoll: ${what}; nothing was read or changed\n`);
  return { exitCode: 1 };
}

/** A saved plan that no longer holds: each change named, and how to plan again. */
export class SavedPlanRefused extends Error {
  constructor(file: string, saved: SavedPlan, changes: readonly SavedPlanChange[], reach = "") {
    const { options } = saved;
    const again = [
      `noderoll plan --policy ${saved.policy.file}${reach}`,
      ...(options.groups ? [`--groups ${options.groups.join(",")}`] : []),
      ...(options.replaceAll ? ["--replace-all"] : []),
      ...(options.deleteAfterDrainTimeout ? ["--delete-after-drain-timeout"] : []),
      `--out ${file}`,
    ].join(" ");
    super(
      `the saved plan ${file} no longer holds; nothing was changed:\n${changes.map((c) => `  - ${describeChange(c)}`).join("\n")}\nRun \`${again}\` again, review it, and apply that file.`,
    );
  }
}

/**
 * Before anything is read: a plan another noderoll saved is refused (it plans differently); one
 * whose policy is not where it names it (a path from where plan ran, as `plan` was given it)
 * is said (exit 1).
 */
export function readable(file: string, saved: SavedPlan): { exitCode: number } | undefined {
  const now = noderollVersion();
  if (saved.saved.noderoll !== now)
    throw new SavedPlanRefused(file, saved, [{ what: "noderoll", was: saved.saved.noderoll, now }]);
  const policy = saved.policy.file;
  if (!existsSync(policy))
    return said(
      `saved plan ${file} was made from the policy ${policy}, which is not there from ${process.cwd()}: run apply where plan ran`,
    );
  return undefined;
}

/**
 * The saved plan, if it still holds against the plan made now (`fresh`) from the same policy —
 * whose content hashed to `sha256` as apply read it — and options; SavedPlanRefused otherwise.
 */
export async function stillHolds(
  saved: { file: string; plan: SavedPlan; sha256: string; reach?: string },
  now: { fresh: Plan; session: Session; policy: Policy },
): Promise<SavedPlan> {
  const stamp = await stampNow(now.session, now.policy, saved.sha256);
  const changes = savedPlanChanges(saved.plan, { ...now.fresh, saved: stamp });
  if (changes.length > 0) throw new SavedPlanRefused(saved.file, saved.plan, changes, saved.reach);
  return saved.plan;
}
