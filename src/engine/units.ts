const KiB = 1024;
const MULTIPLIER: Readonly<Record<string, number>> = {
  b: 1,
  k: KiB,
  kb: KiB,
  kib: KiB,
  m: KiB ** 2,
  mb: KiB ** 2,
  mib: KiB ** 2,
  g: KiB ** 3,
  gb: KiB ** 3,
  gib: KiB ** 3,
  t: KiB ** 4,
  tb: KiB ** 4,
  tib: KiB ** 4,
  // Spark's Utils.bytesToString goes up to exbibytes; a bare "p"/"e" is left out (too ambiguous in prose).
  pb: KiB ** 5,
  pib: KiB ** 5,
  eb: KiB ** 6,
  eib: KiB ** 6,
};

/**
 * Sizes as logs and configs print them: `4.5 GB`, `1024.0 MiB`, `8g`, `512m`, `65536 kB`, `1719m`.
 * A match starts only at the first digit of a run: tried at every digit, a long run costs quadratic time.
 */
export const SIZE_PATTERN = /(?<!\d)(\d+(?:\.\d+)?)\s?([kmgt]i?b?|b)\b/i;

/**
 * A size as the engines print it inside a log message, as one capture group: Spark's
 * Utils.bytesToString ("%.1f" and B, KB..EB in Spark 1-2, B, KiB..EiB in Spark 3+, so "1500.0 B" below
 * 2 KiB), Hadoop's TraditionalBinaryPrefix ("4.5 GB", "512B"), the JVM's "kB". Bounded and anchored
 * so a long run of digits cannot make a match quadratic; `parseSize` reads every unit it allows.
 */
export const LOG_SIZE = String.raw`(?<![\d.])(\d{1,15}(?:\.\d{1,6})?\s?(?:[KMGTPE]i?B|kB|B))(?![A-Za-z])`;

/**
 * Parses a size into bytes. Units are binary, as YARN, Spark, Flink and the JVM all mean them
 * (their "GB" is 1024^3). A bare number is taken in `defaultUnit`.
 */
export function parseSize(text: string, defaultUnit = 'b'): number | undefined {
  // Trimmed first: `\s*` on both sides of an optional unit splits a run of spaces in quadratic ways.
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(text.trim());
  if (!match) return undefined;
  const unit = (match[2] || defaultUnit).toLowerCase();
  const multiplier = MULTIPLIER[unit];
  if (multiplier === undefined) return undefined;
  return Math.round(Number(match[1]) * multiplier);
}

/** Bytes as a person reads them: `10.4 GB`, `512 MB` (binary units, as the tools print them). */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  let text = roundForDisplay(value);
  // 1023.97 KB rounds to "1024 KB": a person expects "1 MB".
  if (Math.abs(Number(text)) >= 1024 && unit < units.length - 1) {
    unit++;
    text = roundForDisplay(value / 1024);
  }
  return `${text} ${units[unit]}`;
}

/** Two decimals below 10, one below 100, none above; parseFloat drops trailing zeros (8.20 -> 8.2). */
function roundForDisplay(value: number): string {
  const size = Math.abs(value);
  const digits = size >= 100 ? 0 : size < 10 ? 2 : 1;
  return String(Number.parseFloat(value.toFixed(digits)));
}

/** Bytes as a Spark/JVM setting: `2g` when whole gibibytes, else `1536m`. Rounds up to a mebibyte. */
export function formatSetting(bytes: number): string {
  const mib = Math.ceil(bytes / KiB ** 2);
  return mib % 1024 === 0 ? `${mib / 1024}g` : `${mib}m`;
}

/** Rounds bytes up to a multiple of `step` bytes. */
export function roundUp(bytes: number, step: number): number {
  return Math.ceil(bytes / step) * step;
}

export const MiB = KiB ** 2;
export const GiB = KiB ** 3;

/** Keeps `value` within [min, max] (callers make sure min <= max). */
export function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}
