// Kubernetes uids for the simulated objects: a sequence number (8 hex digits) then 22 hex
// digits from the seeded stream, laid out like an RFC 4122 version 4 id. A world of 3 million
// pods kept each as a 36-character string (~56 bytes, and an allocation while it was built);
// a pod keeps the two numbers its uid is made from instead, and the digits are drawn again
// from the stream's state (random.ts: the state is a counter) whenever the uid is shown.
import { Random } from "./random.js";

/** Draws a uid takes from the stream: 4, 3, 3 and 12 hex digits. */
export const UID_DRAWS = 22;

const [DASH, FOUR, LOWER_A] = ["-", "4", "a"].map((c) => c.charCodeAt(0)) as [
  number,
  number,
  number,
];
const HEX_CODES = [..."0123456789abcdef"].map((c) => c.charCodeAt(0));

/**
 * Reused by every call: a plan reads millions of pods, each spelling out its uid, and writing
 * the characters as bytes and reading them as one Latin-1 string makes the fewest objects.
 */
const stream = new Random(0);
const bytes = Buffer.alloc(64);

/** The uid numbered `seq` whose digits the stream draws from `state`. */
export function uidOf(seq: number, state: number): string {
  const r = stream;
  r.seek(state);
  let at = 0;
  // The number in 8 hex digits (more past 2^32, as toString gives them).
  if (seq > 0xffffffff) for (const c of seq.toString(16)) bytes[at++] = c.charCodeAt(0);
  else for (let shift = 28; shift >= 0; shift -= 4) bytes[at++] = HEX_CODES[(seq >>> shift) & 15]!;
  bytes[at++] = DASH;
  at = r.hexBytes(bytes, at, 4);
  bytes[at++] = DASH;
  bytes[at++] = FOUR;
  at = r.hexBytes(bytes, at, 3);
  bytes[at++] = DASH;
  bytes[at++] = LOWER_A;
  at = r.hexBytes(bytes, at, 3);
  bytes[at++] = DASH;
  at = r.hexBytes(bytes, at, 12);
  return bytes.toString("latin1", 0, at);
}
