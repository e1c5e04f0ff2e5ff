// The terminal while a roll runs, fed by a real roll of the demo cluster in the sandbox: on a
// TTY a status line redrawn in place under the event lines, in colour unless NO_COLOR is set;
// off a TTY plain lines and a heartbeat. Reading a cluster says how far it has got.
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readPolicyFile } from "../../src/adapters/files/read-policy.js";
import { readLine, withReadProgress } from "../../src/app/read-progress.js";
import { Terminal, type Screen } from "../../src/cli/terminal.js";
import { planAndApply } from "../../src/app/apply.js";
import { Planner } from "../../src/engine/observe.js";
import type { Plan } from "../../src/plan/index.js";
import { EventLog, type RollEvent } from "../../src/ports/index.js";
import { heartbeatDue, heartbeatLine, statusLine } from "../../src/render/index.js";
import { World } from "../../src/sandbox/world/world.js";

async function demoRoll(): Promise<{ plan: Plan; events: RollEvent[] }> {
  const r = readPolicyFile("policies/demo.yaml");
  if (!r.ok) throw new Error("demo policy invalid");
  const world = World.demo();
  const planner = new Planner(r.policy, "policies/demo.yaml", {});
  const { plan } = await world.run(planner.observe(world));
  const log = new EventLog(world.clock);
  await world.run(
    planAndApply(r.policy, "policies/demo.yaml", world, log, { runId: "t", planner }),
  );
  return { plan, events: log.events };
}

const roll = demoRoll();

function screen(isTTY: boolean): Screen & { out: string } {
  const s = { out: "", isTTY, write: (t: string) => (s.out += t) };
  return s;
}

describe("the terminal during a roll", () => {
  it("on a TTY: a live status line under the lines, with the ETA from the plan, in colour", async () => {
    const { plan, events } = await roll;
    const tty = screen(true);
    const term = new Terminal(tty, {}, plan);
    const upgrading = events.findIndex(
      (e) => e.type === "phase.start" && e.group === "workers" && e.phase === "upgrade",
    );
    for (const e of events.slice(0, upgrading + 1)) term.event(e);
    // What is on screen now: the lines, and under them the status line (no newline after it).
    const status = tty.out.split("\n").at(-1)!;
    const ESC = "\x1b";
    expect(status.startsWith(`${ESC}[2m`) && status.endsWith(`${ESC}[0m`)).toBe(true);
    expect(status.slice(4, -4)).toMatch(/^workers upgrade 0\/8 · \d+m\d+s · ETA ~[\dms]+$/);
    expect(tty.out).toContain("\x1b[32msystem: scale-down success\x1b[0m");
    for (const e of events.slice(upgrading + 1)) term.event(e);
    term.close();
    // Once the roll has ended the status line is gone: the last thing written clears it.
    expect(tty.out.endsWith("\r\x1b[K")).toBe(true);
  });

  it("honours NO_COLOR, and off a TTY writes plain lines only", async () => {
    const { plan, events } = await roll;
    const noColour = screen(true);
    const t1 = new Terminal(noColour, { NO_COLOR: "1" }, plan);
    const pipe = screen(false);
    const t2 = new Terminal(pipe, {}, plan);
    for (const e of events) {
      t1.event(e);
      t2.event(e);
    }
    expect(noColour.out).not.toContain("\x1b[3");
    expect(pipe.out).not.toContain("\x1b[");
    expect(pipe.out).not.toContain("\r");
    expect(pipe.out).toMatch(/^\d\d:\d\d:\d\d workers: cordoned ip-/m);
  });

  it("says where the roll is and what it waits for", async () => {
    const { plan, events } = await roll;
    const t = new Terminal(screen(false), {}, plan);
    const draining = events.findIndex(
      (e) => e.type === "node.drain.start" && e.group === "ingress",
    );
    for (const e of events.slice(0, draining + 1)) t.event(e);
    const at = new Date(new Date(events[draining]!.t).getTime() + 90_000);
    expect(statusLine(t.progress, at)).toMatch(/^ingress upgrade 0\/3 · \d+m\d+s · ETA ~/);
    expect(heartbeatLine(t.progress, at)).toMatch(
      /^still rolling · ingress upgrade 0\/3 · .* · 6\/17 nodes in all: draining ip-[\w.-]+ for 1m30s$/,
    );
  });
});

