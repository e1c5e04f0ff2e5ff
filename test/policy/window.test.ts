// The maintenance window, in local time of an IANA zone, across daylight-saving changes.
import { describe, expect, it } from "vitest";
import {
  isTimeZone,
  isWindowOpen,
  nextWindowOpening,
  type Window,
} from "../../src/policy/index.js";

const berlin: Window = {
  days: ["Mon", "Tue", "Wed", "Thu"],
  start: "09:00",
  end: "16:00",
  timeZone: "Europe/Berlin",
};
const at = (iso: string) => new Date(iso);

describe("maintenance window", () => {
  it("knows which time zones exist", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("America/Argentina/Buenos_Aires")).toBe(true);
    expect(isTimeZone("Europe/Berlim")).toBe(false);
    expect(isTimeZone("CEST+2")).toBe(false);
  });

  it("opens at 09:00 Berlin time in winter (UTC+1) and in summer (UTC+2)", () => {
    // Thursday 26 March 2026, before the change: 09:00 CET = 08:00 UTC.
    expect(isWindowOpen(berlin, at("2026-03-26T07:59:00Z"))).toBe(false);
    expect(isWindowOpen(berlin, at("2026-03-26T08:00:00Z"))).toBe(true);
    // Monday 30 March 2026, after the change on Sunday 29 March: 09:00 CEST = 07:00 UTC.
    expect(isWindowOpen(berlin, at("2026-03-30T06:59:00Z"))).toBe(false);
    expect(isWindowOpen(berlin, at("2026-03-30T07:00:00Z"))).toBe(true);
    expect(isWindowOpen(berlin, at("2026-03-30T13:59:00Z"))).toBe(true);
    expect(isWindowOpen(berlin, at("2026-03-30T14:00:00Z"))).toBe(false);
  });

  it("is closed on days it does not list, in local time", () => {
    // Friday 27 March 2026 10:00 Berlin.
    expect(isWindowOpen(berlin, at("2026-03-27T09:00:00Z"))).toBe(false);
    // 23:30 UTC on Sunday is already Monday 00:30 in Berlin, but before 09:00.
    expect(isWindowOpen(berlin, at("2026-03-29T23:30:00Z"))).toBe(false);
  });

  it("finds the next opening across the spring-forward weekend", () => {
    // From Thursday 26 March 16:30 Berlin (closed) the next opening is Monday 09:00 CEST.
    expect(nextWindowOpening(berlin, at("2026-03-26T15:30:00Z"))?.toISOString()).toBe(
      "2026-03-30T07:00:00.000Z",
    );
  });

  it("finds the next opening across the fall-back weekend", () => {
    // Sunday 25 October 2026 clocks go back; Monday 26 October 09:00 CET = 08:00 UTC.
    expect(nextWindowOpening(berlin, at("2026-10-22T15:00:00Z"))?.toISOString()).toBe(
      "2026-10-26T08:00:00.000Z",
    );
  });

  it("a window past midnight belongs to the day it starts", () => {
    const night: Window = { days: ["Sat"], start: "22:00", end: "04:00", timeZone: "UTC" };
    expect(isWindowOpen(night, at("2026-11-21T23:00:00Z"))).toBe(true); // Saturday
    expect(isWindowOpen(night, at("2026-11-22T03:59:00Z"))).toBe(true); // Sunday morning
    expect(isWindowOpen(night, at("2026-11-22T04:00:00Z"))).toBe(false);
    expect(isWindowOpen(night, at("2026-11-22T23:00:00Z"))).toBe(false); // Sunday night
  });

  it("returns now when the window is open now, and nothing when it never opens", () => {
    const now = at("2026-03-30T08:00:00Z");
    expect(nextWindowOpening(berlin, now)).toBe(now);
    expect(nextWindowOpening({ ...berlin, days: [] }, now)).toBeUndefined();
  });
});
