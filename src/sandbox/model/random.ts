// All randomness in the sandbox comes from one seeded generator, so a scenario replays exactly:
// same seed, same instance ids, same boot delays, same nodes EKS picks at random.

const HEX_CODES = [..."0123456789abcdef"].map((c) => c.charCodeAt(0));

/**
 * One flat string from parts. A template literal or `+` of long strings makes a rope (a
 * ConsString per join, kept as long as the string lives); join builds the characters once.
 */
export function flat(...parts: string[]): string {
  return parts.join("");
}

/**
 * mulberry32's increment: its state is a counter, so the state after n draws is the state
 * before plus n of these (mod 2^32), and a draw can be skipped now and made again later.
 */
const STEP = 0x6d2b79f5;

/** mulberry32: a tiny 32-bit PRNG, good enough for simulation and fully reproducible. */
export class Random {
  /**
   * The state's 32 bits as a signed integer, and a draw's too until it is read: V8 keeps those
   * as small integers, where a number of 2^31 or more is a heap object (half the states and draws
   * made one: ~40 bytes a pod while a large world is built).
   */
  #state: number;
  readonly #codes: number[] = [];
  constructor(seed: number) {
    this.#state = seed | 0;
  }
  /** Where the stream is (in [0, 2^32)): `new Random(state)` draws what this one will draw next. */
  get state(): number {
    return this.#state >>> 0;
  }
  /** Go back (or on) to `state`: draw again what was drawn from there. */
  seek(state: number): void {
    this.#state = state | 0;
  }
  /** Move on as `draws` draws would, without making them (made again later from `state`). */
  skip(draws: number): void {
    this.#state = (this.#state + Math.imul(draws, STEP)) | 0;
  }
  /** A float in [0, 1). */
  next(): number {
    return (this.#draw() >>> 0) / 4294967296;
  }
  /** One draw: 32 bits, as a signed integer (`>>> 0` reads them as a whole number in [0, 2^32)). */
  #draw(): number {
    this.#state = (this.#state + STEP) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return t ^ (t >>> 14);
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** A value in [base - jitter, base + jitter], never negative. */
  jitter(base: number, jitter: number): number {
    if (jitter <= 0) return base;
    return Math.max(0, base - jitter + this.next() * 2 * jitter);
  }
  /** Lower-case hex digits, for ids like i-0abc..., one draw per digit. */
  hex(digits: number): string {
    // One string from the character codes: appending digit by digit allocated a string per
    // digit, and past 12 characters V8 keeps the chain of rope nodes (ConsString) it built.
    const codes = this.#codes;
    codes.length = 0;
    this.hexCodes(codes, digits);
    return String.fromCharCode.apply(null, codes);
  }
  /** The character codes of `digits` hex digits, one draw each, appended to `codes`. */
  hexCodes(codes: number[], digits: number): void {
    // int(16) without the float: floor(x / 2^32 * 16) is x's top four bits (both exact).
    for (let i = 0; i < digits; i++) codes.push(HEX_CODES[this.#draw() >>> 28] as number);
  }
  /** The same digits as hexCodes, as ASCII bytes written from `at`; returns where they end. */
  hexBytes(bytes: Uint8Array, at: number, digits: number): number {
    for (let i = 0; i < digits; i++) bytes[at++] = HEX_CODES[this.#draw() >>> 28] as number;
    return at;
  }
  /** `k` distinct items chosen at random, in random order (partial Fisher-Yates). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + this.int(copy.length - i);
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy.slice(0, n);
  }
  /** An RFC 4122-looking id (version 4 layout), from the seeded stream. */
  uuid(): string {
    const h = this.hex(32);
    return flat(
      h.slice(0, 8),
      "-",
      h.slice(8, 12),
      "-4",
      h.slice(13, 16),
      "-a",
      h.slice(17, 20),
      "-",
      h.slice(20, 32),
    );
  }
}
