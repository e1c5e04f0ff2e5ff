// Group order: `order:` lists roles or group-name globs; groups roll in the order of the first
// entry that matches them, alphabetically within an entry. Groups no entry matches roll last,
// by role, then alphabetically. The default order is kOps': bastion, control-plane,
// apiserver, node.
import { ROLES, type Role } from "./schema.js";

export const DEFAULT_ORDER: readonly string[] = ROLES;

export function globToRegExp(glob: string): RegExp {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`);
}

export interface Orderable {
  name: string;
  role: Role;
}

/** Whether an order entry selects a group: by role name, or by a glob on the group's name. */
export function entryMatches(entry: string, group: Orderable): boolean {
  if ((ROLES as readonly string[]).includes(entry)) return group.role === entry;
  return globToRegExp(entry).test(group.name);
}

function rank(order: readonly string[], group: Orderable): [number, number] {
  const i = order.findIndex((entry) => entryMatches(entry, group));
  return i >= 0 ? [i, 0] : [order.length, ROLES.indexOf(group.role)];
}

/** The groups in the order they roll. */
export function orderGroups<T extends Orderable>(
  groups: readonly T[],
  order: readonly string[] = DEFAULT_ORDER,
): T[] {
  return [...groups].sort((a, b) => {
    const [ra, sa] = rank(order, a);
    const [rb, sb] = rank(order, b);
    return ra - rb || sa - sb || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  });
}
