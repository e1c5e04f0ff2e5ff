// Reading a policy file as YAML with every node's position kept, so that any later problem can
// be reported as file:line:col. Hostile input (huge files, alias bombs, several documents) is
// refused here, before anything else looks at it.
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  visit,
  type Document,
  type Node as YamlNode,
} from "yaml";
import { diagnostic, type Diagnostic } from "./diagnostic.js";
import { MAX_NESTING, nesting, openBrackets } from "./scan.js";

/** Policies are a few kilobytes; anything near this is a mistake or an attack. */
export const MAX_POLICY_BYTES = 1024 * 1024;
/** Aliases a policy may expand; enough for shared anchors, far too few for a "billion laughs". */
export const MAX_ALIAS_COUNT = 64;

export interface PolicySource {
  file: string;
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

export type ParseResult =
  { ok: true; source: PolicySource; value: unknown } | { ok: false; errors: Diagnostic[] };

function diag(file: string, line: number, col: number, message: string, path = ""): Diagnostic {
  return diagnostic({ file, line, col, path, message, severity: "error" });
}

export function parsePolicySource(text: string, file: string): ParseResult {
  // The whole file refused for one reason, at one place.
  const refuse = (message: string, at = { line: 1, col: 1 }): ParseResult => ({
    ok: false,
    errors: [diag(file, at.line, at.col, message)],
  });
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_POLICY_BYTES) return refuse(sizeMessage(bytes));
  const deep = nesting(text);
  if (deep.tooDeepAt !== undefined) {
    return refuse(
      `the YAML nests more than ${MAX_NESTING} levels deep; a policy needs fewer than 10`,
      lineCol(text, deep.tooDeepAt),
    );
  }
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
    strict: true,
  });
  const list = Array.isArray(docs) ? docs : [];
  const nonEmpty = list.filter((d) => d.contents !== null || d.errors.length > 0);
  if (nonEmpty.length === 0) {
    const what = text.trim() === "" ? "is empty" : "holds only comments";
    return refuse(
      `the file ${what}; expected an UpgradePolicy starting with "apiVersion: noderoll.io/v1"`,
    );
  }
  if (nonEmpty.some((d) => d.directives?.yaml.explicit && d.directives.yaml.version === "1.1")) {
    return refuse(
      'the file declares "%YAML 1.1", whose rules read yes/no as booleans and 9:00 as a number; remove the directive (policies are YAML 1.2)',
    );
  }
  // A file that does not say it is a policy (a credentials file, a Kubernetes manifest, a
  // kubeconfig a path was pointed at) is not one: say so without quoting a byte of it.
  const ours = OURS.test(text);
  if (list.some((d) => d.errors.length > 0)) {
    if (!ours) return refuse(NOT_A_POLICY);
    const yamlErrors = list
      .flatMap((d) => d.errors.map((e) => yamlDiagnostic(file, lines, e, text)))
      .slice(0, 20);
    return { ok: false, errors: yamlErrors };
  }
  if (nonEmpty.length > 1) {
    const second = nonEmpty[1] as Document.Parsed;
    return refuse(
      `the file holds ${nonEmpty.length} YAML documents; a policy file holds exactly one (remove the "---" and what follows, or split the file)`,
      lines.linePos(second.range[0]),
    );
  }
  const doc = nonEmpty[0] as Document.Parsed;
  const tags = ours ? unsupportedTags(doc, file, lines, text) : [];
  if (tags.length > 0) return { ok: false, errors: tags.slice(0, 20) };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    return refuse(aliasMessage(e));
  }
  return { ok: true, source: { file, text, doc, lines }, value };
}

/** A line that starts with one of a policy's top-level keys. */
/** What marks a file as a policy, right or wrong: our apiVersion or our kind. */
const OURS =
  /apiVersion["']?[ \t]*:[ \t]*["']?noderoll\.io\/|kind["']?[ \t]*:[ \t]*["']?UpgradePolicy\b/;

export const NOT_A_POLICY =
  'not a noderoll policy: expected YAML with "apiVersion: noderoll.io/v1" and "kind: UpgradePolicy" (nothing of the file is shown)';

/** The tags of YAML's core schema (https://yaml.org/spec/1.2.2/#103-core-schema): plain data. */
const CORE_TAGS: ReadonlySet<string> = new Set(
  ["map", "seq", "str", "null", "bool", "int", "float"].map((t) => `tag:yaml.org,2002:${t}`),
);

function shownTag(tag: string): string {
  return tag.startsWith("tag:yaml.org,2002:") ? `!!${tag.slice(18)}` : tag;
}

/**
 * Tags outside the core schema (`!!js/function`, `!!python/name:…`, `!!binary`, `!custom`)
 * would be read as plain strings by this parser but mean code or binary data to others: a
 * policy is plain data, so each is an error where it is written.
 */
function unsupportedTags(
  doc: Document.Parsed,
  file: string,
  lines: LineCounter,
  text: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  visit(doc, {
    Node(_, node) {
      const tag = (node as { tag?: string }).tag;
      if (!tag || CORE_TAGS.has(tag)) return;
      // Point at the tag itself, written just before the value it tags.
      const value = node.range?.[0] ?? 0;
      const bang = text.lastIndexOf("!", value);
      const sameLine = bang >= 0 && !text.slice(bang, value).includes("\n");
      const at = lines.linePos(sameLine ? bang : value);
      out.push(
        diag(
          file,
          at.line,
          at.col,
          `the YAML tag "${shownTag(tag)}" is not allowed: a policy holds plain values (strings, numbers, booleans, lists and mappings); remove the tag`,
        ),
      );
    },
  });
  return out;
}

function aliasMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const unresolved = /Unresolved alias[^:]*:\s*(\S+)/.exec(text);
  if (unresolved)
    return `the alias "*${unresolved[1]}" refers to no anchor: set "&${unresolved[1]}" on a value before the alias`;
  if (/alias/i.test(text)) {
    return `aliases expand to too much data (more than ${MAX_ALIAS_COUNT} expansions); a policy should not need that many "*" references`;
  }
  return `the YAML could not be read: ${text}`;
}