describe("a drain a PodDisruptionBudget holds (issue 48, item 4)", () => {
  it("says at least every 30 s which budget holds which pod, since when and until when", async () => {
    const { plan, events } = await roll;
    const blocked = events.findIndex((e) => e.type === "eviction.blocked" && !e.final);
    expect(blocked).toBeGreaterThan(0);
    const e = events[blocked] as Extract<RollEvent, { type: "eviction.blocked" }>;
    const t = new Terminal(screen(false), {}, plan);
    for (const x of events.slice(0, blocked + 1)) t.event(x);
    const at = new Date(new Date(e.t).getTime() + 31_000);
    expect(heartbeatLine(t.progress, at)).toMatch(
      new RegExp(
        `: draining .*; PodDisruptionBudget ${e.pdb} holds ${e.pod} on ${e.node.replace(/\./g, "\\.")} since ${e.t.slice(11, 19)}; at \\d\\d:\\d\\d:\\d\\d its drain times out and the roll stops \\(PodEvictionFailure\\)$`,
      ),
    );
    expect(heartbeatDue(t.progress, at, Date.parse(e.t))).toBeDefined();
  });

  it("colours a refusal that is retried as a wait, not a failure", () => {
    const tty = screen(true);
    const t = new Terminal(tty, {}, undefined);
    t.event({
      type: "eviction.blocked",
      t: "2026-01-05T09:00:00.000Z",
      group: "w",
      node: "n1",
      pod: "default/web-1",
      pdb: "web",
    });
    t.close();
    expect(tty.out).toContain(
      "\x1b[33mw: eviction of default/web-1 refused by PodDisruptionBudget web; retrying",
    );
  });
});

describe("reading a cluster", () => {
  it("says how far the read has got, from the planner's own progress reports", async () => {
    const r = readPolicyFile("policies/demo.yaml");
    if (!r.ok) throw new Error("demo policy invalid");
    const world = World.demo();
    // Node by node, where each phase has a total (a cluster-wide pod list has none).
    const planner = new Planner(r.policy, "policies/demo.yaml", {}, "by-node");
    const lines: string[] = [];
    // Every report written (at most every 0 ms), so each phase's line is seen.
    const { plan } = await withReadProgress(
      (l) => lines.push(l),
      (onProgress) => world.run(planner.observe(world, undefined, onProgress)),
      0,
    );
    const replaced = plan.groups.flatMap((g) => g.replacements).filter((x) => x.node).length;
    expect(replaced).toBeGreaterThan(0);
    expect(lines.every((l) => l.startsWith("reading live state · ") && l.endsWith("\n"))).toBe(
      true,
    );
    const text = lines.join("");
    expect(text).toContain("17 nodes listed");
    expect(text).toMatch(/groups \d+\/\d+ read/);
    expect(text).toContain(`pods of ${replaced}/${replaced} nodes to replace read`);
    expect(text).toMatch(/PDBs of (\d+)\/\1 namespaces read/);
    expect(text).toMatch(/owners (\d+)\/\1 looked up/);
  });

  it("puts the nodes listed and the phase under way on one line", () => {
    const latest = new Map([
      ["nodes", { phase: "nodes", done: 100_000, total: 100_000 }],
      ["pods", { phase: "pods", done: 3_400, total: 20_000 }],
    ] as const);
    expect(readLine(latest, "pods", 12_300)).toBe(
      "reading live state · 12s · 100,000 nodes listed · pods of 3,400/20,000 nodes to replace read",
    );
    const wide = new Map([["pods", { phase: "pods", done: 41_500 }]] as const);
    expect(readLine(wide, "pods", 3_000)).toBe("reading live state · 3s · 41,500 pods listed");
    expect(readLine(new Map(), undefined, 0)).toBe("reading live state · 0s");
  });
});

/** What a terminal shows after `written`: "\r\x1b[K" wipes the line being drawn. */
function screenOf(written: string): string {
  let out = "";
  for (const part of written.split("\r\x1b[K")) {
    out = out.slice(0, out.lastIndexOf("\n") + 1) + part;
  }
  return out;
}

describe("the README's terminal samples", () => {
  it("are what the terminal shows for the demo roll, on a TTY and in a log", async () => {
    const { plan, events } = await roll;
    const tty = screen(true);
    const onTty = new Terminal(tty, { NO_COLOR: "1" }, plan);
    const third = events.filter(
      (e) => e.type === "instance.terminate" && e.group === "workers",
    )[2]!;
    for (const e of events.slice(0, events.indexOf(third) + 1)) onTty.event(e);
    const frame = screenOf(tty.out).split("\n").slice(-10).join("\n");
    const log = screen(false);
    const inLog = new Terminal(log, {}, plan);
    for (const e of events) inLog.event(e);
    const lines = log.out.split("\n");
    const from = lines.findIndex((l) => l.includes("ingress: self-managed"));
    const to = lines.findIndex((l) => l.includes("ingress: success"));
    const excerpt = lines.slice(from, to + 1).join("\n");
    expect(frame.split("\n").at(-1)).toMatch(/^workers upgrade 3\/8 · \d+m\d+s · ETA ~/);
    expect(excerpt).toMatch(/still rolling · ingress/);
    const files = { tty: "docs/images/terminal-tty.txt", log: "docs/images/terminal-log.txt" };
    if (process.env.UPDATE_SCREENSHOTS) {
      writeFileSync(files.tty, `${frame}\n`);
      writeFileSync(files.log, `${excerpt}\n`);
    }
    const readme = readFileSync("README.md", "utf8");
    expect(readme).toContain(`\`\`\`text\n${readFileSync(files.tty, "utf8")}\`\`\``);
    expect(readme).toContain(`\`\`\`text\n${readFileSync(files.log, "utf8")}\`\`\``);
    expect(readFileSync(files.tty, "utf8")).toBe(`${frame}\n`);
    expect(readFileSync(files.log, "utf8")).toBe(`${excerpt}\n`);
  });
});
