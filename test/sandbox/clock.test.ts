import { describe, expect, it } from "vitest";
import { DeadlockError, VirtualClock } from "../../src/sandbox/model/clock.js";
import { Random } from "../../src/sandbox/model/random.js";

describe("the virtual clock", () => {
  it("fires timers in virtual-time order whatever the order they were set in", async () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    const task = async (name: string, ms: number) => {
      await clock.sleep(ms);
      seen.push(`${name}@${clock.nowMs()}`);
    };
    await clock.run(
      Promise.all([task("c", 3000), task("a", 1000), task("b", 2000), task("a2", 1000)]),
    );
    expect(seen).toEqual(["a@1000", "a2@1000", "b@2000", "c@3000"]);
  });

  it("advances only when nothing can run: chains of awaits finish at the same instant", async () => {
    const clock = new VirtualClock(0);
    const times: number[] = [];
    await clock.run(async () => {
      for (let i = 0; i < 100; i++) {
        await Promise.resolve();
        await new Promise((r) => queueMicrotask(() => r(undefined)));
      }
      times.push(clock.nowMs());
      await clock.sleep(15 * 60_000);
      times.push(clock.nowMs());
    });
    expect(times).toEqual([0, 900_000]);
  });

  it("cancels a sleep when its signal aborts", async () => {
    const clock = new VirtualClock(0);
    const ac = new AbortController();
    clock.after(1000, () => ac.abort());
    await expect(clock.run(clock.sleep(60_000, ac.signal))).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(clock.nowMs()).toBe(1000);
    expect(clock.nextAt()).toBeUndefined();
  });

  it("reports a deadlock instead of hanging", async () => {
    const clock = new VirtualClock(0);
    await expect(clock.run(new Promise(() => {}))).rejects.toBeInstanceOf(DeadlockError);
  });

  it("advance() fires what is due and stops at the target", async () => {
    const clock = new VirtualClock(0);
    const fired: number[] = [];
    clock.after(500, () => fired.push(500));
    clock.after(1500, () => fired.push(1500));
    await clock.advance(1000);
    expect(fired).toEqual([500]);
    expect(clock.nowMs()).toBe(1000);
  });
});

describe("the seeded random source", () => {
  it("replays for a seed and differs across seeds", () => {
    const a = new Random(42);
    const b = new Random(42);
    const c = new Random(43);
    const seq = (r: Random) => Array.from({ length: 5 }, () => r.int(1000));
    const sa = seq(a);
    expect(seq(b)).toEqual(sa);
    expect(seq(c)).not.toEqual(sa);
  });
  it("skips draws exactly: the state after n draws is reached without making them", () => {
    const drawn = new Random(7);
    const skipped = new Random(7);
    for (let i = 0; i < 22; i++) drawn.next();
    skipped.skip(22);
    expect(skipped.state).toBe(drawn.state);
    expect(skipped.next()).toBe(drawn.next());
    // A stream rebuilt from a state draws what the original drew from there.
    const again = new Random(drawn.state);
    expect(again.hex(12)).toBe(drawn.hex(12));
    // Or the same stream sent back there; the digits written as bytes are the same digits.
    const state = again.state;
    const first = again.hex(8);
    again.seek(state);
    const bytes = new Uint8Array(8);
    expect(again.hexBytes(bytes, 0, 8)).toBe(8);
    expect(String.fromCharCode(...bytes)).toBe(first);
  });
  it("samples distinct items", () => {
    const r = new Random(1);
    const s = r.sample([1, 2, 3, 4, 5, 6], 4);
    expect(new Set(s).size).toBe(4);
  });
});
