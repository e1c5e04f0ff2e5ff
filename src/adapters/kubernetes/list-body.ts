// A response body parsed as JSON; a large list's item by item.
//
// Why: V8 parses a JSON text of 100 KB or more straight into its old generation (the pretenure
// threshold of its JSON parser, v8/src/json/json-parser.cc). A page of 500 pods is half a
// megabyte (several with managedFields), and its objects are garbage as soon as the page is read;
// in the old generation only a full mark-compact frees them, and each marks everything the plan
// holds. Reading 3 million pods that way ran one every second, ~110 in all, and the collector's
// threads took more CPU time than the read itself. Parsed item by item, each item's text is
// small, its objects are young, and a scavenge frees them for the cost of what survives.
//
// The items are found without scanning the JSON: each is split off at "},{" followed by the first
// key the first item starts with (`{"metadata":` as the API server writes items). That sequence
// is always structural (a quote inside a string is escaped), but it could open an object nested
// deeper in an item; then a piece is not a whole JSON value, JSON.parse throws on it, and the page
// is parsed whole instead. The key "items" is found the same way, its quote checked to follow "{",
// "," or a space (not an escape, as in a key "x\"items"), and the list around it must parse with
// the items left out. So a page parsed in pieces equals the page parsed whole, or is parsed whole.
//
// `listEnvelope` gives that list around its items on its own, before any item is parsed: its
// continue token is all the next page's request needs (src/adapters/kubernetes/pages-ahead.ts).

/** Below this a list is parsed whole: V8 keeps such a text's objects young anyway. */
const SPLIT_FROM = 64 * 1024;
const ITEMS = Buffer.from('"items":[{"');
const QUOTE = 0x22;
/** What may come before a key's opening quote: "{", "," or whitespace (not "\\": an escape). */
const BEFORE_KEY = new Set([0x7b, 0x2c, 0x20, 0x0a, 0x0d, 0x09]);
const CLOSE = Buffer.from("]}");

export function parseBody(body: Buffer): unknown {
  if (body.length === 0) return {};
  if (body.length >= SPLIT_FROM) {
    const list = parseListItems(body);
    if (list) return list;
  }
  return JSON.parse(body.toString("utf8"));
}

/** A list without its items: its metadata (resourceVersion, continue). */
export interface ListEnvelope {
  metadata?: { continue?: string };
}

/** Where a list's items are in its body, when they come last and open with an object. */
function itemsOf(body: Buffer): { first: number; end: number } | undefined {
  const at = body.indexOf(ITEMS);
  // Items last (as the API server writes a list): the array closes at the body's end.
  let end = body.length;
  while (end > 0 && isSpace(body[end - 1] as number)) end--;
  if (at <= 0 || body.indexOf(CLOSE, end - 2) !== end - 2) return undefined;
  // The quote must open the key "items", not be an escaped one inside a longer key ("x\"items").
  if (!BEFORE_KEY.has(body[at - 1] as number)) return undefined;
  return { first: at + ITEMS.length - 2, end };
}

/** The list around its items, with an empty list of items (throws where it is not JSON). */
function around(body: Buffer, first: number, end: number): { items: unknown[] } & ListEnvelope {
  return JSON.parse(`${body.toString("utf8", 0, first)}]${body.toString("utf8", end - 1, end)}`);
}

/**
 * A list's metadata without parsing its items (a few hundred bytes, where the items are half a
 * megabyte); parsed whole where the items do not come last. Undefined when it is not JSON.
 */
export function listEnvelope(body: Buffer): ListEnvelope | undefined {
  try {
    const at = itemsOf(body);
    const list = (
      at ? around(body, at.first, at.end) : JSON.parse(body.toString("utf8"))
    ) as unknown;
    return list !== null && typeof list === "object" ? (list as ListEnvelope) : undefined;
  } catch {
    return undefined;
  }
}

/** The list with its items parsed one by one; undefined where it cannot be split soundly. */
export function parseListItems(body: Buffer): { items: unknown[] } | undefined {
  const at = itemsOf(body);
  if (!at) return undefined;
  const { first, end } = at;
  const keyEnd = body.indexOf(QUOTE, first + 2);
  if (keyEnd < 0) return undefined;
  const separator = Buffer.concat([Buffer.from("},"), body.subarray(first, keyEnd + 2)]);
  const items: unknown[] = [];
  try {
    // The list around its items first: a body that is not a list fails before any item is parsed.
    const list = around(body, first, end);
    let from = first;
    for (;;) {
      const next = body.indexOf(separator, from);
      if (next < 0 || next >= end - 2) break;
      items.push(JSON.parse(body.toString("utf8", from, next + 1)));
      from = next + 2;
    }
    items.push(JSON.parse(body.toString("utf8", from, end - 2)));
    list.items = items;
    return list;
  } catch {
    return undefined;
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
