/** Kubernetes quantity suffixes: binary (Ki, Mi...) and decimal (k, M, G...). */
const SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  k: 1e3,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  m: 1e-3,
};

/** A memory quantity as Kubernetes writes it (`50Mi`, `1G`, `128974848`, `129e6`) in bytes. */
export function parseQuantity(text: string): number | undefined {
  // Trimmed first, so no `\s*` stands on both sides of the optional suffix (quadratic on spaces).
  const m = /^(\d+(?:\.\d+)?(?:e\d+)?)\s*([KMGT]i|[kKMGTm])?$/.exec(text.trim());
  if (!m) return undefined;
  const factor = SUFFIX[m[2] ?? ''];
  return factor === undefined ? undefined : Math.round(Number(m[1]) * factor);
}
