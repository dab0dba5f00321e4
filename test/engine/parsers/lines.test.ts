import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseText } from '../../../src/engine/parsers/parse-text.ts';
import { ParseFailedError } from '../../../src/errors.ts';
import { medianTime } from '../regex/growth.ts';

describe('the lines parser', () => {
  it('counts the names, leaving out blanks and repeats', () => {
    const parsed = parseText(
      'lines',
      '  ReadFromPubSub\n\nParseJson\nEnrich/Lookup\nParseJson\r\nWrite to BQ\n',
    );
    expect(parsed.values).toEqual({ count: 4 });
    expect(parsed.summary).toBe('4 names: ReadFromPubSub, ParseJson, Enrich/Lookup, Write to BQ');
  });

  it.each([
    [
      'OnlyOne\n\n',
      'could not parse: expected at least two names, one per line, to split in halves (found one)',
    ],
    [
      Array.from({ length: 65 }, (_, i) => `T${i}`).join('\n'),
      'could not parse: expected at most 64 names (found 65)',
    ],
    ['ParseJson: ParDo(parse)\nEnrich', 'this does not look like a list of names'],
    ['', 'this does not look like a list of names'],
  ])('refuses a list that cannot be bisected (%#)', (text, message) => {
    expect(() => parseText('lines', text)).toThrow(ParseFailedError);
    expect(() => parseText('lines', text)).toThrow(message);
  });

  it('reads the fixture list, with the parsed.lines fact every parser adds', () => {
    const text = readFileSync(
      join(import.meta.dirname, 'fixtures', 'lines', 'synthetic-beam-steps.txt'),
      'utf8',
    );
    const parsed = parseText('lines', text);
    expect(parsed.values).toEqual({ count: 6 });
    expect(parsed.facts).toEqual([
      expect.objectContaining({ kind: 'parsed.lines', values: { count: 6 }, line: 1 }),
    ]);
  });

  it('is never picked by auto-detection, which would turn any short log into a list', () => {
    expect(detectFormat(['ReadFromPubSub', 'ParseJson', 'Enrich'])).toBeUndefined();
    expect(detectFormat(['INFO starting', 'WARN something odd', 'INFO done'])).toBeUndefined();
  });

  it('reads a long list in linear time, and says how many names it found', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `Step${i}`).join('\n');
    const [small, large] = [list(2000), list(20_000)];
    expect(() => parseText('lines', large)).toThrow('at most 64 names (found 20000)');
    const refuse = (text: string) => () => {
      try {
        parseText('lines', text);
      } catch {
        // the refusal is the work being timed
      }
    };
    // Linear: about 10 for ten times the lines; it was quadratic (~100; a 20,000-line paste cost 3 s).
    // A ratio of two short timings is noise on a loaded machine, so the ratio only counts once the
    // large list takes long enough to tell linear from quadratic (as the regex growth check does).
    const [tSmall, tLarge] = [medianTime(refuse(small), 5), medianTime(refuse(large), 5)];
    expect(tLarge < 500 || tLarge / tSmall < 40, `${tSmall} ms -> ${tLarge} ms`).toBe(true);
  });
});
