// Kubernetes resource quantities as the sandbox reads and prints them: CPU in millicores,
// memory in bytes.

const SUFFIX: Record<string, number> = {
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
};

/** CPU as millicores: 2, "2", "1.5", "500m". NaN when malformed. */
export function parseCpu(q: string | number): number {
  if (typeof q === "number") return Math.round(q * 1000);
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(q.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return Math.round(m[2] === "m" ? n : n * 1000);
}

/** Memory as bytes: 1073741824, "512Mi", "1Gi", "1G". NaN when malformed. */
export function parseMemory(q: string | number): number {
  if (typeof q === "number") return q;
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(q.trim());
  if (!m) return NaN;
  return Math.round(Number(m[1]) * (m[2] ? (SUFFIX[m[2]] ?? 1) : 1));
}

export function formatCpu(m: number): string {
  return m % 1000 === 0 ? String(m / 1000) : `${m}m`;
}
export function formatMemory(b: number): string {
  if (b % 1024 ** 3 === 0) return `${b / 1024 ** 3}Gi`;
  if (b % 1024 ** 2 === 0) return `${b / 1024 ** 2}Mi`;
  if (b % 1024 === 0) return `${b / 1024}Ki`;
  return String(b);
}
