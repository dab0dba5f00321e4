import { formatSize } from '../units.ts';

/**
 * Axis scales with round ticks: sizes in the units memdoctor prints them in (1024-based, "MB", "GB"),
 * times in s, min, h or days as the span calls for.
 */

const SIZE_UNITS = [
  ['B', 1],
  ['KB', 1024],
  ['MB', 1024 ** 2],
  ['GB', 1024 ** 3],
  ['TB', 1024 ** 4],
] as const;

const TIME_UNITS = [
  ['s', 1],
  ['min', 60],
  ['h', 3600],
  ['days', 86_400],
] as const;

export interface Axis {
  /** The axis runs from 0 (sizes) or `min` (times) to `max`, in the data's own unit (bytes, seconds). */
  min: number;
  max: number;
  ticks: number[];
  /** The unit the tick labels are in, for the axis title: "GB", "min". */
  unit: string;
  label(value: number): string;
}

/** 1, 2 or 5 times a power of ten, the smallest that splits `span` into at most `count` steps. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/** The decimals a tick step needs: 0.25 needs two, 2.5 one, 20 none. */
function decimalsOf(step: number): number {
  return (String(Number(step.toPrecision(6))).split('.')[1] ?? '').length;
}

function ticksOf(min: number, max: number, step: number): number[] {
  const ticks: number[] = [];
  const first = Math.ceil(min / step - 1e-9) * step;
  for (let v = first; v <= max + step * 1e-9 && ticks.length < 50; v += step) ticks.push(v);
  return ticks;
}

function unitFor<T extends readonly (readonly [string, number])[]>(units: T, value: number): T[number] {
  let chosen = units[0] as T[number];
  for (const u of units) if (value >= u[1]) chosen = u;
  return chosen;
}

/** A size axis from 0 to a round value above `max`, in the unit of the largest figure. */
export function sizeAxis(max: number, count = 5): Axis {
  const [unit, factor] = unitFor(SIZE_UNITS, Math.max(1, max));
  const step = niceStep(Math.max(max, 1) / factor, count);
  const top = Math.max(step, Math.ceil(max / factor / step - 1e-9) * step);
  const decimals = decimalsOf(step);
  return {
    min: 0,
    max: top * factor,
    ticks: ticksOf(0, top, step).map((v) => v * factor),
    unit,
    label: (v) => (v / factor).toFixed(decimals),
  };
}

/** A time axis over [min, max] seconds, labelled from the start of the series. */
export function timeAxis(min: number, max: number, count = 6): Axis {
  const span = Math.max(max - min, 1e-9);
  const [unit, factor] = unitFor(TIME_UNITS, span / 2);
  const step = niceStep(span / factor, count);
  const decimals = decimalsOf(step);
  const top = Math.max(step, Math.ceil(span / factor / step - 1e-9) * step);
  return {
    min,
    max: min + top * factor,
    ticks: ticksOf(0, top, step).map((v) => min + v * factor),
    unit,
    label: (v) => ((v - min) / factor).toFixed(decimals),
  };
}

/** A count axis (collections, samples) from `min` to `max`, whole numbers only. */
export function countAxis(min: number, max: number, count = 6): Axis {
  const step = Math.max(1, niceStep(Math.max(max - min, 1), count));
  const top = min + Math.max(step, Math.ceil((max - min) / step) * step);
  return { min, max: top, ticks: ticksOf(min, top, step), unit: '', label: (v) => String(Math.round(v)) };
}

/** A size as the answers print it ("1.2 GB"), for annotations and alt text. */
export const sizeText = formatSize;

/** A rate as a person reads it: per second when it is big, else per minute or per hour. */
export function rateText(bytesPerSecond: number): string {
  const sign = bytesPerSecond < 0 ? '-' : '+';
  const abs = Math.abs(bytesPerSecond);
  if (abs >= 1024 * 1024) return `${sign}${formatSize(abs)}/s`;
  if (abs * 60 >= 1024 * 1024) return `${sign}${formatSize(abs * 60)}/min`;
  return `${sign}${formatSize(abs * 3600)}/h`;
}
