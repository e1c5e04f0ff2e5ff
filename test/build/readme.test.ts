// The README is the front page (issue 48): short enough to read on GitHub, with a table of
// contents that reaches every section. The reference it once held lives in docs/, linked from
// the contents; test/build/links.test.ts checks that those links resolve.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");

/** GitHub's heading id: lower case, punctuation dropped, spaces to dashes. */
const slug = (h: string) =>
  h
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

describe("the README", () => {
  it("stays under 40 KB", () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(40 * 1024);
  });

  it("has a table of contents linking every section", () => {
    const at = readme.indexOf("\n## Contents\n");
    expect(at).toBeGreaterThan(0);
    const toc = readme.slice(at, readme.indexOf("\n## ", at + 1));
    const sections = [...readme.matchAll(/^## (.+)$/gm)]
      .map((m) => m[1] as string)
      .filter((h) => h !== "Contents");
    expect(sections.length).toBeGreaterThan(5);
    for (const h of sections) expect(toc, h).toContain(`](#${slug(h)})`);
  });
});
