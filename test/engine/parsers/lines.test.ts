import { describe, expect, it } from 'vitest';
import { parseText } from '../../../src/engine/parsers/parse-text.ts';
import { ParseFailedError } from '../../../src/errors.ts';

describe('the lines parser', () => {
  it('counts the names, leaving out blanks and repeats', () => {
    const parsed = parseText('lines', '  ReadFromPubSub\n\nParseJson\nEnrich\nParseJson\r\nWrite\n');
    expect(parsed.values).toEqual({ count: 4 });
    expect(parsed.summary).toBe('4 names: ReadFromPubSub, ParseJson, Enrich, Write');
  });

  it.each([
    ['', 'found no names'],
    ['OnlyOne\n\n', 'found only one name'],
    [Array.from({ length: 65 }, (_, i) => `T${i}`).join('\n'), 'found 65 names; give at most 64'],
  ])('refuses a list that cannot be bisected (%#)', (text, message) => {
    expect(() => parseText('lines', text)).toThrow(ParseFailedError);
    expect(() => parseText('lines', text)).toThrow(message);
  });
});
