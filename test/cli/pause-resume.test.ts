// `noderoll pause` from a second process while `noderoll apply` rolls in another, both the bundled
// command line (dist/cli.js) against `sandbox serve` on loopback (its AWS and Kubernetes faces,
// as a user runs them with the printed variables and the served kubeconfig): the roll stops at
// its next node boundary with exit 3 and says who paused it and why; another apply refuses to
// start; `noderoll resume` clears the pause and finishes every node. No wall-clock time is
// asserted: bounds only tell a hang from a run.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEASE_NAMESPACE, leaseName } from "../../src/roll/lease.js";
import { requestOf } from "../../src/roll/lease-request.js";
import { servedGroup, type Ran } from "../helpers/cli-async.js";

const NODES = 8;
const served = servedGroup("pausing", NODES);
const { world, connect, cli, dir } = served;
beforeAll(() => served.start());
afterAll(() => served.close());
const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";
const upToDate = () => world.instances("work").filter((i) => i.ltVersion === 2).length;

describe("noderoll pause from a second process, against sandbox serve", () => {
  it("stops the roll at its next node boundary with exit 3; apply refuses; resume finishes it", async () => {
    const events = join(dir, "events.jsonl");
    let paused: Promise<Ran> | undefined;
    const applied = await cli(
      ["apply", ...connect, "--events", events],
      (text) => text.includes('"type":"node.cordon"'),
      () => (paused = cli(["pause", ...connect, "--reason", "INC-7 pager storm"])),
    );
    const pause = await paused!;
    expect(pause.code, pause.stdout + pause.stderr).toBe(0);
    expect(pause.stdout).toMatch(/^a pause requested by \S+ at \S+ \(reason: INC-7 pager storm\)/);
    expect(pause.stdout).toMatch(
      /noderoll-cli-\S+ holds the cluster: it sees the request within 30 s .* stops at its next node boundary/,
    );

    const seen = applied.stdout + applied.stderr;
    expect(applied.code, seen).toBe(3);
    expect(lastLine(applied.stdout)).toMatch(
      /^skipped: Paused: paused by \S+ at \S+ \(reason: INC-7 pager storm\); \d+ nodes? of work left for the next run\. The pause stands/,
    );
    const end = readFileSync(events, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; stop?: { kind: string } })
      .find((e) => e.type === "roll.end");
    expect(end?.stop?.kind).toBe("paused");
    expect(upToDate()).toBeLessThan(NODES);
    expect(world.nodes("work").filter((n) => !n.deleted && n.unschedulable)).toEqual([]);

    // While it stands, apply refuses, changing nothing.
    const refused = await cli(["apply", ...connect]);
    expect(refused.code, refused.stdout + refused.stderr).toBe(3);
    expect(lastLine(refused.stdout)).toMatch(
      /^skipped: Paused: paused by .*; nothing was started or changed .*`noderoll resume --policy /,
    );

    const resumed = await cli(["resume", ...connect, "--reason", "storm over"]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^resume: cleared a pause requested by /m);
    expect(lastLine(resumed.stdout)).toMatch(/^success: /);
    expect(upToDate()).toBe(NODES);
    const lease = await world.cluster.getLease(LEASE_NAMESPACE, leaseName("pausing"));
    expect(requestOf(lease)).toBeUndefined();
  }, 900_000);
});
