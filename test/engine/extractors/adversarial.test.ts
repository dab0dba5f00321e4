import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../../src/engine/collector.ts';
import { EXTRACTORS } from '../../../src/engine/extractors/registry.ts';
import type { Extractor } from '../../../src/engine/extractors/types.ts';
import { MAX_LINE_CHARS } from '../../../src/engine/ingest/lines.ts';
import { evidenceText, isFence, normalise } from '../../../src/engine/ingest/normalise.ts';
import { cpuTime } from '../regex/growth.ts';
import { fill, nested, GENERIC_UNITS as UNITS } from '../regex/pumps.ts';

/*
 * Every regex must be linear-time: a pasted log is attacker-shaped input as far as the engine knows.
 * For each extractor we time pathological lines of length n and 4n and require the 4n run to cost
 * less than RATIO times the n run (linear: ~4x; quadratic: ~16x). A ratio of CPU times, not wall-clock
 * times, so a slow or busy CI machine does not fail the suite. Runs under NOISE_MS are noise (GC, timer): a quadratic
 * pattern on a 16k-character line costs tens of milliseconds at least.
 */
const N = MAX_LINE_CHARS / 4;
const RATIO = 12;
const NOISE_MS = 5;

/** The units also wrapped in each trigger word, so trigger-gated patterns get past their literal. */
const AROUND_UNITS = ['a', '0', ' ', '.', '(', '-', '1 GB of '];

/** Near misses of a trigger: itself, itself + space, cut short by one letter, upper-cased. */
function nearMisses(trigger: string): string[] {
  return [trigger, `${trigger} `, trigger.slice(0, -1), trigger.toUpperCase(), `${trigger}1 `];
}

interface Case {
  label: string;
  make: (length: number) => string;
}

function casesFor(extractor: Extractor): Case[] {
  const cases: Case[] = [{ label: 'nested parentheses', make: nested }];
  for (const unit of UNITS) {
    cases.push({ label: `run of ${JSON.stringify(unit)}`, make: (n) => fill(unit, n) });
    if (!AROUND_UNITS.includes(unit)) continue;
    for (const trigger of extractor.triggers) {
      cases.push({
        label: `run of ${JSON.stringify(unit)} around "${trigger}"`,
        make: (n) => `${trigger} ${fill(unit, n)} ${trigger}`,
      });
    }
  }
  for (const trigger of extractor.triggers) {
    for (const miss of nearMisses(trigger)) {
      cases.push({ label: `repeated ${JSON.stringify(miss)}`, make: (n) => fill(miss, n) });
    }
  }
  return cases;
}

/**
 * Best of `runs` in CPU time, after one warm-up, so JIT and GC pauses do not pass for growth, nor does
 * the time a loaded machine's scheduler gave other processes (at load 20 on 2 cores every run of the
 * long line was preempted, and the prefilter looked 15-30x slower for 4x the line).
 */
function best(run: () => unknown, runs: number): number {
  run();
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) fastest = Math.min(fastest, cpuTime(run));
  return fastest;
}

interface Probe {
  /** The shorter length; the longer one is `factor` times it. */
  n: number;
  factor: number;
  runs: number;
}

const DEFAULT_PROBE: Probe = { n: N, factor: 4, runs: 2 };

/** Timings when the long line costs more than RATIO/4 per unit of growth (12x for 4n), else undefined. */
function growth(work: (line: string) => unknown, c: Case, { n, factor, runs }: Probe): string | undefined {
  const long = c.make(factor * n);
  const tLong = best(() => work(long), runs);
  if (tLong < NOISE_MS) return undefined;
  const short = c.make(n);
  const tShort = best(() => work(short), runs);
  if (tLong <= (RATIO / 4) * factor * Math.max(tShort, 0.05)) return undefined;
  return `${c.label}: ${tShort.toFixed(2)} -> ${tLong.toFixed(2)} ms`;
}

/** The cases that grow faster than linear; a case must fail twice, so a GC pause is not a finding. */
function superlinear(
  work: (line: string) => unknown,
  cases: readonly Case[],
  probe = DEFAULT_PROBE,
): string[] {
  const slow: string[] = [];
  for (const c of cases) {
    if (growth(work, c, probe) === undefined) continue;
    const again = growth(work, c, { ...probe, runs: probe.runs * 3 });
    if (again !== undefined) slow.push(again);
  }
  return slow;
}

describe('extractors stay linear on adversarial lines', () => {
  it.each(Object.values(EXTRACTORS).map((e) => [e.id, e] as const))('%s', (_id, extractor) => {
    expect(superlinear((line) => extractor.extract(line), casesFor(extractor))).toEqual([]);
  });

  // Regressions: both were superlinear (a digit run cost 1.6 s for ONE 16k-character line). A wider
  // spread (n vs 8n) makes the signal robust on a busy machine.
  it('container-kill is linear on a run of digits', () => {
    const extractor = EXTRACTORS['container-kill'];
    if (!extractor) throw new Error('container-kill is not registered');
    const digits = [{ label: 'digits', make: (n: number) => `${fill('0', n)} memory used` }];
    expect(superlinear((line) => extractor.extract(line), digits, { n: 512, factor: 8, runs: 3 })).toEqual(
      [],
    );
  });

  it('engine-markers is linear on repeated TaskManager mentions', () => {
    const extractor = EXTRACTORS['engine-markers'];
    if (!extractor) throw new Error('engine-markers is not registered');
    const mentions = [{ label: 'TaskManager', make: (n: number) => fill('TaskManager ', n) }];
    expect(superlinear((line) => extractor.extract(line), mentions, { n: 2048, factor: 8, runs: 3 })).toEqual(
      [],
    );
  });
});

describe('ingest and prefilter stay linear on adversarial lines', () => {
  const triggers = [...new Set(Object.values(EXTRACTORS).flatMap((e) => e.triggers))];
  const runs: Case[] = [
    { label: 'nested parentheses', make: nested },
    ...UNITS.map((unit) => ({ label: `run of ${JSON.stringify(unit)}`, make: (n: number) => fill(unit, n) })),
  ];
  const misses: Case[] = triggers.map((t) => ({
    label: `repeated ${JSON.stringify(t.slice(0, -1))}`,
    make: (n: number) => fill(`${t.slice(0, -1)} `, n),
  }));

  // Up to the engine's longest line. (Beyond ~100k characters V8's own global replace grows faster than
  // linear when every character matches, whatever the pattern; lines never get that long here.)
  it(`normalise, isFence and evidenceText (${4 * N}-character lines)`, () => {
    const work = (line: string) => [normalise(line), isFence(line), evidenceText(line)];
    expect(superlinear(work, runs)).toEqual([]);
  });

  it('the FactCollector prefilter and line loop', () => {
    // Every trigger, but extractors that find nothing: this times the prefilter, not the extractors.
    const silent: Extractor = { id: 'silent', description: 'finds nothing', triggers, extract: () => [] };
    const collector = new FactCollector([silent]);
    expect(superlinear((line) => collector.push([line]), [...runs, ...misses])).toEqual([]);
  });
});
