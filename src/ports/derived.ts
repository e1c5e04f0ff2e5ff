// A value derived from an object that never changes, kept on the object itself: made the first
// time it is asked, gone with the object. The owner of the derived value is the object it
// describes — a snapshot's list of budgets, a sandbox's pod template — not the module that
// computes it, so nothing of one run outlives it in module scope (eslint.config.js forbids
// module-level state). The slot is a non-enumerable symbol: JSON, spreads and deep equality
// never see it. An object that may not be extended (frozen) gets the value made afresh.
// `holds`: whether a value made earlier still describes the object (one part of it may change).
export function derived<K extends object, V>(
  of: K,
  slot: symbol,
  make: (of: K) => V,
  holds?: (value: V, of: K) => boolean,
): V {
  const held = (of as Record<symbol, V | undefined>)[slot];
  if (held !== undefined && (!holds || holds(held, of))) return held;
  const value = make(of);
  if (held !== undefined) (of as Record<symbol, V>)[slot] = value;
  else if (Object.isExtensible(of))
    Object.defineProperty(of, slot, { value, writable: true, configurable: false });
  return value;
}
