import { ParseFailedError } from '../../errors.ts';
import type { Fact, FactValue } from '../facts.ts';
import { parseSize } from '../units.ts';
import type { ParsedOutput } from './types.ts';

/** The failure every parser raises on unusable input: says what it expected to see. */
export function parseFailed(expected: string): ParseFailedError {
  return new ParseFailedError(`could not parse: expected ${expected}`);
}

/** A fact a parser found, with the line it came from (cut to a readable length). */
export function fact(kind: string, line: number, text: string, values?: Record<string, FactValue>): Fact {
  const cut = text.length > 300 ? `${text.slice(0, 297)}...` : text;
  return values ? { kind, line, text: cut.trim(), values } : { kind, line, text: cut.trim() };
}

/**
 * Assembles a parser's output. Besides the parser's own facts it adds one `parsed.<format>` fact that
 * carries every value, so a playbook can match on `parsed.pmap` with `where: { verdict: ... }`.
 */
export function output(
  format: string,
  values: Record<string, FactValue>,
  summary: string,
  facts: Fact[],
  verdict?: string,
  firstLine = 1,
): ParsedOutput {
  const all = verdict ? { ...values, verdict } : { ...values };
  const summaryFact = fact(`parsed.${format}`, firstLine, summary, all);
  return { format, facts: [...facts, summaryFact], values: all, summary, ...(verdict ? { verdict } : {}) };
}

/** Sizes as tools print them with a unit glued on: `40.945GB`, `21.9M`, `3072.0K`, `0.0B`, `4855 KiB`. */
export function sizeOf(text: string): number | undefined {
  // Trimmed first, so no `\s*` stands on both sides of the optional unit (quadratic on a run of spaces).
  const m = /^(\d+(?:\.\d+)?)\s*([KMGT]?)(i?B?)$/i.exec(text.trim());
  if (!m) return parseSize(text);
  return parseSize(`${m[1]}${m[2] ? `${m[2]}b` : 'b'}`);
}

/** Median of a list (0 for an empty one). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i] ?? 0;
    sy += ys[i] ?? 0;
  }
  const mx = sx / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] ?? 0) - mx;
    num += dx * ((ys[i] ?? 0) - my);
    den += dx * dx;
  }
  return den === 0 ? 0 : num / den;
}

/** A share as a percentage a person reads: `12.3%`. */
export function percent(share: number): string {
  // One decimal for small shares either way: a fall of 50% reads "-50%", not "-50.0%".
  return `${(share * 100).toFixed(Math.abs(share) < 0.1 ? 1 : 0)}%`;
}

/** Largest value without spreading (a spread of 100k numbers overflows the stack); 0 when empty. */
export function maxOf(values: readonly number[]): number {
  let max = 0;
  for (const v of values) if (v > max) max = v;
  return max;
}
