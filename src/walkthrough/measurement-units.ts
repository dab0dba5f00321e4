import { formatSize, parseSize } from '../engine/units.ts';

/**
 * The unit a measured metric really has, as the tool shows it. Answers and thresholds are in it.
 * `ratio` is a share from 0 to 1 (CloudWatch's glue.*.jvm.heap.usage); `percent` a share from 0 to
 * 100 (jstat's O column); `multiple` how many times larger one figure is than another (Max / Median).
 */
export const MEASUREMENT_UNITS = [
  'ratio',
  'percent',
  'multiple',
  'bytes',
  'MiB',
  'GiB',
  'seconds',
  'ms',
  'count',
] as const;
export type MeasurementUnit = (typeof MEASUREMENT_UNITS)[number];

/** A typed measurement read in the step's unit, with how it was read; or what was expected. */
export type Reading = { ok: true; value: number; shown: string } | { ok: false; error: string };

/** The range every value of a unit lies in (a share cannot pass 100%, a size cannot be negative). */
export const UNIT_RANGE: Readonly<Record<MeasurementUnit, { min: number; max?: number }>> = {
  ratio: { min: 0, max: 1 },
  percent: { min: 0, max: 100 },
  multiple: { min: 0 },
  bytes: { min: 0 },
  MiB: { min: 0 },
  GiB: { min: 0 },
  seconds: { min: 0 },
  ms: { min: 0 },
  count: { min: 0 },
};

/** How to type a value of each unit: shown at the step and in every refusal. */
export const UNIT_HINT: Readonly<Record<MeasurementUnit, string>> = {
  ratio: 'a ratio from 0 to 1 as the metric shows it (0.85), or a percentage (85%)',
  percent:
    'a percentage from 0 to 100 (85 or 85%; below 1 write the % sign: 0.5%), or two figures to divide (7.8 min / 1.2 h)',
  multiple: 'how many times larger (4.2), or the two figures to divide (512 MiB / 64 MiB)',
  bytes: 'a size with its unit (3.5 GiB, 512m) or a number of bytes',
  MiB: 'a size in MiB (192) or with its unit (1.5 GiB, 192.000mb (201326592 bytes))',
  GiB: 'a size in GiB (1.5) or with its unit (1536 MiB, 1.2 GB)',
  seconds: 'a duration in seconds (90) or with its unit (1.5 min, 1200 ms)',
  ms: 'a duration in milliseconds (1200) or with its unit (1.2 s)',
  count: 'a whole number (350)',
};

const MS_PER: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  sec: 1000,
  secs: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
};

const BYTE_UNITS: Readonly<Partial<Record<MeasurementUnit, number>>> = {
  bytes: 1,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
};

/** A bare MiB or GiB figure this large is a byte count typed without its unit. */
const LOOKS_LIKE_BYTES = 1024 ** 2;

type Quantity = { n: number; suffix: string };

/** `85`, `1,024`, `0.85`, `.5`, `85%`, `3.5 GiB`, `1.2 h`; a comma is only a thousands separator. */
function quantity(text: string): Quantity | string | undefined {
  const match = /^([+-]?[\d.,]{1,40})\s{0,4}([a-zA-Z%×]{0,12})$/.exec(text.trim());
  if (!match) return undefined;
  const [, digits = '', suffix = ''] = match;
  if (digits.includes(',') && !/^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(digits))
    return 'has a comma: write decimals with a dot (0.85), commas only between thousands (1,024)';
  const plain = digits.replace(/,/g, '');
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(plain)) return undefined;
  return { n: Number(plain), suffix: suffix.toLowerCase() };
}

function durationMs(q: Quantity): number | undefined {
  const per = MS_PER[q.suffix];
  return per === undefined ? undefined : q.n * per;
}

function sizeBytes(q: Quantity): number | undefined {
  if (q.suffix === 'bytes' || q.suffix === 'byte') return q.n;
  return q.suffix === '' ? undefined : parseSize(`${q.n}${q.suffix}`);
}

