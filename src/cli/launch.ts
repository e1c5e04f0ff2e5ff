// The command line's entry point (dist/cli.js): it says which Node it needs before anything else
// is loaded. A module's imports are linked before its first line runs, so a check inside the
// command line itself comes too late on an older Node — one missing export of node:fs, and the
// person sees a SyntaxError from deep in the bundle. The command line proper is imported only
// once the check has passed.
const major = Number(process.versions.node.split(".")[0]);
if (major < 24) {
  console.error(
    `noderoll needs Node.js 24 or later; this is ${process.version}. Use the project's own (npm ci installs it): npx node ${process.argv.slice(1).join(" ")}`,
  );
  process.exit(2);
}
await import("./main.js");
