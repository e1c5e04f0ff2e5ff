// `node scripts/release-check.mjs vX.Y.Z [--notes]`: whether a tag may be released — it names
// package.json's version and CHANGELOG.md has a section for it — exit 0, or 1 saying why. With
// --notes, prints that section (the release's notes). Run by .github/workflows/release.yml.
import { readFileSync } from "node:fs";

const [tag, flag] = process.argv.slice(2);
const fail = (why) => {
  console.error(`release-check: ${why}`);
  process.exit(1);
};
if (!tag || !/^v\d+\.\d+\.\d+$/.test(tag)) fail(`"${tag ?? ""}" is not a tag such as v1.2.3`);
const version = JSON.parse(readFileSync("package.json", "utf8")).version;
if (`v${version}` !== tag)
  fail(`tag ${tag} is not package.json's version (${version}): bump it first`);
const changelog = readFileSync("CHANGELOG.md", "utf8");
const start = changelog.search(new RegExp(`^## ${version.replace(/\./g, "\\.")}( |$)`, "m"));
if (start < 0) fail(`CHANGELOG.md has no section "## ${version}": say what changed`);
const rest = changelog.slice(start).split("\n");
const end = rest.findIndex((line, i) => i > 0 && line.startsWith("## "));
const notes = rest
  .slice(1, end < 0 ? undefined : end)
  .join("\n")
  .trim();
if (notes.length === 0) fail(`CHANGELOG.md's section for ${version} is empty`);
if (flag === "--notes") console.log(notes);