/** `a / b` of two durations, two sizes or two plain numbers: the Spark UI shows both figures. */
function quotient(text: string): number | string | undefined {
  const parts = text.split('/');
  if (parts.length !== 2) return undefined;
  const [a, b] = parts.map((p) => quantity(p ?? ''));
  if (typeof a === 'string') return a;
  if (typeof b === 'string') return b;
  if (!a || !b) return undefined;
  const pairs: [number | undefined, number | undefined][] = [
    [a.suffix === '' && b.suffix === '' ? a.n : undefined, b.suffix === '' ? b.n : undefined],
    [durationMs(a), durationMs(b)],
    [sizeBytes(a), sizeBytes(b)],
  ];
  for (const [x, y] of pairs) {
    if (x === undefined || y === undefined) continue;
    return y === 0 ? 'divides by 0' : x / y;
  }
  return 'divides figures of different kinds: give two durations, two sizes or two plain numbers';
}

/** Up to `digits` decimals, without float noise (0.1 + 0.2) or trailing zeros. */
function round(value: number, digits = 2): string {
  return String(Number(value.toFixed(digits)));
}

/** A measurement with its unit, as a person reads it: `85% (ratio 0.85)`, `192 MiB`, `4.2x`. */
export function formatMeasurement(value: number, unit: MeasurementUnit | string): string {
  switch (unit) {
    case 'ratio':
      return `${round(value * 100)}% (ratio ${round(value, 4)})`;
    case 'percent':
      return `${round(value)}%`;
    case 'multiple':
      return `${round(value)}x`;
    case 'bytes':
      return `${value} bytes (${formatSize(value)})`;
    case 'seconds':
      return `${round(value, 3)} s`;
    case 'count':
      return String(value);
    default:
      return `${round(value, 3)} ${unit}`;
  }
}

function refuse(text: string, unit: MeasurementUnit, why: string): Reading {
  return { ok: false, error: `"${text.trim()}" ${why}; type ${UNIT_HINT[unit]}.` };
}

/** A unit's range as a person reads it: `0 to 1 (0% to 100%)`, `0% to 100%`, `at least 0 MiB`. */
export function rangeText(
  unit: MeasurementUnit,
  min = UNIT_RANGE[unit].min,
  max = UNIT_RANGE[unit].max,
): string {
  if (unit === 'ratio')
    return `${round(min, 4)} to ${round(max ?? 1, 4)} (${round(min * 100)}% to ${round((max ?? 1) * 100)}%)`;
  if (max === undefined) return `at least ${formatMeasurement(min, unit)}`;
  return `${formatMeasurement(min, unit)} to ${formatMeasurement(max, unit)}`;
}

function accept(text: string, value: number, unit: MeasurementUnit): Reading {
  const range = UNIT_RANGE[unit];
  if (!Number.isFinite(value) || value < range.min || (range.max !== undefined && value > range.max))
    return refuse(text, unit, `is outside ${rangeText(unit)}`);
  return { ok: true, value, shown: formatMeasurement(value, unit) };
}

/** A share (ratio or percent step) from a bare number, `N%` or `a / b`. */
function share(text: string, unit: 'ratio' | 'percent'): Reading {
  const scale = unit === 'ratio' ? 1 : 100;
  const divided = quotient(text);
  if (typeof divided === 'string') return refuse(text, unit, divided);
  if (divided !== undefined) return accept(text, divided * scale, unit);
  const q = quantity(text);
  if (typeof q === 'string') return refuse(text, unit, q);
  if (!q || (q.suffix !== '' && q.suffix !== '%')) return refuse(text, unit, 'is not a share');
  if (q.suffix === '%') return accept(text, (q.n / 100) * scale, unit);
  if (unit === 'ratio')
    // A heap ratio cannot pass 1, so 85 can only be a percentage typed without its sign.
    return accept(text, q.n > 1 && q.n <= 100 ? q.n / 100 : q.n, unit);
  if (q.n > 0 && q.n <= 1)
    return refuse(
      text,
      unit,
      `is ambiguous: ${q.n}% or a ratio of ${q.n} (${round(q.n * 100)}%)? Add the % sign (${q.n}% or ${round(q.n * 100)}%)`,
    );
  return accept(text, q.n, unit);
}

