// A cheap pass over the raw text before the YAML parser sees it: how deeply it nests (a
// parser recurses, so thousands of "[" would overflow its stack) and where flow brackets open.
// Quoted strings and comments are skipped; the result only has to be right for YAML that
// could be a policy, and safe for anything else.

export const MAX_NESTING = 64;

export interface Opener {
  char: "[" | "{";
  offset: number;
}

interface ScanResult {
  /** Deepest nesting seen (block indentation levels + open flow brackets). */
  depth: number;
  /** Offset where that depth was first passed beyond MAX_NESTING, if it was. */
  tooDeepAt?: number;
}

/** Flow brackets still open at `end` (innermost last). */
export function openBrackets(text: string, end: number): Opener[] {
  const stack: Opener[] = [];
  let quote: string | undefined;
  for (let i = 0; i < end && i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote && text[i - 1] !== "\\") quote = undefined;
      else if (c === "\n" && quote === "'") quote = undefined;
      continue;
    }
    if (c === "#" && (i === 0 || /\s/.test(text[i - 1] as string))) {
      while (i < end && text[i] !== "\n") i++;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") stack.push({ char: c, offset: i });
    else if ((c === "]" || c === "}") && stack.length > 0) stack.pop();
  }
  return stack;
}

export function nesting(text: string): ScanResult {
  const indents: number[] = [];
  let flow = 0;
  let depth = 0;
  let offset = 0;
  for (const line of text.split("\n")) {
    const body = line.replace(/^\s*/, "");
    if (body && !body.startsWith("#") && flow === 0) {
      const indent = line.length - body.length;
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= indent) indents.pop();
      indents.push(indent);
    }
    const dashes = /^(-\s+)*/.exec(body)?.[0].split("-").length ?? 1;
    for (const c of line.replace(/"[^"]*"|'[^']*'|\s#.*$/g, "")) {
      if (c === "[" || c === "{") flow++;
      else if ((c === "]" || c === "}") && flow > 0) flow--;
      const d = indents.length + dashes - 1 + flow;
      if (d > depth) depth = d;
      if (depth > MAX_NESTING) return { depth, tooDeepAt: offset };
    }
    offset += line.length + 1;
  }
  return { depth };
}
