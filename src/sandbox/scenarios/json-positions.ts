// Where a value, or a key, of a JSON text is, as line and column: a scenario written as JSON that
// its check refuses is reported file:line:col from the text itself. The YAML parser's tree gave
// the same positions, at a cost that grows with the file: 12 s and 1.2 GB to place one error in a
// 20,000-node scenario, and more memory than Node's default heap at 100,000 nodes. Here the text
// is scanned once per problem placed, only as far as the problem, and nothing is kept.
import { lineCol } from "../../policy/source.js";

export interface Position {
  line: number;
  col: number;
}

const code = (c: string) => c.charCodeAt(0);
const [QUOTE, BACKSLASH, COMMA, COLON] = [code('"'), code("\\"), code(","), code(":")];
const [OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [
  code("{"),
  code("}"),
  code("["),
  code("]"),
];

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Past the string that starts at `i` (its opening quote). */
function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return i;
}

/** Past the value that starts at `i`. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    while (i < text.length) {
      const d = text.charCodeAt(i);
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === QUOTE) {
      i = skipString(text, i);
      continue;
    }
    if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
    else if ((d === CLOSE_BRACE || d === CLOSE_BRACKET) && --depth === 0) return i + 1;
    i++;
  }
  return i;
}

/** Each member of the object at `at`, in order: where its key and its value start. */
function* members(text: string, at: number): Generator<{ key: number; value: number }> {
  let i = skipSpace(text, at + 1);
  while (i < text.length && text.charCodeAt(i) === QUOTE) {
    const key = i;
    i = skipSpace(text, skipString(text, i));
    if (text.charCodeAt(i) !== COLON) return;
    const value = skipSpace(text, i + 1);
    yield { key, value };
    i = skipSpace(text, skipValue(text, value));
    if (text.charCodeAt(i) !== COMMA) return;
    i = skipSpace(text, i + 1);
  }
}

/** Where member `name` of the object at `at` is (the last of that name: JSON.parse keeps it). */
function member(
  text: string,
  at: number,
  name: string,
): { key: number; value: number } | undefined {
  let found: { key: number; value: number } | undefined;
  for (const m of members(text, at)) {
    const end = skipString(text, m.key);
    if (JSON.parse(text.slice(m.key, end)) === name) found = m;
  }
  return found;
}

/** Where element `index` of the array at `at` starts. */
function element(text: string, at: number, index: number): number | undefined {
  let i = skipSpace(text, at + 1);
  for (let n = 0; i < text.length && text.charCodeAt(i) !== CLOSE_BRACKET; n++) {
    if (n === index) return i;
    i = skipSpace(text, skipValue(text, i));
    if (text.charCodeAt(i) !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
  return undefined;
}

/** The step from the value at `at` to its child `step`: where that child's value (and key) start. */
function child(
  text: string,
  at: number,
  step: PropertyKey,
): { key: number; value: number } | undefined {
  const c = text.charCodeAt(at);
  if (c === OPEN_BRACE && typeof step === "string") return member(text, at, step);
  if (c === OPEN_BRACKET && typeof step === "number") {
    const value = element(text, at, step);
    return value === undefined ? undefined : { key: value, value };
  }
  return undefined;
}

/**
 * Where the value at `path` starts in the JSON of `text` from offset `from` (valid JSON, as
 * JSON.parse took it), or with `key`, where that key of it is; the deepest part of the path that
 * exists when the rest does not (a missing key: the object it belongs in).
 */
export function locateInJson(
  text: string,
  path: readonly PropertyKey[],
  key?: string,
  from = 0,
): Position {
  let at = skipSpace(text, from);
  for (const step of path) {
    const next = child(text, at, step);
    if (!next) return lineCol(text, at);
    at = next.value;
  }
  const keyed = key === undefined ? undefined : member(text, at, key);
  return lineCol(text, keyed?.key ?? at);
}
