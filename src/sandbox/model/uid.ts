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

/** The uid numbered `seq` whose digits the stream draws from `state`. */
export function uidOf(seq: number, state: number): string {
  const r = new Random(state >>> 0);
  const codes: number[] = [];
  const head = seq.toString(16).padStart(8, "0");
  for (let i = 0; i < head.length; i++) codes.push(head.charCodeAt(i));
  codes.push(DASH);
  r.hexCodes(codes, 4);
  codes.push(DASH, FOUR);
  r.hexCodes(codes, 3);
  codes.push(DASH, LOWER_A);
  r.hexCodes(codes, 3);
  codes.push(DASH);
  r.hexCodes(codes, 12);
  return String.fromCharCode.apply(null, codes);
}
