import { describe, expect, it } from 'vitest';
import { niceStep, sizeAxis, timeAxis } from '../../../src/engine/charts/scale.ts';
import { shareBar, sparkline } from '../../../src/engine/charts/sparkline.ts';

describe('sparkline', () => {
  it('draws a climb from the lowest block to the highest', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█');
  });

  it('keeps a spike when it squeezes many values into few characters', () => {
    const values = Array.from({ length: 1000 }, () => 10);
    values[500] = 100;
    const line = sparkline(values, 10);
    expect(line).toHaveLength(10);
    expect(line).toContain('█');
  });

  it('draws a flat series at mid height and nothing for no values', () => {
    expect(sparkline([3, 3, 3])).toBe('▄▄▄');
    expect(sparkline([])).toBe('');
  });
});

describe('shareBar', () => {
  it('fills eighths of a character', () => {
    expect(shareBar(0.5, 4)).toBe('██··');
    expect(shareBar(1 / 16, 2)).toBe('▏·');
    expect(shareBar(2, 3)).toBe('███');
  });
});

describe('scales', () => {
  it('steps of 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceStep(100, 5)).toBe(20);
    expect(niceStep(0.9, 6)).toBe(0.2);
    expect(niceStep(11, 5)).toBe(2.5);
  });

  it('a size axis in the unit of its largest figure, topped above it', () => {
    const axis = sizeAxis(1.7 * 1024 ** 3);
    expect(axis.unit).toBe('GB');
    expect(axis.max).toBeGreaterThanOrEqual(1.7 * 1024 ** 3);
    expect(axis.ticks.map(axis.label)).toEqual(['0.0', '0.5', '1.0', '1.5', '2.0']);
  });

  it('a time axis in minutes for a span of minutes, labelled from its start', () => {
    const axis = timeAxis(1000, 1000 + 12 * 60);
    expect(axis.unit).toBe('min');
    expect(axis.label(1000)).toBe('0');
    expect(axis.label(1000 + 600)).toBe('10');
  });
});
