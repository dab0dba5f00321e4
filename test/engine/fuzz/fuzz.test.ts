import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnoseStream } from '../../../src/engine/index.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';
import { PARSERS } from '../../../src/engine/parsers/registry.ts';
import type { ParsedOutput, Parser } from '../../../src/engine/parsers/types.ts';
import { MemdoctorError, ParseFailedError } from '../../../src/errors.ts';
import { loadPlaybooks } from '../../../src/playbooks/load.ts';
import {
  allFixtures,
  deeplyNested,
  invalidUtf8,
  mutated,
  parserFixtures,
  randomText,
  wideYaml,
} from './inputs.ts';

/*
 * Fuzzing every parser (from the registry, so a new one is fuzzed without being listed) and the
 * diagnosis: no input may crash them (only the parser's own "could not parse" or, for bytes, the
 * engine's typed input errors may come out) or hold the process (each input gets CPU_BUDGET_MS).
 * The seed is fixed so a run is reproducible; MEMDOCTOR_FUZZ_SEED and MEMDOCTOR_FUZZ_RUNS widen it.
 */
const SEED = Number(process.env.MEMDOCTOR_FUZZ_SEED ?? 1313);
const SCALE = Number(process.env.MEMDOCTOR_FUZZ_RUNS ?? 1);
const CPU_BUDGET_MS = 3000;
const everything = allFixtures();

function cpuMs<T>(run: () => T): { value: T; ms: number } {
  const start = process.cpuUsage();
  const value = run();
  const used = process.cpuUsage(start);
  return { value, ms: (used.user + used.system) / 1000 };
}

/** A parser's output must be data a renderer can trust: finite figures, a sentence, numbered facts. */
function checkOutput(out: ParsedOutput): void {
  expect(typeof out.format).toBe('string');
  expect(out.summary.length).toBeGreaterThan(0);
  for (const [key, value] of Object.entries(out.values)) {
    if (typeof value === 'number') expect(Number.isFinite(value), `${key} = ${value}`).toBe(true);
    else expect(['string', 'boolean']).toContain(typeof value);
  }
  for (const f of out.facts) {
    expect(typeof f.kind).toBe('string');
    expect(Number.isInteger(f.line) && f.line >= 1).toBe(true);
  }
}

/** Runs one parse; only ParseFailedError may escape, and it must say what was expected. */
function parseOrRefuse(parse: () => ParsedOutput): void {
  const { value, ms } = cpuMs(() => {
    try {
      return parse();
    } catch (error) {
      if (error instanceof ParseFailedError) return error;
      throw error;
    }
  });
  expect(ms, `one input took ${ms.toFixed(0)} ms of CPU`).toBeLessThan(CPU_BUDGET_MS);
  if (value instanceof ParseFailedError) expect(value.message.length).toBeGreaterThan(10);
  else checkOutput(value);
}

/** The parser without its format check, so the fuzz reaches the reading code on every input. */
function runDirectly(parser: Parser, text: string): ParsedOutput {
  const run = parser.create();
  text.split('\n').forEach((line, i) => {
    run.push(line.slice(0, parser.maxLineChars ?? 16_384), i + 1);
  });
  return run.finish();
}

function textsFor(id: string): fc.Arbitrary<string> {
  const own = parserFixtures(id);
  return fc.oneof(
    { weight: 4, arbitrary: mutated(own) },
    { weight: 2, arbitrary: mutated(everything) },
    { weight: 2, arbitrary: randomText },
    { weight: 1, arbitrary: deeplyNested },
    { weight: 1, arbitrary: wideYaml },
  );
}

describe('every parser takes hostile input without crashing or hanging', () => {
  it.each(Object.keys(PARSERS))('%s', (id) => {
    const parser = PARSERS[id] as Parser;
    fc.assert(
      fc.property(textsFor(id), (text) => {
        parseOrRefuse(() => parseText(id, text));
        parseOrRefuse(() => runDirectly(parser, text));
      }),
      { seed: SEED, numRuns: 25 * SCALE, endOnFailure: true },
    );
  });
});

describe('diagnose takes hostile bytes without crashing or hanging', () => {
  const playbooks = loadPlaybooks();

  async function diagnoseBytes(bytes: Uint8Array): Promise<string> {
    async function* once(): AsyncGenerator<Uint8Array> {
      yield bytes;
    }
    try {
      const { report, failures } = await diagnoseStream('fuzz', once(), playbooks, {
        maxBytes: 8 * 1024 * 1024,
      });
      // No extractor may throw; a parser may only give up with its own "could not parse".
      for (const f of failures) {
        expect(f.stage, f.message).toBe('parser');
        expect(f.message).toMatch(/^could not parse: expected /);
      }
      for (const d of report.diagnoses) {
        expect(d.confidence).toBeGreaterThanOrEqual(0);
        expect(d.confidence).toBeLessThanOrEqual(1);
        for (const e of d.evidence) expect(e.line).toBeLessThanOrEqual(report.input.lines);
      }
      return JSON.stringify({ input: report.input, diagnoses: report.diagnoses });
    } catch (error) {
      // Binary input, damaged gzip, too large: the engine's own errors, each with a message.
      if (error instanceof MemdoctorError) return `${error.code}: ${error.message}`;
      throw error;
    }
  }

  it('gives the same typed answer twice for random, mutated, nested and invalid UTF-8 input', async () => {
    const bytes = fc.oneof(
      mutated(everything).map((t) => Buffer.from(t, 'utf8')),
      invalidUtf8(everything),
      randomText.map((t) => Buffer.from(t, 'utf8')),
      deeplyNested.map((t) => Buffer.from(t, 'utf8')),
      wideYaml.map((t) => Buffer.from(t, 'utf8')),
      fc.uint8Array({ maxLength: 4096 }),
    );
    await fc.assert(
      fc.asyncProperty(bytes, async (input) => {
        const start = process.cpuUsage();
        const first = await diagnoseBytes(input);
        const used = process.cpuUsage(start);
        expect((used.user + used.system) / 1000).toBeLessThan(CPU_BUDGET_MS);
        expect(await diagnoseBytes(input)).toBe(first);
      }),
      { seed: SEED, numRuns: 40 * SCALE, endOnFailure: true },
    );
    // About 6 s alone; a loaded 2-core machine may take three times that (the test timeout is 60 s).
  });
});
