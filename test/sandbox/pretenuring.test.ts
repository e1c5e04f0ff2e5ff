// A world is built with V8's allocation-site pretenuring on and leaves it off
// (src/sandbox/world/pretenuring.ts): the flags V8 is given are recorded here, and which of them
// had been set when the world's build started and ended.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const flags = vi.hoisted(() => ({ set: [] as string[] }));
vi.mock("node:v8", async (original) => ({
  ...(await original<typeof import("node:v8")>()),
  setFlagsFromString: (flag: string) => flags.set.push(flag),
}));

// The world's build (src/sandbox/world/build.ts), with the flags set when it starts and ends.
const building = vi.hoisted(() => [] as { at: string; flags: string[] }[]);
vi.mock("../../src/sandbox/world/build.js", async (original) => {
  const real = await original<typeof import("../../src/sandbox/world/build.js")>();
  return {
    ...real,
    buildWorld: (...args: Parameters<typeof real.buildWorld>) => {
      building.push({ at: "start", flags: [...flags.set] });
      real.buildWorld(...args);
      building.push({ at: "end", flags: [...flags.set] });
    },
  };
});

const { pretenuredWhile } = await import("../../src/sandbox/world/pretenuring.js");
const { World } = await import("../../src/sandbox/world/world.js");

const ON = "--allocation-site-pretenuring";
const OFF = "--no-allocation-site-pretenuring";

beforeEach(() => {
  flags.set = [];
  building.length = 0;
});

describe("pretenuring while a world is built", () => {
  it("is on during the build and off once it returns", () => {
    const during = pretenuredWhile(() => [...flags.set]);
    expect(during).toEqual([ON]);
    expect(flags.set).toEqual([ON, OFF]);
  });

  it("is off after a build that throws, and the error goes on", () => {
    expect(() =>
      pretenuredWhile(() => {
        throw new Error("bad scenario");
      }),
    ).toThrow("bad scenario");
    expect(flags.set).toEqual([ON, OFF]);
  });

  it("is on from before a world's build starts until it ends, and off after", () => {
    const world = World.demo();
    expect(building).toEqual([
      { at: "start", flags: [ON] },
      { at: "end", flags: [ON] },
    ]);
    expect(flags.set).toEqual([ON, OFF]);
    expect(world.kube.pods.size).toBeGreaterThan(0);
  });

  it("is on again for a second world, and off after it", () => {
    World.demo();
    World.demo();
    expect(flags.set).toEqual([ON, OFF, ON, OFF]);
  });
});

describe("pretenuring the user set when starting Node", () => {
  const argv = process.execArgv;
  afterEach(() => {
    process.execArgv = argv;
  });

  it("is left as they set it, on or off, in any spelling V8 takes", () => {
    for (const given of [
      [OFF],
      [ON],
      ["--no_allocation_site_pretenuring"],
      ["--allocation-site-pretenuring=false"],
    ]) {
      process.execArgv = [...argv, ...given];
      expect(pretenuredWhile(() => [...flags.set])).toEqual([]);
      World.demo();
    }
    expect(flags.set).toEqual([]);
  });

  it("is not taken for another flag that starts the same", () => {
    process.execArgv = [...argv, "--allocation-site-pretenuring-something"];
    pretenuredWhile(() => undefined);
    expect(flags.set).toEqual([ON, OFF]);
  });
});
