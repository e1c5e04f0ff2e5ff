// The bench's measure of the host's memory writes pages no one has written before: each is a
// fault the kernel serves (what it is meant to time), not memory Node's pool had touched already.
import { describe, expect, it } from "vitest";
import { measureFirstTouch } from "../../scripts/bench/memory.js";

describe("the bench's first-touch measure", () => {
  it("faults in every page it times, and none when it writes them again", () => {
    const f = measureFirstTouch(16);
    expect(f.faults.pages).toBe((16 * 2 ** 20) / 4096);
    expect(f.faults.firstTouch).toBeGreaterThanOrEqual(f.faults.pages * 0.95);
    expect(f.faults.rewrite).toBeLessThan(f.faults.pages * 0.05);
    expect(Number.isFinite(f.firstTouchUsPerPage) && f.firstTouchUsPerPage > 0).toBe(true);
    expect(Number.isFinite(f.rewriteUsPerPage) && f.rewriteUsPerPage >= 0).toBe(true);
  });
});
