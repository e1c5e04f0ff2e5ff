// What a roll's health gates read, as a scenario sets it up (docs/sandbox.md, "Health signals"):
// a bad release among the node images a roll brings in (`faults.badRelease`), and the CloudWatch
// alarms of the account (`alarms`), which may follow it.
import { z } from "zod";
import { share } from "./units.js";

/**
 * Instances launched (not a scenario's starting ones) from launch template version
 * `launchTemplateVersion`, or — a managed group whose template leaves the AMI to EKS — with the
 * EKS AMI release `releaseVersion`, in `group` (default any): their nodes never turn Ready
 * (`neverReady`), or turn Ready but every workload pod on them crash-loops (`crashLoop`), or are
 * healthy while the workload's requests that reach them fail at `errorRatio` (`errors`; a
 * crash-looping pod's too).
 */
export const badRelease = z
  .strictObject({
    group: z.string().optional(),
    launchTemplateVersion: z.number().int().positive().optional(),
    releaseVersion: z.string().optional(),
    effect: z.enum(["neverReady", "crashLoop", "errors"]),
    errorRatio: share.default(0.2),
  })
  .refine((f) => f.launchTemplateVersion !== undefined || f.releaseVersion !== undefined, {
    message: "a bad release names its launchTemplateVersion, its releaseVersion, or both",
  });

export type BadRelease = z.output<typeof badRelease>;

/** CloudWatch alarm names: 1 to 255 characters (PutMetricAlarm's AlarmName). */
const alarmName = z.string().min(1).max(255);

/**
 * The account's CloudWatch alarms from the start: each OK, and with `follows: badRelease` in
 * ALARM while any workload pod runs on a node of a bad release (sim/aws/cloudwatch.ts).
 */
export const alarms = z
  .array(z.strictObject({ name: alarmName, follows: z.literal("badRelease").optional() }))
  .default([]);

export type ScenarioAlarm = z.output<typeof alarms>[number];

/** What the signals name must exist, and an alarm's name is its own. */
export function signalIssues(
  s: {
    nodeGroups: { name: string }[];
    releases: Record<string, string[]>;
    alarms: ScenarioAlarm[];
    faults: { badRelease: BadRelease[] };
  },
  ctx: z.RefinementCtx,
): void {
  s.faults.badRelease.forEach((f, i) => {
    if (f.group !== undefined && !s.nodeGroups.some((g) => g.name === f.group))
      ctx.addIssue({
        code: "custom",
        path: ["faults", "badRelease", i, "group"],
        message: `no node group "${f.group}" in this scenario`,
      });
    const released = Object.values(s.releases).some((list) => list.includes(f.releaseVersion!));
    if (f.releaseVersion !== undefined && !released)
      ctx.addIssue({
        code: "custom",
        path: ["faults", "badRelease", i, "releaseVersion"],
        message: `release ${f.releaseVersion} is not listed under releases`,
      });
  });
  const names = new Set<string>();
  s.alarms.forEach((a, i) => {
    if (names.has(a.name))
      ctx.addIssue({
        code: "custom",
        path: ["alarms", i, "name"],
        message: `alarm "${a.name}" appears twice`,
      });
    names.add(a.name);
  });
}
