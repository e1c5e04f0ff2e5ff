// The README and docs/*.md link to each other, to example files and to sections: every relative
// link names a file that exists, and every anchor (`#x`, `file.md#x`) a heading of the page it
// points into, with the id GitHub gives that heading. Links in code blocks and code spans are
// not links; absolute URLs (https:, mailto:) are not checked here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { Lexer } from "marked";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

/** GitHub's id for a heading (github-slugger): lower case, punctuation dropped, spaces to "-". */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

type Node = Record<string, unknown>;

/** Every token under `tokens`, depth first: block tokens, inline tokens, list items, table cells. */
function* walk(value: unknown): Generator<Node> {
  if (Array.isArray(value)) {
    for (const v of value) yield* walk(v);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const node = value as Node;
  if (typeof node.type === "string") yield node;
  for (const key of ["tokens", "items", "header", "rows"]) yield* walk(node[key]);
}

/** A heading's text as GitHub slugs it: the text of its inline tokens, markup left out. */
function plain(tokens: unknown): string {
  let out = "";
  for (const t of Array.isArray(tokens) ? (tokens as Node[]) : []) {
    if (Array.isArray(t.tokens)) out += plain(t.tokens);
    else if (t.type !== "html" && typeof t.text === "string") out += t.text;
  }
  return out;
}

interface Page {
  anchors: Set<string>;
  links: string[];
}

/** The ids of a Markdown page's headings (repeats get -1, -2, …) and every link and image it has. */
function readPage(markdown: string): Page {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const links: string[] = [];
  for (const t of walk(Lexer.lex(markdown))) {
    if (t.type === "heading") {
      const base = slug(plain(t.tokens));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    } else if ((t.type === "link" || t.type === "image") && typeof t.href === "string") {
      links.push(t.href);
    } else if (t.type === "html" && typeof t.raw === "string") {
      for (const m of t.raw.matchAll(/\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
      for (const m of t.raw.matchAll(/\b(?:href|src)="([^"]+)"/g)) links.push(m[1]!);
    }
  }
  return { anchors, links };
}

const isAbsolute = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//");

/** Files by their path from the repository's root ("docs/a.md"). */
interface Files {
  exists(path: string): boolean;
  read(path: string): string;
}

const onDisk: Files = {
  exists: (path) => existsSync(join(ROOT, path)),
  read: (path) => readFileSync(join(ROOT, path), "utf8"),
};

/** What is wrong with each relative link of `file`, one line per broken link. */
function brokenLinks(file: string, files: Files = onDisk): string[] {
  const pages = new Map<string, Page>();
  const page = (path: string) => {
    if (!pages.has(path)) pages.set(path, readPage(files.read(path)));
    return pages.get(path)!;
  };
  const problems: string[] = [];
  for (const href of page(file).links) {
    if (isAbsolute(href)) continue;
    const hash = href.indexOf("#");
    const path = decodeURIComponent(hash < 0 ? href : href.slice(0, hash));
    const anchor = hash < 0 ? undefined : decodeURIComponent(href.slice(hash + 1));
    const target = path === "" ? file : posix.normalize(posix.join(posix.dirname(file), path));
    if (target.startsWith("../") || path.startsWith("/") || !files.exists(target)) {
      problems.push(`${file}: ${href}: no file ${target}`);
    } else if (anchor !== undefined && target.endsWith(".md")) {
      if (!page(target).anchors.has(anchor))
        problems.push(`${file}: ${href}: no heading #${anchor} in ${target}`);
    } else if (anchor !== undefined && !/^L\d+(-L\d+)?$/.test(anchor)) {
      problems.push(`${file}: ${href}: an anchor into ${target}, which has no headings`);
    }
  }
  return problems;
}

const pages = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

describe("links in the README and docs/", () => {
  it.each(pages)("%s: every relative link and anchor resolves", (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it("the README and docs/benchmarks.md are among the pages checked", () => {
    expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/benchmarks.md"]));
  });
});

describe("the link checker itself", () => {
  it("gives headings GitHub's ids", () => {
    const ids = [
      ...readPage(
        [
          "# noderoll",
          "## Authentication: OIDC, no stored keys",
          "## The upgrade policy (v1)",
          "### Roll settings (`defaults:` and a group's `rollingUpdate:`)",
          "## What `npm run bench` measures",
          "## The 20,000-node plan from the command line",
          "## Least-privilege IAM policies",
          "## Groups",
          "## Groups",
          "```yaml\n# a comment, not a heading\n```",
        ].join("\n\n"),
      ).anchors,
    ];
    expect(ids).toEqual([
      "noderoll",
      "authentication-oidc-no-stored-keys",
      "the-upgrade-policy-v1",
      "roll-settings-defaults-and-a-groups-rollingupdate",
      "what-npm-run-bench-measures",
      "the-20000-node-plan-from-the-command-line",
      "least-privilege-iam-policies",
      "groups",
      "groups-1",
    ]);
  });

  it("finds a missing file, a missing heading and a missing heading in another page", () => {
    const pages: Record<string, string> = {
      "README.md": [
        "## Usage",
        "[ok](#usage) [ok](docs/a.md#part-two) [ok](https://example.com/#nowhere)",
        "[gone](docs/missing.md) [typo](#usgae) [elsewhere](docs/a.md#part-three)",
        "`[not a link](nowhere.md)`",
        "```md\n[not a link either](nowhere.md)\n```",
        "| table |\n| ----- |\n| [in a cell](docs/none.md) |",
      ].join("\n\n"),
      "docs/a.md": "# A\n\n## Part two\n\n[up](../README.md#usage) [up, wrong](../README.md#use)",
    };
    const files: Files = {
      exists: (path) =>
        path in pages ||
        Object.keys(pages).some((p) => p.startsWith(`${path.replace(/\/$/, "")}/`)),
      read: (path) => pages[path]!,
    };
    const check = (file: string) => brokenLinks(file, files);
    expect(check("README.md")).toEqual([
      "README.md: docs/missing.md: no file docs/missing.md",
      "README.md: #usgae: no heading #usgae in README.md",
      "README.md: docs/a.md#part-three: no heading #part-three in docs/a.md",
      "README.md: docs/none.md: no file docs/none.md",
    ]);
    expect(check("docs/a.md")).toEqual([
      "docs/a.md: ../README.md#use: no heading #use in README.md",
    ]);
  });
});
