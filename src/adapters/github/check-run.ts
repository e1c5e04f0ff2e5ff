// A check run that follows a plan or a roll: created once, updated as it goes, completed with a
// conclusion. Annotations go 50 per request, as GitHub allows.
import { CHECK_OUTPUT_LIMIT } from "../../render/markdown.js";
import { withRateLimitRetry, type Octokit, type RepoRef, type RetryOptions } from "./client.js";

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
}

export interface CheckOutput {
  title: string;
  summary: string;
  text?: string;
}

export const ANNOTATIONS_PER_REQUEST = 50;

function clip(text: string | undefined): string | undefined {
  if (text === undefined || text.length <= CHECK_OUTPUT_LIMIT) return text;
  const note = "\n\n… cut at GitHub's limit; the full text is in the job summary.";
  return text.slice(0, CHECK_OUTPUT_LIMIT - note.length) + note;
}

/**
 * Complete check run `id` as cancelled if it is still open and is ours: named `name` and made
 * by this job (its external_id `externalId`) — a post step finishing what a killed main step
 * left in progress, never another run's check run of the same name. What it found.
 */
export async function cancelIfOpen(
  octokit: Octokit,
  repo: RepoRef,
  check: { id: number; name: string; externalId: string },
  output: CheckOutput,
): Promise<"cancelled" | "completed already" | "not ours"> {
  const { id, name, externalId } = check;
  const { data } = await octokit.rest.checks.get({ ...repo, check_run_id: id });
  if (data.name !== name || data.external_id !== externalId) return "not ours";
  if (data.status === "completed") return "completed already";
  await octokit.rest.checks.update({
    ...repo,
    check_run_id: id,
    status: "completed",
    conclusion: "cancelled",
    output: { title: output.title.slice(0, 255), summary: clip(output.summary) as string },
  });
  return "cancelled";
}

export class CheckRun {
  private id?: number;
  /** Its page on GitHub (html_url), once created. */
  url?: string;

  constructor(
    private readonly octokit: Octokit,
    private readonly repo: RepoRef,
    readonly name: string,
    private readonly headSha: string,
    private readonly retry?: RetryOptions,
  ) {}

  get checkRunId(): number | undefined {
    return this.id;
  }

  /** `externalId`: the creator's own reference for it (the post step checks it is its own). */
  async start(output: CheckOutput, detailsUrl?: string, externalId?: string): Promise<void> {
    const { data } = await withRateLimitRetry(
      () =>
        this.octokit.rest.checks.create({
          ...this.repo,
          name: this.name,
          head_sha: this.headSha,
          status: "in_progress",
          ...(detailsUrl && { details_url: detailsUrl }),
          ...(externalId && { external_id: externalId }),
          output: this.output(output),
        }),
      this.retry,
    );
    this.id = data.id;
    if (data.html_url) this.url = data.html_url;
  }

  async update(output: CheckOutput, annotations: Annotation[] = []): Promise<void> {
    await this.send({}, output, annotations);
  }

  async complete(
    conclusion: "success" | "failure" | "cancelled" | "neutral" | "action_required",
    output: CheckOutput,
    annotations: Annotation[] = [],
  ): Promise<void> {
    await this.send({ status: "completed", conclusion }, output, annotations);
  }

  private output(o: CheckOutput) {
    return {
      title: o.title.slice(0, 255),
      summary: clip(o.summary) as string,
      ...(o.text !== undefined && { text: clip(o.text) }),
    };
  }

  /** The first request carries the state change; further ones carry the rest of the annotations. */
  private async send(
    state: { status?: "completed"; conclusion?: string },
    output: CheckOutput,
    annotations: Annotation[],
  ): Promise<void> {
    if (this.id === undefined) throw new Error(`check run ${this.name} was not started`);
    const id = this.id;
    const batches: Annotation[][] = [];
    for (let i = 0; i < annotations.length; i += ANNOTATIONS_PER_REQUEST)
      batches.push(annotations.slice(i, i + ANNOTATIONS_PER_REQUEST));
    if (batches.length === 0) batches.push([]);
    // Annotations first, the conclusion last, so a reader never sees a finished run with half its annotations.
    for (const [i, batch] of batches.entries()) {
      const last = i === batches.length - 1;
      await withRateLimitRetry(
        () =>
          this.octokit.rest.checks.update({
            ...this.repo,
            check_run_id: id,
            ...(last && state),
            output: { ...this.output(output), ...(batch.length > 0 && { annotations: batch }) },
          } as Parameters<Octokit["rest"]["checks"]["update"]>[0]),
        this.retry,
      );
    }
  }
}
