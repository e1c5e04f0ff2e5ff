// A world small for the heap is built with V8's heap growing factor raised, and V8's own choice
// is back once it stands (src/cli/heap.ts, builtWithRoom). The flags given to V8 are recorded
// here; the last test checks, in a process of its own, what the change rests on: that this Node's
// V8 honours the flag set at run time.
import { spawnSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const flags = vi.hoisted(() => ({ set: [] as string[] }));
vi.mock("node:v8", async (original) => ({
  ...(await original<typeof import("node:v8")>()),
  setFlagsFromString: (flag: string) => flags.set.push(flag),
}));

const { builtWithRoom, roomToGrow } = await import("../../src/cli/heap.js");

const MIB = 1024 * 1024;
const LIMIT = 4288 * MIB; // Node 24's default heap limit on a machine of 16 GB or more
const RAISE = "--heap-growing-percent=1500";
const RESET = "--heap-growing-percent=0";
const small = { nodes: 20_000, pods: 600_000 };
const large = { nodes: 100_000, pods: 3_000_000 };

describe("room to grow while a world is built", () => {
  it("is given to worlds that fill a quarter of the heap limit or less", () => {
    expect(roomToGrow(small, 1, LIMIT)).toBe(true);
    expect(roomToGrow({ nodes: 25_000, pods: 750_000 }, 1, LIMIT)).toBe(true);
    expect(roomToGrow({ nodes: 40_000, pods: 1_200_000 }, 1, LIMIT)).toBe(false);
    expect(roomToGrow(large, 1, LIMIT)).toBe(false);
    // A rehearsal's twin counts: two such worlds fill more than a quarter.
    expect(roomToGrow(small, 2, LIMIT)).toBe(false);
    // A raised limit makes room: 100,000 nodes in 16 GiB.
    expect(roomToGrow(large, 1, 16 * 1024 * MIB)).toBe(true);
  });
});

describe("a world built with room to grow", () => {
  const argv = process.execArgv;
  beforeEach(() => {
    flags.set = [];
  });
  afterEach(() => {
    process.execArgv = argv;
  });

  it("raises the factor while it is built and gives V8 its own choice back after", () => {
    const during = builtWithRoom(small, 1, () => [...flags.set]);
    expect(during).toEqual([RAISE]);
    expect(flags.set).toEqual([RAISE, RESET]);
  });

  it("gives it back after a build that throws, and the error goes on", () => {
    expect(() =>
      builtWithRoom(small, 1, () => {
        throw new Error("bad scenario");
      }),
    ).toThrow("bad scenario");
    expect(flags.set).toEqual([RAISE, RESET]);
  });

  it("leaves the factor alone for a world that fills more of the heap", () => {
    expect(builtWithRoom(large, 1, () => "built")).toBe("built");
    expect(builtWithRoom(small, 2, () => "twins")).toBe("twins");
    expect(flags.set).toEqual([]);
  });

  it("leaves it alone where the user set it, in any spelling V8 takes", () => {
    for (const given of [
      ["--heap-growing-percent=50"],
      ["--heap_growing_percent=50"],
      ["--heap-growing-percent", "50"],
    ]) {
      process.execArgv = [...argv, ...given];
      expect(builtWithRoom(small, 1, () => [...flags.set])).toEqual([]);
    }
    expect(flags.set).toEqual([]);
  });
});

describe("V8 and the flag set at run time", () => {
  // 13 million small objects kept (~850 MB): with V8's own factor (at most 4) a second full
  // collection comes at ~600 MB; with 16, set after start-up, none comes before ~1.7 GB.
  const script = [
    'const v8 = require("node:v8");',
    "if (process.argv[1]) v8.setFlagsFromString(process.argv[1]);",
    "const keep = [];",
    "for (let i = 0; i < 13e6; i++) keep.push({ a: i, b: i / 2, c: null });",
  ].join("\n");
  const fullCollections = (...flag: string[]) => {
    const r = spawnSync(process.execPath, ["--trace-gc", "-e", script, ...flag], {
      encoding: "utf8",
    });
    expect(r.status).toBe(0);
    return r.stdout.split("\n").filter((l) => l.includes("Mark-Compact")).length;
  };

  it("puts off full collections from the next one on", () => {
    const own = fullCollections();
    const raised = fullCollections(RAISE);
    expect(own).toBeGreaterThanOrEqual(2);
    expect(raised).toBeLessThan(own);
  }, 120_000);
});
