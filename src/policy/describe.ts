// How a value found in a policy is described in an error: "found "110%"", "found a list".

export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "an empty value (null)";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "boolean") return `the boolean ${value}`;
  return String(value);
}
