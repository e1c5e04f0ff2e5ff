// What a self-managed group ran before a roll: the launch template version its replaced
// instances were launched from (the most common, should they differ). Auto Scaling launches
// from any version of a template, so going back is never refused.
import type { SelfManagedGroupInfo } from "../../plan/index.js";
import type { Versions } from "../../roll/before.js";

export function selfManagedVersions(
  live: SelfManagedGroupInfo,
  replaced: ReadonlySet<string>,
): Versions | undefined {
  const counts = new Map<number, number>();
  for (const i of live.instances)
    if (replaced.has(i.id) && i.launchTemplateVersion !== undefined)
      counts.set(i.launchTemplateVersion, (counts.get(i.launchTemplateVersion) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0];
  return top ? { launchTemplateVersion: top[0] } : undefined;
}
