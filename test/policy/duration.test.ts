import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "../../src/policy/index.js";

describe("durations", () => {
  it.each([
    ["90s", 90_000],
    ["15m", 900_000],
    ["1h30m", 5_400_000],
    ["30d", 2_592_000_000],
    ["250ms", 250],
    ["1.5h", 5_400_000],
    ["0", 0],
    ["2h0m5s", 7_205_000],
  ])("%s = %i ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["", "5", "15 minutes", "1h30", "-5s", "1w", "m", "1.s", "h1"])(
    "%j is not a duration",
    (text) => {
      expect(parseDuration(text)).toBeUndefined();
    },
  );

  it("formatting then parsing gives the same value", () => {
    fc.assert(
      fc.property(fc.nat(400 * 86_400_000), (ms) => {
        expect(parseDuration(formatDuration(ms))).toBe(ms);
      }),
    );
  });
});
