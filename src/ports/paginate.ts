// Every item of a paginated Kubernetes list, fetched page by page with the continue token, so
// that no caller ever asks the API server for a whole cluster-wide list at once.
import type { List } from "./cluster.js";

export const PAGE_SIZE = 500;

export async function listAll<T>(
  page: (cont: string | undefined) => Promise<List<T>>,
): Promise<{ items: T[]; resourceVersion: string }> {
  const items: T[] = [];
  let cont: string | undefined;
  let resourceVersion: string;
  do {
    const r = await page(cont);
    items.push(...r.items);
    resourceVersion = r.metadata.resourceVersion;
    cont = r.metadata.continue || undefined;
  } while (cont);
  return { items, resourceVersion };
}

/** List options for one page: the limit, and the continue token after the first. */
export function pageOf(
  cont: string | undefined,
  extra: { labelSelector?: string; fieldSelector?: string } = {},
) {
  return { ...extra, limit: PAGE_SIZE, ...(cont && { continue: cont }) };
}