function multiple(text: string): Reading {
  const divided = quotient(text);
  if (typeof divided === 'string') return refuse(text, 'multiple', divided);
  if (divided !== undefined) return accept(text, divided, 'multiple');
  const q = quantity(text);
  if (typeof q === 'string') return refuse(text, 'multiple', q);
  if (!q || !['', 'x', '×', 'times'].includes(q.suffix)) return refuse(text, 'multiple', 'is not a multiple');
  return accept(text, q.n, 'multiple');
}

function size(text: string, unit: 'bytes' | 'MiB' | 'GiB'): Reading {
  const per = BYTE_UNITS[unit] ?? 1;
  // Flink logs its memory layout as `JVM Overhead:   192.000mb (201326592 bytes)`: the exact figure
  // is in brackets at the end, whatever comes before it.
  const flink = /\((\d{1,20}) bytes\)$/.exec(text.trim());
  if (flink) return accept(text, Number(flink[1]) / per, unit);
  const q = quantity(text);
  if (typeof q === 'string') return refuse(text, unit, q);
  if (!q) return refuse(text, unit, 'is not a size');
  if (q.suffix === '') {
    if (unit !== 'bytes' && q.n >= LOOKS_LIKE_BYTES)
      return refuse(text, unit, `looks like a number of bytes, not ${unit}: add its unit (${q.n} bytes)`);
    return accept(text, q.n, unit);
  }
  const bytes = sizeBytes(q);
  return bytes === undefined ? refuse(text, unit, 'is not a size') : accept(text, bytes / per, unit);
}

function duration(text: string, unit: 'seconds' | 'ms'): Reading {
  const q = quantity(text);
  if (typeof q === 'string') return refuse(text, unit, q);
  if (!q) return refuse(text, unit, 'is not a duration');
  const perUnit = unit === 'ms' ? 1 : 1000;
  if (q.suffix === '') return accept(text, q.n, unit);
  const ms = durationMs(q);
  return ms === undefined ? refuse(text, unit, 'is not a duration') : accept(text, ms / perUnit, unit);
}

function count(text: string): Reading {
  const q = quantity(text);
  if (typeof q === 'string') return refuse(text, 'count', q);
  if (q?.suffix !== '') return refuse(text, 'count', 'is not a count');
  if (!Number.isInteger(q.n)) return refuse(text, 'count', 'is not a whole number');
  return accept(text, q.n, 'count');
}

/**
 * Reads a measurement as the tool printed it or a person typed it, converted to the step's unit:
 * `0.85`, `85%` or `85` for a ratio (0.85); `7.8 min / 1.2 h` for a percent (10.83);
 * `192.000mb (201326592 bytes)` for MiB (192). Ambiguous or out-of-range figures are refused with
 * what was expected, never guessed.
 */
export function readMeasurement(text: string, unit: MeasurementUnit): Reading {
  if (text.trim() === '') return refuse(text, unit, 'is empty');
  switch (unit) {
    case 'ratio':
    case 'percent':
      return share(text, unit);
    case 'multiple':
      return multiple(text);
    case 'bytes':
    case 'MiB':
    case 'GiB':
      return size(text, unit);
    case 'seconds':
    case 'ms':
      return duration(text, unit);
    case 'count':
      return count(text);
  }
}

/** The value of `readMeasurement`, or undefined when it refused the text. */
export function parseMeasurement(text: string, unit: MeasurementUnit): number | undefined {
  const read = readMeasurement(text, unit);
  return read.ok ? read.value : undefined;
}
