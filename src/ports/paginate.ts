// Every item of a paginated Kubernetes list, fetched page by page with the continue token, so
// that no caller ever asks the API server for a whole cluster-wide list at once.
import type { List } from "./cluster.js";

export const PAGE_SIZE = 500;

export async function listAll<T>(
  page: (cont: string | undefined) => Promise<List<T>>,
): Promise<{ items: T[]; resourceVersion: string }> {
  const items: T[] = [];
  const resourceVersion = await eachPage(page, (p) => items.push(...p));
  return { items, resourceVersion };
}

/**
 * Every page of a paginated list handed to `each` as it comes, none kept: a cluster-wide list
 * costs the memory of one page, whatever the cluster's size. The last page's resourceVersion.
 */
export async function eachPage<T>(
  page: (cont: string | undefined) => Promise<List<T>>,
  each: (items: T[]) => void,
): Promise<string> {
  let cont: string | undefined;
  let resourceVersion: string;
  do {
    const r = await page(cont);
    each(r.items);
    resourceVersion = r.metadata.resourceVersion;
    cont = r.metadata.continue || undefined;
  } while (cont);
  return resourceVersion;
}

/** List options for one page: the limit, and the continue token after the first. */
export function pageOf(
  cont: string | undefined,
  extra: { labelSelector?: string; fieldSelector?: string } = {},
) {
  return { ...extra, limit: PAGE_SIZE, ...(cont && { continue: cont }) };
}
