// @ts-nocheck
import { describe, expect, it } from 'vitest';
import { LineSelector, selectLines } from '../../src/llm/select.ts';

describe('selectLines', () => {
  it('keeps error lines, the first frames of each stack and memory figures, with their line numbers', () => {
    const log = [
      'INFO starting job', // 1
      'java.lang.OutOfMemoryError: Java heap space', // 2
      '\tat a.B.one(B.java:1)', // 3
      '\tat a.B.two(B.java:2)', // 4
      '\tat a.B.three(B.java:3)', // 5
      'INFO retrying', // 6
      'Caused by: java.io.IOException: disk', // 7
      '\tat c.D.one(D.java:9)', // 8
      'INFO executor memory 4 GiB', // 9
      '', // 10
      'INFO done', // 11
    ].join('\n');
    const selection = selectLines(log, { framesPerStack: 2 });
    expect(selection.lines.map((l) => l.line)).toEqual([2, 3, 4, 7, 8, 9]);
    expect(selection.lines[0]).toEqual({ line: 2, text: 'java.lang.OutOfMemoryError: Java heap space' });
    expect(selection.seen).toBe(11);
    expect(selection.dropped).toBe(0);
  });

  it('recognises exception and error class names without the word standing alone', () => {
    const log =
      'INFO ok\njava.lang.IllegalStateException: bad state\n-XX:OnOutOfMemoryError="kill -9 %p"\nINFO fine';
    expect(selectLines(log).lines.map((l) => l.line)).toEqual([2, 3]);
  });

  it('sees stack frames in a Slack quote', () => {
    const log = '> java.lang.OutOfMemoryError: Java heap space\n> \tat a.B.c(B.java:1)';
    expect(selectLines(log).lines).toEqual([
      { line: 1, text: 'java.lang.OutOfMemoryError: Java heap space' },
      { line: 2, text: 'at a.B.c(B.java:1)' },
    ]);
  });

  it('is bounded: the first half and the last half of the informative lines, in order', () => {
    const log = Array.from({ length: 1000 }, (_, i) => `ERROR failure number ${i + 1}`).join('\n');
    const selection = selectLines(log, { maxLines: 10 });
    expect(selection.lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 996, 997, 998, 999, 1000]);
    expect(selection.dropped).toBe(990);
  });

  it('cuts long lines and keeps a repeated line once', () => {
    const long = `ERROR ${'x'.repeat(1000)}`;
    const selection = selectLines(`${long}\n${long}\nERROR other`, { maxLineChars: 50 });
    expect(selection.lines).toHaveLength(2);
    expect(selection.lines[0]?.text).toHaveLength(51);
    expect(selection.lines[1]).toEqual({ line: 3, text: 'ERROR other' });
  });

  it('never keeps the body of a private-key block, even when it looks like an error', () => {
    const log = [
      'ERROR bad config',
      '-----BEGIN PRIVATE KEY-----',
      'ERROR MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
      '-----END PRIVATE KEY-----',
      'ERROR after',
    ].join('\n');
    const texts = selectLines(log).lines.map((l) => l.text);
    expect(texts.join('\n')).not.toContain('MIIEvQ');
    expect(texts).toContain('ERROR after');
  });

  it('gives the same result when fed in batches of any size', () => {
    const lines = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? `ERROR e${i}` : `INFO ${i} 12 MB`));
    const whole = selectLines(lines.join('\n'), { maxLines: 20 });
    const selector = new LineSelector({ maxLines: 20 });
    for (let i = 0; i < lines.length; i += 13) selector.push(lines.slice(i, i + 13));
    expect(selector.result()).toEqual(whole);
  });
});
