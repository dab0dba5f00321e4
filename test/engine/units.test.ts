import { describe, expect, it } from 'vitest';
import {
  clamp,
  formatSetting,
  formatSize,
  GiB,
  MiB,
  parseSize,
  roundUp,
  SIZE_PATTERN,
} from '../../src/engine/units.ts';

describe('parseSize', () => {
  it.each([
    ['4.5 GB', undefined, 4.5 * GiB],
    ['1024.0 MiB', undefined, GiB],
    ['8g', undefined, 8 * GiB],
    ['8G', undefined, 8 * GiB],
    ['512m', undefined, 512 * MiB],
    ['65536 kB', undefined, 64 * MiB],
    ['1719m', undefined, 1719 * MiB],
    ['1.5t', undefined, 1.5 * 1024 * GiB],
    ['  2 gib  ', undefined, 2 * GiB],
    ['100b', undefined, 100],
    ['100', undefined, 100],
    ['2048', 'm', 2 * GiB],
    ['1062.8 MB', undefined, Math.round(1062.8 * MiB)],
  ])('%j (default unit %s) -> %d bytes', (text, unit, bytes) => {
    expect(parseSize(text, unit)).toBe(bytes);
  });

  it.each(['', 'big', '-1g', '1e3m', '2 gigs', '4 GB of 5 GB', '1.2.3g', '8 p'])(
    '%j -> undefined',
    (text) => {
      expect(parseSize(text)).toBeUndefined();
    },
  );
});

describe('SIZE_PATTERN', () => {
  it.each([
    ['used 4.5 GB of', '4.5', 'GB'],
    ['-Xmx8g', '8', 'g'],
    ['1024.0 MiB', '1024.0', 'MiB'],
    ['used 4.55 GB of', '4.55', 'GB'],
  ])('finds the size in %j', (text, number, unit) => {
    const match = SIZE_PATTERN.exec(text);
    expect([match?.[1], match?.[2]]).toEqual([number, unit]);
  });
});

describe('formatSize', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [512 * MiB, '512 MB'],
    [Math.round(10.4 * GiB), '10.4 GB'],
    [10 * GiB, '10 GB'],
    [Math.round(150.4 * MiB), '150 MB'],
    // One decimal from 10 up to 100, two below 10.
    [Math.round(12.34 * GiB), '12.3 GB'],
    [Math.round(99.94 * MiB), '99.9 MB'],
    [Math.round(9.87 * MiB), '9.87 MB'],
    [1024 * GiB, '1 TB'],
    [3 * 1024 * GiB, '3 TB'],
    [5000 * 1024 * GiB, '5000 TB'],
  ])('%d -> %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  // A value that rounds up to 1024 of a unit reads as the next unit, never "1024 KB".
  it.each([
    [MiB - 1, '1 MB'],
    [GiB - 100, '1 GB'],
    [Math.round(9.999 * GiB), '10 GB'],
    [Math.round(9.96 * GiB), '9.96 GB'],
    [Math.round(8.2 * GiB), '8.2 GB'],
  ])('%d -> %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('formatSetting', () => {
  it.each([
    [2 * GiB, '2g'],
    [1.5 * GiB, '1536m'],
    [512 * MiB, '512m'],
    [512 * MiB + 1, '513m'],
    [4425 * MiB, '4425m'],
  ])('%d -> %s', (bytes, text) => {
    expect(formatSetting(bytes)).toBe(text);
  });
});

describe('clamp', () => {
  it.each([
    [5, 1, 10, 5],
    [0, 1, 10, 1],
    [11, 1, 10, 10],
  ])('clamp(%d, %d, %d) = %d', (value, min, max, out) => {
    expect(clamp(value, min, max)).toBe(out);
  });
});

describe('roundUp', () => {
  it.each([
    [1, GiB, GiB],
    [GiB, GiB, GiB],
    [GiB + 1, GiB, 2 * GiB],
    [0, GiB, 0],
  ])('roundUp(%d, %d) = %d', (bytes, step, out) => {
    expect(roundUp(bytes, step)).toBe(out);
  });
});
