// The job summary, written once at the end of every run and kept under GitHub's 1 MiB: fixed
// sections (results, errors) are kept whole; plans share what is left, each rendered with as
// much detail as fits (fitMarkdown), measured in bytes since that is what GitHub counts.
import * as core from "@actions/core";
import { fitMarkdown, type MarkdownDetail } from "../render/index.js";

/** GitHub refuses a step summary over 1 MiB; keep a margin for the separators. */
export const SUMMARY_LIMIT = 1024 * 1024;
const MARGIN = 4 * 1024;

type Section = { fixed: string } | { fit: (detail: MarkdownDetail) => string };

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** The first `max` bytes of `text`, not splitting a character. */
function clipBytes(text: string, max: number): string {
  const b = Buffer.from(text, "utf8");
  if (b.length <= max) return text;
  let end = Math.max(0, max);
  while (end > 0 && ((b[end] ?? 0) & 0xc0) === 0x80) end--;
  return b.subarray(0, end).toString("utf8");
}

/** The most detailed rendering of `render` that is at most `limit` bytes. */
export function fitBytes(render: (detail: MarkdownDetail) => string, limit: number): string {
  let chars = limit;
  for (let i = 0; i < 8; i++) {
    const text = fitMarkdown(render, Math.max(200, chars));
    const size = bytes(text);
    if (size <= limit) return text;
    chars = Math.floor((chars * limit) / size) - 64;
  }
  return fitMarkdown(render, Math.max(200, Math.floor(limit / 4)));
}

export class JobSummary {
  private readonly sections: Section[] = [];

  add(markdown: string): void {
    this.sections.push({ fixed: markdown });
  }

  addFitted(render: (detail: MarkdownDetail) => string): void {
    this.sections.push({ fit: render });
  }

  text(limit = SUMMARY_LIMIT): string {
    const fixed = this.sections.filter((s): s is { fixed: string } => "fixed" in s);
    const flexible = this.sections.length - fixed.length;
    // Fixed sections are short (errors, results); if a run somehow has thousands, each is cut
    // to its share of half the budget (all of it when there is no plan).
    const fixedBudget = flexible > 0 ? Math.floor((limit - MARGIN) / 2) : limit - MARGIN;
    const fixedTotal = fixed.reduce((n, s) => n + bytes(s.fixed) + 1, 0);
    const cut = (t: string) => {
      if (fixedTotal <= fixedBudget) return t;
      const each = Math.floor(fixedBudget / Math.max(1, fixed.length)) - 64;
      return bytes(t) <= each
        ? t
        : `${clipBytes(t, each)}\n\n… cut to fit the 1 MiB job summary.\n`;
    };
    const fixedOut = fixed.map((s) => cut(s.fixed));
    const used = fixedOut.reduce((n, t) => n + bytes(t) + 1, 0);
    const share = flexible > 0 ? Math.floor((limit - MARGIN - used) / flexible) : 0;
    let i = 0;
    const text = this.sections
      .map((s) => ("fit" in s ? fitBytes(s.fit, share) : (fixedOut[i++] as string)))
      .join("\n");
    if (bytes(text) <= limit - MARGIN / 2) return text;
    return `${clipBytes(text, limit - MARGIN)}\n\n… cut at GitHub's 1 MiB limit.\n`;
  }

  /** Write to GITHUB_STEP_SUMMARY when the runner gives one (not on a laptop). */
  async write(): Promise<void> {
    if (!process.env.GITHUB_STEP_SUMMARY) return;
    await core.summary.addRaw(this.text(), true).write({ overwrite: true });
  }
}
