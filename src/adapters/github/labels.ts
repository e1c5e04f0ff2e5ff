// A pull request's labels, as tfcmt keeps them (suzuki-shunsuke/tfcmt, its plan labels): the one
// label of ours that says where the pull request stands is added, the others of ours it carries
// are removed, and labels that are not ours are never touched. GitHub creates a label the
// repository does not have yet when it is first added to an issue (REST, "Add labels to an issue").
import { withRateLimitRetry, type Octokit, type RepoRef, type RetryOptions } from "./client.js";

export interface LabelChange {
  /** The labels the pull request should carry. */
  add: string[];
  /** Labels of ours it should not carry (removed only if it carries them). */
  remove: string[];
}

/** Apply `change` to issue `issue`; the labels it carries afterwards. */
export async function setIssueLabels(
  octokit: Octokit,
  repo: RepoRef,
  issue: number,
  change: LabelChange,
  retry?: RetryOptions,
): Promise<string[]> {
  const listed = await withRateLimitRetry(
    () =>
      octokit.paginate(octokit.rest.issues.listLabelsOnIssue, {
        ...repo,
        issue_number: issue,
        per_page: 100,
      }),
    retry,
  );
  let now = listed.map((l) => l.name);
  for (const name of change.remove.filter((n) => now.includes(n) && !change.add.includes(n))) {
    // Another job may have removed it since the list: GitHub's 404 "Label does not exist".
    await withRateLimitRetry(
      () => octokit.rest.issues.removeLabel({ ...repo, issue_number: issue, name }),
      retry,
    ).catch((e: unknown) => {
      if ((e as { status?: number }).status !== 404) throw e;
    });
    now = now.filter((n) => n !== name);
  }
  const missing = change.add.filter((n) => !now.includes(n));
  if (missing.length > 0) {
    const { data } = await withRateLimitRetry(
      () => octokit.rest.issues.addLabels({ ...repo, issue_number: issue, labels: missing }),
      retry,
    );
    now = data.map((l) => l.name);
  }
  return now;
}
