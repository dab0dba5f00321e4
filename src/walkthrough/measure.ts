import { parseSize } from '../engine/units.ts';
import type { Step } from './procedure-schema.ts';

type Unit = Extract<Step, { kind: 'measurement' }>['unit'];

const BYTES_IN: Readonly<Partial<Record<Unit, number>>> = { bytes: 1, MiB: 1024 ** 2, GiB: 1024 ** 3 };

function timeIn(text: string, unit: 'seconds' | 'ms'): number | undefined {
  const match = /^(-?\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|m|min|minutes?)?$/i.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]);
  const suffix = (match[2] ?? (unit === 'ms' ? 'ms' : 's')).toLowerCase();
  const ms = suffix === 'ms' ? value : suffix.startsWith('m') ? value * 60_000 : value * 1000;
  return unit === 'ms' ? ms : ms / 1000;
}

/**
 * Reads a measurement as a person types it, in the step's unit: `85`, `85%`, `3.5 GiB` (for a MiB
 * step: 3584), `1200ms` (for a seconds step: 1.2), `0.8`. Undefined when it is not a number.
 */
export function parseMeasurement(text: string, unit: Unit): number | undefined {
  const trimmed = text.trim().replace(/,/g, '');
  if (/^-?\d+(?:\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (unit === 'percent') {
    const match = /^(-?\d+(?:\.\d+)?)\s*%$/.exec(trimmed);
    return match ? Number(match[1]) : undefined;
  }
  const perUnit = BYTES_IN[unit];
  if (perUnit !== undefined) {
    const bytes = parseSize(trimmed);
    return bytes === undefined ? undefined : bytes / perUnit;
  }
  if (unit === 'seconds' || unit === 'ms') return timeIn(trimmed, unit);
  return undefined;
}
