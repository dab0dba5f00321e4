import { describe, expect, it } from 'vitest';
import { fact, maxOf, median, output, percent, sizeOf, slope } from '../../../src/engine/parsers/common.ts';

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

describe('sizeOf', () => {
  // As the tools print sizes with a unit glued on (GC logs, pmap, memray).
  it.each([
    ['40.945GB', Math.round(40.945 * GiB)],
    ['21.9M', Math.round(21.9 * MiB)],
    ['3072.0K', 3072 * KiB],
    ['0.0B', 0],
    ['4855 KiB', 4855 * KiB],
    [' 12 MiB ', 12 * MiB],
    ['512', 512],
    ['2.5 mb', 2.5 * MiB],
    ['7.25GiB', 7.25 * GiB],
    // Kubernetes-style binary suffixes, which parseSize alone does not read.
    ['12Mi', 12 * MiB],
    ['3Gi', 3 * GiB],
  ])('%j is %d bytes', (text, bytes) => {
    expect(sizeOf(text)).toBe(bytes);
  });

  it.each(['', 'GB', '1.2.3M', 'x12M', '12M of', '-4K', '12 Q'])('%j is no size', (text) => {
    expect(sizeOf(text)).toBeUndefined();
  });
});

describe('median, slope, maxOf, percent', () => {
  it('takes the middle value, or the mean of the two middle ones, of the sorted list', () => {
    expect(median([])).toBe(0);
    expect(median([5])).toBe(5);
    expect(median([9, 1, 5])).toBe(5);
    expect(median([8, 2, 4, 6])).toBe(5);
  });

  // y = 3x + 7 has slope 3 whatever the offset; (0,1),(1,5),(2,3) has slope (3 - 1) / 2 = 1.
  it('fits the least-squares slope', () => {
    expect(slope([0, 1, 2, 3], [7, 10, 13, 16])).toBe(3);
    expect(slope([0, 1, 2], [1, 5, 3])).toBe(1);
    expect(slope([10, 11, 12], [0, -2, -4])).toBe(-2);
    // Only as many points as both lists have.
    expect(slope([0, 1, 2, 3], [1, 2])).toBe(1);
    expect(slope([0], [4])).toBe(0);
    expect(slope([], [])).toBe(0);
    expect(slope([2, 2, 2], [1, 5, 9])).toBe(0);
  });

  it('finds the largest value, 0 for none', () => {
    expect(maxOf([3, 9, 4])).toBe(9);
    expect(maxOf([])).toBe(0);
  });

  it('shows one decimal below 10% either way, none above', () => {
    expect([percent(0.123), percent(0.05), percent(-0.05), percent(-0.5), percent(0.1)]).toEqual([
      '12%',
      '5.0%',
      '-5.0%',
      '-50%',
      '10%',
    ]);
  });
});

describe('fact and output', () => {
  it('cuts a cited line to 300 characters and trims it', () => {
    expect(fact('k', 3, `  ${'x'.repeat(10)}  `)).toEqual({ kind: 'k', line: 3, text: 'x'.repeat(10) });
    expect(fact('k', 1, 'y'.repeat(300)).text).toBe('y'.repeat(300));
    expect(fact('k', 1, 'z'.repeat(301)).text).toBe(`${'z'.repeat(297)}...`);
    expect(fact('k', 1, ' a ', { n: 1 })).toEqual({ kind: 'k', line: 1, text: 'a', values: { n: 1 } });
  });

  it('adds one parsed.<format> fact carrying every value and the verdict', () => {
    const own = fact('x.found', 4, 'line four');
    const out = output('demo', { n: 2 }, 'Two things.', [own], 'fine', 3);
    expect(out).toEqual({
      format: 'demo',
      facts: [own, { kind: 'parsed.demo', line: 3, text: 'Two things.', values: { n: 2, verdict: 'fine' } }],
      values: { n: 2, verdict: 'fine' },
      summary: 'Two things.',
      verdict: 'fine',
    });
    const plain = output('demo', { n: 2 }, 'Two things.', []);
    expect(plain).toEqual({
      format: 'demo',
      facts: [{ kind: 'parsed.demo', line: 1, text: 'Two things.', values: { n: 2 } }],
      values: { n: 2 },
      summary: 'Two things.',
    });
  });
});
