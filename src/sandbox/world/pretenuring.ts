// V8's allocation-site pretenuring: on while a world is built, off once it stands.
//
// V8 watches, per allocation site, how many of the objects it made survive a scavenge; a site
// whose objects mostly do is "pretenured": its objects are made in the old generation from then
// on (V8's src/heap/pretenuring-handler.cc). Building a world makes millions of records that live
// as long as the world, and there pretenuring pays. What a process does once its world stands —
// serving lists of pods, noderoll reading them into its snapshot, planning, a roll — makes mostly
// objects that die young, yet while noderoll keeps what it reads, sites the read uses pass for
// long-lived and get pretenured: the read's garbage then goes straight to the old generation,
// grows the heap by gigabytes and waits for a full collection.
//
// Measured by `npm run bench`'s in-process plan of 100,000 nodes (8 GiB heap, two pairs
// alternating): with pretenuring left on, noderoll's read + compute took 35.5 and 29.0 s, the
// read touched ~898,000 new pages (~21 s of system time on this 2-core VM, where a first touch
// costs 10–20 µs) and the peak was 5.6 GB; turned off after the build, 22.0 and 23.0 s, ~288,000
// pages (~6 s) and 3.1 GB. At 20,000 nodes from the command line it ends the runs (one in three
// to five) whose read ballooned to 1.5 GB and took 4–8 s longer. Turned off for the whole
// process instead (the flag at start-up), the build lost what it gains from it: the 100,000-node
// in-process plan took 44 s where it took ~30 at an earlier measure.
//
// The flag is read by the collector whenever it counts or weighs that feedback, so setting it
// after start-up (Node's v8.setFlagsFromString, which its docs call a use-with-care API) stops
// new decisions at once; sites already pretenured by the build stay so. A second world (a
// rehearsal's twin) is built with it on again. Where the user gave the flag (either way) when
// starting Node, it is theirs, and left as they set it.
import { setFlagsFromString } from "node:v8";

/**
 * Whether V8 flag `name` (spelt with dashes) was given on Node's command line, in any spelling V8
 * takes: dashes or underscores, `--no-` before it, `=value` or the value as the next argument.
 */
export function v8FlagGiven(name: string): boolean {
  const pattern = name.replace(/-/g, "[-_]");
  const given = new RegExp(`^--(no[-_])?${pattern}(=|$)`);
  return process.execArgv.some((arg) => given.test(arg));
}

/** `build()`, with V8's allocation-site pretenuring on while it runs and off after it. */
export function pretenuredWhile<T>(build: () => T): T {
  if (v8FlagGiven("allocation-site-pretenuring")) return build();
  setFlagsFromString("--allocation-site-pretenuring");
  try {
    return build();
  } finally {
    setFlagsFromString("--no-allocation-site-pretenuring");
  }
}
