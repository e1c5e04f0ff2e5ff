// `noderoll abort --rollback` from a second process while `noderoll apply` rolls in another, both
// the bundled command line against `sandbox serve` (issue 47): the roll stops at its next node
// boundary, ends aborted (exit 1), and takes the group back to the launch template version it ran
// before — recorded on the cluster when the roll began — with nothing of noderoll's left. No
// wall-clock time is asserted: bounds only tell a hang from a run.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEASE_NAMESPACE, leaseName } from "../../src/roll/lease.js";
import { requestOf } from "../../src/roll/lease-request.js";
import { servedGroup, type Ran } from "../helpers/cli-async.js";

const NODES = 6;
const served = servedGroup("aborting", NODES);
const { world, connect, cli, dir } = served;
beforeAll(() => served.start());
afterAll(() => served.close());
const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";

describe("noderoll abort --rollback from a second process, against sandbox serve", () => {
  it("stops the roll, ends it aborted, and returns the group to what it ran before", async () => {
    const events = join(dir, "events.jsonl");
    let aborted: Promise<Ran> | undefined;
    const applied = await cli(
      ["apply", ...connect, "--events", events],
      (text) => text.includes('"type":"instance.terminate"'),
      () => (aborted = cli(["abort", ...connect, "--rollback", "--reason", "p99 doubled"])),
    );
    const abort = await aborted!;
    expect(abort.code, abort.stdout + abort.stderr).toBe(0);
    expect(abort.stdout).toMatch(
      /^an abort with rollback requested by \S+ at \S+ \(reason: p99 doubled\)/,
    );
    expect(abort.stdout).toContain("then rolls the groups back to what they ran before");

    const seen = applied.stdout + applied.stderr;
    expect(applied.code, seen).toBe(1);
    expect(lastLine(applied.stdout)).toMatch(
      /^failure: Aborted: aborted by \S+ at \S+ \(reason: p99 doubled\); .* Rolled back: work on what it ran before\.$/,
    );
    expect(world.instances("work").map((i) => i.ltVersion)).toEqual(Array(NODES).fill(1));
    expect(world.nodes("work").filter((n) => !n.deleted && n.unschedulable)).toEqual([]);
    const lease = await world.cluster.getLease(LEASE_NAMESPACE, leaseName("aborting"));
    expect(requestOf(lease)).toBeUndefined();
  }, 900_000);
});
