// Colour for a terminal, in ANSI's SGR codes (ECMA-48): the plan, a validation and the roll paint
// with one palette. Whether to paint at all is the command line's to decide — only on a TTY, and
// never with NO_COLOR set (no-color.org) — so renderers take a Paint and stay pure.
const TONES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33 } as const;

export type Tone = keyof typeof TONES;

/** Text in the tones given (none: as it is). */
export type Paint = (text: string, ...tones: (Tone | undefined)[]) => string;

export const plainPaint: Paint = (text) => text;

export const ansiPaint: Paint = (text, ...tones) => {
  const codes = tones.filter((t): t is Tone => t !== undefined).map((t) => TONES[t]);
  return codes.length > 0 && text ? `\x1b[${codes.join(";")}m${text}\x1b[0m` : text;
};

export const painter = (colour: boolean | undefined): Paint => (colour ? ansiPaint : plainPaint);
