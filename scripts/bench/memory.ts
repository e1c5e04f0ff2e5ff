// The host's memory, measured beside the figures: how long a page takes the first time a process
// writes it. On the bench's shared VM that is most of what a large plan's wall time varies by
// (a first touch is a fault the kernel and the hypervisor serve: 10-27 µs a page at different
// times of one day, against ~0.04 µs a page written again), so the figures say what it was when
// they were taken, at the start of the run and at its end.

export interface MemoryFigures {
  /** Microseconds per 4 KiB page, writing fresh memory (mapped but never touched). */
  firstTouchUsPerPage: number;
  /** The same pages written again, for contrast. */
  rewriteUsPerPage: number;
  /** Page faults during each pass: the first should fault every page, the second none. */
  faults: { firstTouch: number; rewrite: number; pages: number };
}

const PAGE = 4096;

/** Writes `mib` MiB of fresh memory a page at a time, then again; each timed. */
export function measureFirstTouch(mib = 256): MemoryFigures {
  // allocUnsafeSlow: its own mapping, not from Node's pool, so none of it has been written.
  const buf = Buffer.allocUnsafeSlow(mib * 2 ** 20);
  const pages = buf.length / PAGE;
  const pass = (value: number) => {
    const faults = process.resourceUsage().minorPageFault;
    const started = performance.now();
    for (let at = 0; at < buf.length; at += PAGE) buf[at] = value;
    const us = ((performance.now() - started) * 1000) / pages;
    return { us, faults: process.resourceUsage().minorPageFault - faults };
  };
  const first = pass(1);
  const again = pass(2);
  return {
    firstTouchUsPerPage: Math.round(first.us * 10) / 10,
    rewriteUsPerPage: Math.round(again.us * 100) / 100,
    faults: { firstTouch: first.faults, rewrite: again.faults, pages },
  };
}