interface YamlError {
  code: string;
  message: string;
  pos: [number, number];
  linePos?:
    | [{ line: number; col: number }]
    | [{ line: number; col: number }, { line: number; col: number }];
}

const YAML_HINTS: Record<string, string> = {
  TAB_AS_INDENT: "tabs cannot indent YAML; use spaces",
  BAD_INDENT: "the indentation does not line up with the lines around it",
  MULTILINE_IMPLICIT_KEY: "a key runs over several lines; is a colon or a quote missing?",
  BLOCK_AS_IMPLICIT_KEY: "a nested block cannot be a key; is a colon missing on the line above?",
  UNEXPECTED_TOKEN: "unexpected character",
};

function yamlDiagnostic(file: string, lines: LineCounter, e: YamlError, text: string): Diagnostic {
  const at = e.linePos?.[0] ?? lines.linePos(e.pos[0]);
  const detail = e.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? e.code;
  if (e.code === "DUPLICATE_KEY") {
    const key = /^["']?([^"':\n]*)/.exec(text.slice(e.pos[0], e.pos[0] + 200))?.[1]?.trim() ?? "";
    return diag(
      file,
      at.line,
      at.col,
      `duplicate key "${key}": a key may appear only once in a mapping; keep one`,
    );
  }
  if (
    /must be sufficiently indented and end with a [\]}]|Missing closing [\]}]|Expected a [\]}]/.test(
      detail,
    )
  ) {
    const opener = openBrackets(text, e.pos[0]).pop();
    if (opener) {
      const where = lines.linePos(opener.offset);
      const [what, close] = opener.char === "[" ? ["list", "]"] : ["mapping", "}"];
      return diag(
        file,
        where.line,
        where.col,
        `YAML syntax error: the ${what} opened with "${opener.char}" here is never closed; add "${close}"`,
      );
    }
  }
  if (/^Missing closing ["']quote/.test(detail)) {
    return diag(
      file,
      at.line,
      at.col,
      "YAML syntax error: a quoted string is never closed; add the closing quote",
    );
  }
  if (/Implicit map keys need to be followed by map values/.test(detail)) {
    const lineText = text.slice(e.pos[0]).split("\n")[0]?.trim() ?? "";
    return diag(
      file,
      at.line,
      at.col,
      `YAML syntax error: "${lineText}" is not a "key: value" pair; is the ":" after the key missing?`,
    );
  }
  const hint = YAML_HINTS[e.code];
  const message = hint ? `YAML syntax error: ${hint} (${detail})` : `YAML syntax error: ${detail}`;
  return diag(file, at.line, at.col, message);
}

function sizeMessage(bytes: number): string {
  return `the file is ${bytes.toLocaleString("en-US")} bytes; a policy may be at most ${MAX_POLICY_BYTES.toLocaleString("en-US")} bytes (1 MiB)`;
}

/**
 * Line and column of `offset` in `text`, both from 1. Counted newline by newline: a sandbox
 * scenario places its problems with it too, and one may be 50 MB of text.
 */
export function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: offset - start + 1 };
}

export { sizeMessage };

/** A node of the document at a key path, following aliases; undefined when absent. */
function nodeAt(source: PolicySource, path: readonly PropertyKey[]): YamlNode | undefined {
  let node: unknown = source.doc.contents;
  for (const key of path) {
    if (isAlias(node)) node = node.resolve(source.doc);
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));
      node = pair?.value ?? undefined;
    } else if (isSeq(node) && typeof key === "number") {
      node = node.items[key];
    } else {
      return undefined;
    }
  }
  return (node ?? undefined) as YamlNode | undefined;
}

/** The key node of a mapping entry at a path (for unknown and duplicate keys). */
function keyNodeAt(
  source: PolicySource,
  path: readonly PropertyKey[],
  key: string,
): YamlNode | undefined {
  let parent: unknown = nodeAt(source, path);
  if (isAlias(parent)) parent = parent.resolve(source.doc);
  if (!isMap(parent)) return undefined;
  const pair = parent.items.find(
    (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key,
  );
  return (pair?.key ?? undefined) as YamlNode | undefined;
}

/**
 * Where to point for a problem at `path`: the value when it exists; for a key, the key
 * itself; otherwise the nearest enclosing node that exists (a missing key is reported at its
 * mapping).
 */
export function locate(
  source: PolicySource,
  path: readonly PropertyKey[],
  key?: string,
): { line: number; col: number } {
  const keyed = key !== undefined ? keyNodeAt(source, path, key) : undefined;
  if (keyed?.range) return source.lines.linePos(keyed.range[0]);
  for (let n = path.length; n >= 0; n--) {
    const node = nodeAt(source, path.slice(0, n));
    if (node?.range) {
      // For a missing key, point at the mapping's first key, which is where it belongs.
      return source.lines.linePos(node.range[0]);
    }
  }
  return { line: 1, col: 1 };
}
