// apply on a terminal asks before it rolls, as Terraform's apply does (issue 48, item 3): the plan,
// then "Do you want to perform these actions?" — only "yes" rolls; "no", any other answer, or the
// end of input changes nothing (exit 1); --auto-approve does not ask; off a terminal nothing is
// asked (the merge is the approval). The terminal is a real pseudo-terminal (util-linux's
// `script`), the answers typed into it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { approve, mustAsk, QUESTION } from "../../src/cli/approve.js";
import { ROOT, runCli } from "../helpers/cli.js";

const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
if (!hasScript) console.warn("util-linux's script is not installed: skipping the terminal cases");

/**
 * The bundled command line on a pseudo-terminal, `typed` written to it after a moment; `pipe`:
 * its output piped on (`| tee log`), as people log a run they watch.
 */
function onTerminal(args: string[], typed: string | undefined, pipe = "") {
  const command = [process.execPath, "dist/cli.js", ...args].join(" ") + pipe;
  const feed = typed === undefined ? "exec </dev/null" : `(sleep 4; printf '${typed}')`;
  const r = spawnSync("bash", ["-c", `${feed} | script -qec "${command}" /dev/null`], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 240_000,
  });
  return { status: r.status, out: r.stdout.replace(/\r/g, "") };
}

const demo = ["apply", "--policy", "policies/demo.yaml", "--sandbox", "demo"];

describe("apply on a terminal", () => {
  it.skipIf(!hasScript)(
    "rolls on 'yes'",
    () => {
      const r = onTerminal(demo, "yes\\n");
      expect(r.out).toContain("Do you want to perform these actions?");
      expect(r.out).toMatch(/success: 3 groups rolled\n?$/);
      expect(r.status).toBe(0);
    },
    240_000,
  );

  it.skipIf(!hasScript)(
    "changes nothing on 'no', nor at the end of input",
    () => {
      for (const typed of ["no\\n", undefined]) {
        const r = onTerminal(demo, typed);
        expect(r.out).toContain("Only 'yes' will be accepted to approve.");
        expect(r.out).toMatch(
          /failure: Apply cancelled: the plan was not approved; nothing was changed\.\n?$/,
        );
        expect(r.out).not.toMatch(/cordoned|terminated/);
        expect(r.status).toBe(1);
      }
    },
    240_000,
  );

  it.skipIf(!hasScript)(
    "asks when its output is piped on (apply | tee log): a person types at the terminal",
    () => {
      const log = join(mkdtempSync(join(tmpdir(), "noderoll-tee-")), "log");
      const r = onTerminal(demo, "no\\n", ` | tee ${log}`);
      expect(r.out).toContain("Do you want to perform these actions?");
      expect(r.out).toMatch(/Apply cancelled: the plan was not approved; nothing was changed\./);
      // The question goes to the person (stderr), not into the log.
      const logged = readFileSync(log, "utf8");
      expect(logged).not.toContain("Do you want to perform these actions?");
      expect(logged).toContain("Apply cancelled");
    },
    240_000,
  );

  it.skipIf(!hasScript)(
    "does not ask with --auto-approve",
    () => {
      const r = onTerminal([...demo, "--auto-approve"], undefined);
      expect(r.out).not.toContain("Do you want to perform these actions?");
      expect(r.out).toMatch(/success: 3 groups rolled\n?$/);
    },
    240_000,
  );
});

describe("apply off a terminal", () => {
  it("asks nothing and rolls, as in CI and the action", () => {
    const r = runCli(demo);
    expect(r.stdout).not.toContain("Do you want to perform these actions?");
    expect(r.status).toBe(0);
  });
});

describe("the question", () => {
  const answer = async (typed: string | undefined, abort = false) => {
    const input = new PassThrough();
    let shown = "";
    const controller = new AbortController();
    const asked = approve(input, { write: (s: string) => (shown += s) }, controller.signal);
    if (abort) controller.abort();
    else if (typed === undefined) input.end();
    else input.write(typed);
    return { yes: await asked, shown };
  };

  it("takes 'yes' only", async () => {
    expect(await answer("yes\n")).toEqual({ yes: true, shown: QUESTION });
    expect((await answer("yes\r\n")).yes).toBe(true);
    for (const typed of ["no\n", "YES\n", "y\n", "\n", undefined])
      expect((await answer(typed)).yes).toBe(false);
    expect((await answer(undefined, true)).yes).toBe(false);
  });

  it("is asked only of a person at a terminal, with work to do, not told to skip it", () => {
    const base = { stdinTTY: true, autoApprove: false, hasWork: true };
    expect(mustAsk(base)).toBe(true);
    expect(mustAsk({ ...base, stdinTTY: false })).toBe(false);
    expect(mustAsk({ ...base, stdinTTY: undefined })).toBe(false);
    expect(mustAsk({ ...base, autoApprove: true })).toBe(false);
    expect(mustAsk({ ...base, hasWork: false })).toBe(false);
  });
});
