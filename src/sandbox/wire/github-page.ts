// GET /github/ on `sandbox serve`: the served repository's pull requests as a person reads them
// on GitHub — state, head and merge commit, changed files and labels, each comment rendered from
// its Markdown (GFM, through `marked`; the hidden `<!-- -->` markers stay hidden, as on GitHub)
// and the check runs of its head and merge commit — so the action's pull-request loop can be
// followed in a browser with no GitHub at all (`npm run demo:pr`). The page reloads itself every
// few seconds, to follow a roll. What it shows was posted by whoever reached the loopback
// server; GitHub sanitises a comment's HTML, this page instead forbids every script
// (Content-Security-Policy), so nothing posted can run in the reader's browser.
import { marked } from "marked";
import type { WireResponse } from "./http-server.js";
import { RESOURCE_HEADER } from "./http-server.js";

/** What the page shows, as the GitHub face keeps it. */
export interface PageView {
  owner: string;
  repo: string;
  pulls: readonly {
    number: number;
    headSha: string;
    mergeCommitSha?: string;
    files: string[];
    state?: "open" | "closed";
    merged?: boolean;
    title?: string;
  }[];
  comments: readonly {
    issue: number;
    body: string;
    user: { login: string };
    created_at: string;
    updated_at: string;
  }[];
  checkRuns: readonly {
    name: string;
    head_sha: string;
    status: string;
    conclusion: string | null;
    output: { title?: string; summary?: string };
  }[];
  labels: ReadonlyMap<number, readonly string[]>;
}

type Pull = PageView["pulls"][number];
type Run = PageView["checkRuns"][number];

const RELOAD_SECONDS = 5;

const STYLE = `body{font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#1f2328}
section{border-top:1px solid #d0d7de;margin-top:2em}
.state{border-radius:2em;padding:.1em .7em;color:#fff;font-size:12px;vertical-align:middle}
.open{background:#1f883d}.merged{background:#8250df}.closed{background:#cf222e}
.meta,.empty,header{color:#59636e}
article{border:1px solid #d0d7de;border-radius:6px;margin:1em 0}
article header{background:#f6f8fa;border-bottom:1px solid #d0d7de;padding:.5em 1em}
.markdown-body{padding:0 1em}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.2em .6em}
pre{background:#f6f8fa;padding:1em;overflow:auto}code{font-size:12px}
blockquote{border-left:.25em solid #d0d7de;margin:0;padding:0 1em;color:#59636e}`;

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/** Markdown as GitHub shows it: its HTML comments (noderoll's markers) are not shown at all. */
const markdown = (body: string) =>
  marked.parse(body.replace(/<!--[\s\S]*?-->\n?/g, ""), { gfm: true, async: false });

const short = (sha: string) => `<code>${escape(sha.slice(0, 7))}</code>`;
const time = (iso: string) => escape(iso.slice(0, 19).replace("T", " "));

function stateOf(p: Pull): "open" | "merged" | "closed" {
  if (p.merged) return "merged";
  return p.state === "closed" ? "closed" : "open";
}

function comment(c: PageView["comments"][number]): string {
  const edited = c.updated_at !== c.created_at ? ` · edited ${time(c.updated_at)}` : "";
  return `<article><header><strong>${escape(c.user.login)}</strong> commented ${time(c.created_at)}${edited}</header>
<div class="markdown-body">${markdown(c.body)}</div></article>`;
}

function checkRun(r: Run, where: string): string {
  const said = [
    r.status,
    ...(r.conclusion ? [r.conclusion] : []),
    ...(r.output.title ? [r.output.title] : []),
  ];
  const summary = r.output.summary
    ? `<details><summary>output</summary><div class="markdown-body">${markdown(r.output.summary)}</div></details>`
    : "";
  return `<li><strong>${escape(r.name)}</strong> on ${short(r.head_sha)} (${where}): ${escape(said.join(" · "))}${summary}</li>`;
}

function checkRuns(runs: readonly Run[], where: (sha: string) => string): string {
  if (runs.length === 0) return `<p class="empty">no check runs</p>`;
  return `<ul>${runs.map((r) => checkRun(r, where(r.head_sha))).join("\n")}</ul>`;
}

/** One issue: a pull request the face holds, or an issue only commented on. */
function issue(v: PageView, n: number, pull: Pull | undefined): string {
  const comments = v.comments.filter((c) => c.issue === n);
  const labels = v.labels.get(n) ?? [];
  const state = pull ? stateOf(pull) : undefined;
  const meta = [
    ...(pull ? [`head ${short(pull.headSha)}`] : []),
    ...(pull?.mergeCommitSha ? [`merge commit ${short(pull.mergeCommitSha)}`] : []),
    ...(pull ? [`changes ${pull.files.map((f) => `<code>${escape(f)}</code>`).join(", ")}`] : []),
    ...(labels.length > 0 ? [`labels: ${labels.map(escape).join(", ")}`] : []),
  ];
  const shas = pull ? [pull.headSha, ...(pull.mergeCommitSha ? [pull.mergeCommitSha] : [])] : [];
  const runs = v.checkRuns.filter((r) => shas.includes(r.head_sha));
  return `<section id="pull-${n}">
<h2>#${n} ${escape(pull?.title ?? `Pull request #${n}`)}${state ? ` <span class="state ${state}">${state}</span>` : ""}</h2>
${meta.length > 0 ? `<p class="meta">${meta.join(" · ")}</p>` : ""}
${comments.length > 0 ? comments.map(comment).join("\n") : `<p class="empty">no comments</p>`}
${pull ? `<h3 class="runs">Check runs</h3>\n${checkRuns(runs, (sha) => (sha === pull.headSha ? "head" : "merge commit"))}` : ""}
</section>`;
}

/** The page: every pull request, every issue with comments, the check runs of other commits. */
export function gitHubPage(v: PageView): WireResponse {
  const numbers = [
    ...new Set([...v.pulls.map((p) => p.number), ...v.comments.map((c) => c.issue)]),
  ].sort((a, b) => a - b);
  const known = new Set(v.pulls.flatMap((p) => [p.headSha, p.mergeCommitSha]));
  const others = v.checkRuns.filter((r) => !known.has(r.head_sha));
  const name = `${escape(v.owner)}/${escape(v.repo)}`;
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${RELOAD_SECONDS}">
<title>${name}: pull requests</title><style>${STYLE}</style></head>
<body><h1>${name} · pull requests</h1>
<p class="meta">The sandbox's GitHub (noderoll sandbox serve): what was posted to it, as GitHub would show it.</p>
${
  numbers.length > 0
    ? numbers
        .map((n) =>
          issue(
            v,
            n,
            v.pulls.find((p) => p.number === n),
          ),
        )
        .join("\n")
    : `<p class="empty">no pull requests</p>`
}
${others.length > 0 ? `<section id="other-commits"><h2>Check runs on other commits</h2>\n${checkRuns(others, () => "commit")}</section>` : ""}
</body></html>
`;
  return {
    status: 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy":
        "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src data:",
      [RESOURCE_HEADER]: "page",
    },
    body,
  };
}
