// The GitHub reporters against the sandbox's GitHub face, with the real Octokit: one sticky
// comment per policy, check runs with batched annotations, rate limits waited out, read-only
// tokens recognised, and progress updates coalesced.
import { getOctokit } from "@actions/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckRun, type Annotation } from "../../src/adapters/github/check-run.js";
import { isForbidden, withRateLimitRetry } from "../../src/adapters/github/client.js";
import { Coalescer, type Timers } from "../../src/adapters/github/coalesce.js";
import { upsertStickyComment } from "../../src/adapters/github/sticky-comment.js";
import { stickyMarker } from "../../src/render/index.js";
import { GitHubFace } from "../../src/sandbox/wire/github-face.js";
import { startWireServer, type WireServer } from "../../src/sandbox/wire/http-server.js";

let server: WireServer;
let face: GitHubFace;
const repo = { owner: "octo-org", repo: "infra" };
const noWait = { sleep: async () => {} };

beforeAll(async () => {
  face = new GitHubFace({ ...repo, readOnlyTokens: ["ro"] });
  server = await startWireServer([face]);
});
afterAll(() => server.close());

const octokit = (token = "rw") => getOctokit(token, { baseUrl: server.url });

describe("sticky comment", () => {
  it("is created once per policy and replaced after, even behind 150 other comments", async () => {
    const gh = octokit();
    for (let i = 0; i < 150; i++)
      await gh.rest.issues.createComment({ ...repo, issue_number: 3, body: `chatter ${i}` });
    const a = await upsertStickyComment(gh, repo, 3, stickyMarker("prod"), "plan v1", noWait);
    const b = await upsertStickyComment(gh, repo, 3, stickyMarker("stage"), "stage plan", noWait);
    const c = await upsertStickyComment(gh, repo, 3, stickyMarker("prod"), "plan v2", noWait);
    expect(a.created).toBe(true);
    expect(b.created).toBe(true);
    // Replaced in place: the same comment, at the same address (the action's comment-url output).
    expect(c).toEqual({ id: a.id, created: false, url: a.url });
    expect(a.url).toMatch(/\/pull\/3#issuecomment-\d+$/);
    const ours = face.comments.filter((x) => x.issue === 3 && x.body.includes("noderoll:policy:"));
    expect(ours.map((x) => x.body)).toEqual([
      "plan v2\n<!-- noderoll:policy:prod -->",
      "stage plan\n<!-- noderoll:policy:stage -->",
    ]);
  });

  it("reports a read-only token as forbidden rather than rate limited", async () => {
    const err = await upsertStickyComment(
      octokit("ro"),
      repo,
      4,
      stickyMarker("prod"),
      "x",
      noWait,
    ).catch((e: unknown) => e);
    expect(isForbidden(err)).toBe(true);
  });

  it("waits out a secondary rate limit and then succeeds", async () => {
    face.throttleNext = 2;
    const waits: number[] = [];
    const r = await upsertStickyComment(octokit(), repo, 5, stickyMarker("prod"), "after limits", {
      sleep: async (ms) => void waits.push(ms),
    });
    expect(r.created).toBe(true);
    expect(waits).toEqual([1000, 1000]);
  });

  it("gives up after its attempts and surfaces the error", async () => {
    face.throttleNext = 10;
    const err = await withRateLimitRetry(
      () => octokit().rest.pulls.get({ ...repo, pull_number: 1 }),
      { attempts: 3, ...noWait },
    ).catch((e: unknown) => e);
    expect((err as { status: number }).status).toBe(403);
    expect(face.throttleNext).toBe(7);
    face.throttleNext = 0;
  });
});

describe("rate limits, as GitHub's docs tell them apart", () => {
  // https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit
  const NOW = Date.UTC(2026, 10, 24, 12);
  const limited = (status: number, headers: Record<string, string>, message = "") =>
    Object.assign(new Error(message), { status, response: { headers, data: { message } } });

  /** The waits before giving up on a call that fails with `err` every time. */
  async function waitsFor(err: Error, attempts = 4, maxWaitMs = 120_000): Promise<number[]> {
    const waits: number[] = [];
    const thrown = await withRateLimitRetry(() => Promise.reject(err), {
      attempts,
      maxWaitMs,
      now: () => NOW,
      sleep: async (ms) => void waits.push(ms),
    }).catch((e: unknown) => e);
    expect(thrown).toBe(err);
    return waits;
  }

  it("waits a secondary limit without Retry-After out for a minute, doubled each time", async () => {
    expect(await waitsFor(limited(429, {}))).toEqual([60_000, 120_000]);
    const secondary = limited(
      403,
      { "x-ratelimit-remaining": "14", "x-ratelimit-reset": String(NOW / 1000 + 3600) },
      "You have exceeded a secondary rate limit.",
    );
    // Not until the hour's reset: requests remain; a minute, then two (four is past the limit).
    expect(await waitsFor(secondary)).toEqual([60_000, 120_000]);
    expect(isForbidden(secondary)).toBe(false);
  });

  it("waits Retry-After's seconds, or until the reset when no requests are left", async () => {
    expect(await waitsFor(limited(403, { "retry-after": "7" }), 3)).toEqual([7_000, 7_000]);
    const primary = limited(403, {
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(NOW / 1000 + 30),
    });
    expect(await waitsFor(primary, 2)).toEqual([30_000]);
    // An hour away: reported at once rather than waited out.
    const exhausted = limited(403, {
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(NOW / 1000 + 3600),
    });
    expect(await waitsFor(exhausted)).toEqual([]);
  });

  it("waits a Retry-After date out, counted from the answer's Date header", async () => {
    const server = NOW + 3_600_000; // GitHub's clock an hour ahead of this one
    const at = (ms: number) => new Date(ms).toUTCString();
    const dated = { "retry-after": at(server + 7_000), date: at(server) };
    expect(await waitsFor(limited(429, dated), 2)).toEqual([7_000]);
    // Already past: a second, not a retry at once.
    const past = { "retry-after": at(server - 5_000), date: at(server) };
    expect(await waitsFor(limited(403, past), 2)).toEqual([1_000]);
  });

  it("takes a Retry-After that is neither seconds nor a date as absent, and a past reset as a second", async () => {
    expect(await waitsFor(limited(429, { "retry-after": "" }))).toEqual([60_000, 120_000]);
    expect(await waitsFor(limited(429, { "retry-after": "soon" }), 2)).toEqual([60_000]);
    const skewed = { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(NOW / 1000 - 90) };
    expect(await waitsFor(limited(429, skewed), 3)).toEqual([1_000, 1_000]);
    const primary429 = {
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(NOW / 1000 + 9),
    };
    expect(await waitsFor(limited(429, primary429), 2)).toEqual([9_000]);
  });

  it("knows GitHub Enterprise Server's older words for a secondary limit", async () => {
    const abuse = limited(403, {}, "You have triggered an abuse detection mechanism.");
    expect(await waitsFor(abuse, 2)).toEqual([60_000]);
    expect(isForbidden(abuse)).toBe(false);
  });

  it("retries once, after a minute, with the action's limits; not at all once cancelled", async () => {
    // src/action/github.ts: four tries, waits of at most a minute.
    expect(await waitsFor(limited(429, {}), 4, 60_000)).toEqual([60_000]);
    const cancelled = new AbortController();
    cancelled.abort();
    const err = limited(403, { "retry-after": "5" });
    let calls = 0;
    const thrown = await withRateLimitRetry(() => (calls++, Promise.reject(err)), {
      signal: cancelled.signal,
      sleep: () => Promise.reject(new Error("waited")),
    }).catch((e: unknown) => e);
    expect([thrown, calls]).toEqual([err, 1]);
  });

  it("does not retry a 403 that is not a limit, and calls it forbidden", async () => {
    const denied = limited(
      403,
      { "x-ratelimit-remaining": "4000" },
      "Resource not accessible by integration",
    );
    expect(await waitsFor(denied)).toEqual([]);
    expect(isForbidden(denied)).toBe(true);
  });

  it("recognises the sandbox's secondary limit without Retry-After through Octokit", async () => {
    face.throttleNext = 1;
    face.throttleRetryAfter = undefined;
    const waits: number[] = [];
    try {
      const r = await upsertStickyComment(octokit(), repo, 6, stickyMarker("prod"), "late", {
        sleep: async (ms) => void waits.push(ms),
      });
      expect(r.created).toBe(true);
      expect(waits).toEqual([60_000]);
    } finally {
      face.throttleNext = 0;
      face.throttleRetryAfter = "1";
    }
  });
});

describe("check run", () => {
  it("sends 120 annotations in batches of 50 and the conclusion last", async () => {
    const run = new CheckRun(octokit(), repo, "noderoll plan / prod", "c".repeat(40), noWait);
    await run.start({ title: "Planning", summary: "…" });
    const annotations: Annotation[] = Array.from({ length: 120 }, (_, i) => ({
      path: "p.yaml",
      start_line: i + 1,
      end_line: i + 1,
      annotation_level: "failure",
      message: `e${i}`,
    }));
    await run.complete("failure", { title: "120 errors", summary: "s" }, annotations);
    const stored = face.checkRuns.find((r) => r.id === run.checkRunId)!;
    expect(
      stored.history.map((h) => [
        (h.output as { annotations?: unknown[] })?.annotations?.length ?? 0,
        h.conclusion ?? null,
      ]),
    ).toEqual([
      [0, null],
      [50, null],
      [50, null],
      [20, "failure"],
    ]);
    expect(stored.output.annotations_count).toBe(120);
    expect(stored.conclusion).toBe("failure");
  });

  it("clips a summary to GitHub's limit instead of being refused", async () => {
    const run = new CheckRun(octokit(), repo, "big", "d".repeat(40), noWait);
    await run.start({ title: "t", summary: "x".repeat(100_000) });
    const stored = face.checkRuns.find((r) => r.id === run.checkRunId)!;
    expect(stored.output.summary!.length).toBeLessThanOrEqual(65_535);
    expect(stored.output.summary).toMatch(/cut at GitHub's limit/);
  });
});

describe("coalescing", () => {
  function fakeTimers(): Timers & { advance(ms: number): void } {
    let now = 0;
    const timers: { at: number; fn: () => void; id: number }[] = [];
    let id = 0;
    return {
      now: () => now,
      setTimeout: (fn, ms) => (timers.push({ at: now + ms, fn, id: ++id }), id),
      clearTimeout: (h) =>
        void timers.splice(
          timers.findIndex((t) => t.id === h),
          1,
        ),
      advance(ms) {
        now += ms;
        for (const t of timers.filter((x) => x.at <= now)) {
          timers.splice(timers.indexOf(t), 1);
          t.fn();
        }
      },
    };
  }

  it("sends phase changes at once and everything else at most every interval, latest state winning", async () => {
    const timers = fakeTimers();
    const sent: string[] = [];
    const c = new Coalescer<string>(async (v) => void sent.push(v), 5000, timers);
    await c.offer("start", true);
    void c.offer("node 1");
    void c.offer("node 2");
    expect(sent).toEqual(["start"]);
    timers.advance(5000);
    await c.flush();
    expect(sent).toEqual(["start", "node 2"]);
    await c.offer("upgrade phase", true);
    void c.offer("node 3");
    await c.flush();
    expect(sent).toEqual(["start", "node 2", "upgrade phase", "node 3"]);
    for (let i = 0; i < 1000; i++) void c.offer(`n${i}`);
    await c.flush();
    expect(c.sent).toBe(5);
  });

  it("keeps one send in flight, and behind it each urgent state and only the latest other, while GitHub holds a send up", async () => {
    const timers = fakeTimers();
    const sent: string[] = [];
    let release: () => void = () => {};
    const c = new Coalescer<string>(
      (v) => {
        sent.push(v);
        // The first send waits (a rate limit); the rest answer at once.
        return sent.length === 1 ? new Promise<void>((r) => (release = r)) : Promise.resolve();
      },
      5000,
      timers,
    );
    void c.offer("start", true);
    await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 60; i++) {
      timers.advance(1000);
      void c.offer(`node ${i}`, i % 10 === 0);
    }
    // A minute of offers, urgent ones among them, behind the held send: none sent yet.
    expect(sent).toEqual(["start"]);
    release();
    await c.flush();
    // Every urgent state (a phase), in order, then the latest of the rest; not one per offer.
    const urgent = [0, 10, 20, 30, 40, 50].map((i) => `node ${i}`);
    expect(sent).toEqual(["start", ...urgent, "node 59"]);
    expect(c.sent).toBe(8);
  });
});
