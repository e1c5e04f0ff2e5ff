/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The comment as a reviewer sees it: Markdown turned into HTML by `marked` in GFM mode, shown in
// headless Chromium (Debian's package, driven by puppeteer-core; no browser is downloaded),
// with every ```mermaid block drawn by Mermaid from the `mermaid` package's own bundle, loaded
// from node_modules (the machine has no network). GitHub draws Mermaid blocks and `> [!NOTE]`
// style alerts itself (GitHub docs, "Creating diagrams" and "Basic writing and formatting
// syntax"); marked leaves alerts as blockquotes, so the page marks them the way GitHub shows
// them (a coloured bar and title) — only the styling is ours, the text is the comment's.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { marked } from "marked";
import puppeteer, { type Browser, type Page } from "puppeteer-core";

const require = createRequire(import.meta.url);
const MERMAID = require.resolve("mermaid/dist/mermaid.min.js");

/** Debian's chromium; CHROMIUM overrides it. */
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

// A closed network makes Chromium wait on its own background services unless they are off.
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--font-render-hinting=none",
];

const CSS = `
body { font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
  color: #1f2328; background: #fff; margin: 0; padding: 16px 24px; width: 1012px; }
h3 { font-size: 1.25em; margin: 8px 0 16px; } h4 { font-size: 1em; margin: 24px 0 8px; }
code { font: 85% ui-monospace, "DejaVu Sans Mono", monospace; background: #eff1f3;
  padding: .2em .4em; border-radius: 6px; }
pre code { background: none; padding: 0; } td code { white-space: nowrap; }
table { border-collapse: collapse; margin: 8px 0 16px; display: block; overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; } th { font-weight: 600; }
tr:nth-child(2n) { background: #f6f8fa; }
blockquote { margin: 0 0 16px; padding: 0 1em; color: #59636e; border-left: .25em solid #d1d9e0; }
blockquote.alert { color: inherit; } blockquote.alert p:first-child { font-weight: 600; }
blockquote.alert-note { border-color: #0969da; } blockquote.alert-note p:first-child { color: #0969da; }
blockquote.alert-important { border-color: #8250df; } blockquote.alert-important p:first-child { color: #8250df; }
blockquote.alert-warning { border-color: #9a6700; } blockquote.alert-warning p:first-child { color: #9a6700; }
blockquote.alert-caution { border-color: #d1242f; } blockquote.alert-caution p:first-child { color: #d1242f; }
details { margin: 0 0 16px; } summary { cursor: pointer; }
`;

export interface Bar {
  label: string;
  x: number;
  width: number;
}

export interface Shown {
  page: Page;
  /** The text a reader sees, top to bottom. */
  text: string;
  /** Bars of the first gantt chart, in the order they are drawn. */
  bars: Bar[];
  /** The chart's title and axis labels. */
  chart: { title: string; ticks: string[] };
  /** Alerts as GitHub shows them: kind and text, in order. */
  alerts: { kind: string; text: string }[];
}

export class CommentBrowser {
  private constructor(
    private readonly browser: Browser,
    private readonly profile: string,
  ) {}

  static async open(): Promise<CommentBrowser> {
    const profile = mkdtempSync(join(tmpdir(), "noderoll-chromium-"));
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      userDataDir: profile,
      args: FLAGS,
    });
    return new CommentBrowser(browser, profile);
  }

  async close(): Promise<void> {
    await this.browser.close();
    rmSync(this.profile, { recursive: true, force: true });
  }

  /** Render a comment body as GitHub would, every <details> open, and read what is shown. */
  async show(markdown: string): Promise<Shown> {
    const html = marked.parse(markdown, { gfm: true, async: false }) as string;
    const page = await this.browser.newPage();
    await page.setViewport({ width: 1060, height: 800 });
    await page.setContent(
      `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head><body>${html}</body></html>`,
    );
    await page.addScriptTag({ path: MERMAID });
    await page.evaluate(markAlertsAndDrawCharts);
    const read = await page.evaluate(readPage);
    return { page, ...read };
  }
}

/** In the page: GitHub's alert look, open details, Mermaid charts drawn in place. */
async function markAlertsAndDrawCharts(): Promise<void> {
  for (const q of document.querySelectorAll("blockquote")) {
    const first = q.querySelector("p");
    const m = first && /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*/.exec(first.innerHTML);
    if (!first || !m) continue;
    const kind = (m[1] as string).toLowerCase();
    q.classList.add("alert", `alert-${kind}`);
    q.dataset.alert = kind;
    const rest = first.innerHTML.slice(m[0].length);
    first.innerHTML = kind[0]!.toUpperCase() + kind.slice(1);
    if (rest.trim()) first.insertAdjacentHTML("afterend", `<p>${rest}</p>`);
  }
  for (const d of document.querySelectorAll("details")) d.open = true;
  const m = (
    window as unknown as {
      mermaid: {
        initialize(o: object): void;
        render(id: string, text: string): Promise<{ svg: string }>;
      };
    }
  ).mermaid;
  m.initialize({ startOnLoad: false, theme: "default", gantt: { useWidth: 1000 } });
  let i = 0;
  for (const code of document.querySelectorAll("pre > code.language-mermaid")) {
    const { svg } = await m.render(`chart${i++}`, code.textContent ?? "");
    const div = document.createElement("div");
    div.className = "mermaid";
    div.innerHTML = svg;
    code.parentElement!.replaceWith(div);
  }
}

function readPage(): Omit<Shown, "page"> {
  const svg = document.querySelector("div.mermaid svg");
  const rects = svg ? [...svg.querySelectorAll("rect.task")] : [];
  const labels = svg
    ? [
        ...svg.querySelectorAll(
          "text.taskText, text.taskTextOutsideRight, text.taskTextOutsideLeft",
        ),
      ]
    : [];
  const bars = rects.map((r, i) => ({
    label: (labels[i]?.textContent ?? "").trim(),
    x: Number(r.getAttribute("x")),
    width: Number(r.getAttribute("width")),
  }));
  return {
    text: document.body.innerText,
    bars,
    chart: {
      title: svg?.querySelector("text.titleText")?.textContent ?? "",
      ticks: svg ? [...svg.querySelectorAll("g.tick text")].map((t) => t.textContent ?? "") : [],
    },
    alerts: [...document.querySelectorAll("blockquote.alert")].map((q) => ({
      kind: (q as HTMLElement).dataset.alert ?? "",
      text: (q as HTMLElement).innerText,
    })),
  };
}
