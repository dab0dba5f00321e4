import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FactCollector } from '../../../src/engine/collector.ts';
import { MAX_LINE_CHARS } from '../../../src/engine/ingest/lines.ts';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';
import { PARSERS } from '../../../src/engine/parsers/registry.ts';
import type { Parser } from '../../../src/engine/parsers/types.ts';
import { ParseFailedError } from '../../../src/errors.ts';
import { regexCensus } from '../regex/census.ts';
import { superlinear } from '../regex/growth.ts';
import { type Case, genericCases, pumpCases } from '../regex/pumps.ts';

/*
 * Every registered parser, fed a real output and then one pathological line (n and 4n characters,
 * up to the 16 KiB cut), must stay linear: its regexes are timed one by one in regex/linear.test.ts,
 * this times what it does with them (state kept per line, string building, JSON). Then the entry
 * points: parseText (a Slack reply, a console paste) and the diagnosis's line loop with every
 * extractor and the detected parser.
 */
const FIXTURES = join(import.meta.dirname, 'fixtures');

/** The smallest real output of a parser (not a malformed or truncated one): the state a line meets. */
function primer(id: string): string[] {
  const dir = join(FIXTURES, id);
  const files = readdirSync(dir)
    .filter((f) => !/^(malformed|truncated)/.test(f))
    .sort((a, b) => statSync(join(dir, a)).size - statSync(join(dir, b)).size);
  if (!files[0]) throw new Error(`parser ${id} has no real fixture in ${dir}`);
  return readFileSync(join(dir, files[0]), 'utf8').replace(/\n$/, '').split('\n');
}

/** Parsing src/ for its regexes costs about half a second: once per file, not once per parser. */
const census = regexCensus();

/** The cases for a parser: generic runs, and runs of what its own regexes expect. */
function casesFor(id: string): Case[] {
  const own = census.regexes.filter((r) => r.where.startsWith(`src/engine/parsers/${id}.ts:`));
  const pumped = own.flatMap((r) => pumpCases(r.source, r.flags));
  return [...genericCases(), ...pumped];
}

/** Only the parser's own "could not parse" may come out; anything else is a crash. */
function finishQuietly(run: ReturnType<Parser['create']>): void {
  try {
    run.finish();
  } catch (error) {
    if (!(error instanceof ParseFailedError)) throw error;
  }
}

const ids = Object.keys(PARSERS);
/** Generic runs that stay one line: parseText splits at CR, and 16k lines are a different test. */
const oneLine = genericCases().filter((c) => !/[\r\n]/.test(c.make(8)));

/** A run of `parser` over its primer and then `line`, as the probe times it. */
function afterPrimer(parser: Parser, head: readonly string[]): (line: string) => void {
  return (line) => {
    const run = parser.create();
    head.forEach((l, i) => {
      run.push(l, i + 1);
    });
    run.push(line, head.length + 1);
    finishQuietly(run);
  };
}

/**
 * A parser with a quadratic step planted in it, on the lines from `fromLine` on: from every character,
 * it scans the rest of the line for each of four characters the line lacks, as a pattern that fails
 * late does when tried from every start. About 4 ms on a 1 KiB line and 60 ms on a 4 KiB one here:
 * costly from 1024 characters, so the finding goes through the confirming step.
 */
function withPlantedQuadratic(parser: Parser, fromLine: number): Parser {
  const lacking = [1, 2, 3, 4];
  return {
    ...parser,
    create() {
      const run = parser.create();
      return {
        push(line, lineNo) {
          for (let start = 0; lineNo >= fromLine && start < line.length; start++)
            for (const code of lacking)
              for (let i = start; i < line.length && line.charCodeAt(i) !== code; i++);
          run.push(line, lineNo);
        },
        finish: () => run.finish(),
      };
    },
  };
}

describe('parsers stay linear on a pathological line after real output', () => {
  it.each(ids)('%s', (id) => {
    const work = afterPrimer(PARSERS[id] as Parser, primer(id));
    expect(superlinear(work, casesFor(id), { limit: 3 })).toEqual([]);
  });

  it('the probe finds a quadratic step planted in a parser, behind its real output', () => {
    // spark-eventlog has the largest primer here, so the most constant work to hide the growth behind.
    const id = 'spark-eventlog';
    const head = primer(id);
    const work = afterPrimer(withPlantedQuadratic(PARSERS[id] as Parser, head.length + 1), head);
    expect(superlinear(work, casesFor(id), { limit: 1 })).not.toEqual([]);
  });
});

describe('entry points stay linear', () => {
  it.each(ids)('parseText(%s) on a pathological line after real output', (id) => {
    const head = primer(id).join('\n');
    const work = (line: string) => {
      try {
        parseText(id, `${head}\n${line}`);
      } catch (error) {
        if (!(error instanceof ParseFailedError)) throw error;
      }
    };
    expect(superlinear(work, oneLine)).toEqual([]);
  });

  it('the diagnosis line loop with every extractor', () => {
    const work = (line: string) => {
      const collector = new FactCollector();
      collector.push([line]);
      collector.finish();
    };
    expect(superlinear(work, genericCases())).toEqual([]);
  });
});

describe('parseText cuts lines as ingest does', () => {
  const padding = ' '.repeat(MAX_LINE_CHARS);
  const samples = ['10:00 1.0 GB', '10:01 1.5 GB', '10:02 2.0 GB', '10:03 2.5 GB', '10:04 3.0 GB'];

  it('reads no figure past the 16 KiB cut', () => {
    const whole = parseText('memory-samples', [...samples, '10:05 3.5 GB'].join('\n'));
    const cut = parseText('memory-samples', [...samples, `10:05 ${padding}3.5 GB`].join('\n'));
    expect(whole.values.samples).toBe(6);
    expect(cut.values.samples).toBe(5);
  });

  it('says which line was cut when the parse then fails', () => {
    const total = `${padding}Total: reserved=100KB, committed=50KB`;
    expect(() => parseText('nmt', `Native Memory Tracking:\n${total}`)).toThrow(
      `(line 2 has ${total.length} characters; memdoctor reads the first ${MAX_LINE_CHARS} characters of a line:`,
    );
  });

  it('reads one-line JSON whole where the parser asks for it (Flink REST answers minified)', () => {
    // One real TaskManager (superzhc-yarn-taskmanagers.json) thirty times: ~27 KB on one line.
    const real = JSON.parse(
      readFileSync(join(FIXTURES, 'flink-rest', 'superzhc-yarn-taskmanagers.json'), 'utf8'),
    );
    const tm = real.taskmanagers[0];
    const many = { taskmanagers: Array.from({ length: 30 }, (_, i) => ({ ...tm, id: `${tm.id}-${i}` })) };
    const line = JSON.stringify(many);
    expect(line.length).toBeGreaterThan(MAX_LINE_CHARS);
    const out = parseText('flink-rest', line);
    expect(out.values.taskManagers).toBe(30);
    expect(out.values.slotsTotal).toBe(30 * tm.slotsNumber);
  });
});
