// One sticky comment per policy on a pull request: found by a hidden marker (src/render/comment.ts),
// replaced in place, never duplicated.
import { withRateLimitRetry, type Octokit, type RepoRef, type RetryOptions } from "./client.js";

export interface StickyResult {
  id: number;
  created: boolean;
  /** The comment's page (GitHub's html_url). */
  url?: string;
}

/** The policy's comment on the issue: its id and body, or undefined. */
export async function readStickyComment(
  octokit: Octokit,
  repo: RepoRef,
  issue: number,
  marker: string,
): Promise<{ id: number; body: string } | undefined> {
  for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, {
    ...repo,
    issue_number: issue,
    per_page: 100,
  })) {
    const found = page.data.find((c) => c.body?.includes(marker));
    if (found) return { id: found.id, body: found.body ?? "" };
  }
  return undefined;
}

export async function findStickyComment(
  octokit: Octokit,
  repo: RepoRef,
  issue: number,
  marker: string,
): Promise<number | undefined> {
  return (await readStickyComment(octokit, repo, issue, marker))?.id;
}

/** Create the policy's comment, or replace the body of the one it already has. */
export async function upsertStickyComment(
  octokit: Octokit,
  repo: RepoRef,
  issue: number,
  marker: string,
  body: string,
  retry?: RetryOptions,
): Promise<StickyResult> {
  const text = body.includes(marker) ? body : `${body}\n${marker}`;
  const existing = await withRateLimitRetry(
    () => findStickyComment(octokit, repo, issue, marker),
    retry,
  );
  if (existing !== undefined) {
    const { data } = await withRateLimitRetry(
      () => octokit.rest.issues.updateComment({ ...repo, comment_id: existing, body: text }),
      retry,
    );
    return { id: existing, created: false, ...(data.html_url && { url: data.html_url }) };
  }
  const { data } = await withRateLimitRetry(
    () => octokit.rest.issues.createComment({ ...repo, issue_number: issue, body: text }),
    retry,
  );
  return { id: data.id, created: true, ...(data.html_url && { url: data.html_url }) };
}
