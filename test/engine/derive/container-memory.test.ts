import { describe, expect, it } from 'vitest';
import { containerMemory } from '../../../src/engine/derive/container-memory.ts';
import { GiB } from '../../../src/engine/units.ts';
import { bookOf } from './book.ts';

const kill = (usedBytes?: number, limitBytes?: number) =>
  [
    'container.killed-memory',
    {
      resource: 'physical',
      ...(usedBytes !== undefined ? { usedBytes } : {}),
      ...(limitBytes !== undefined ? { limitBytes } : {}),
    },
  ] as [string, Record<string, string | number>];

describe('container-memory derivation', () => {
  // Every term non-zero: a 4g heap in a 5 GiB container that reached 5.5 GiB.
  // current = limit - heap = 1 GiB; overshoot = 5.5 - 5 = 0.5 GiB; headroom = 0.05 x 5 GiB = 0.25 GiB;
  // wanted = max(1.5 x 1, 1 + 0.5 + 0.25) = 1.75 GiB > 1 GiB, so whole GiB: 2g.
  it('gives the overhead the overshoot plus 5% of the limit', () => {
    const book = bookOf({ 'spark.executor.memory': '4g' }, kill(5.5 * GiB, 5 * GiB));
    expect(containerMemory(book)).toEqual({
      'container.used': '5.5 GB',
      'container.limit': '5 GB',
      'executor.memory': '4g',
      'overhead.current': '1g',
      'overhead.suggested': '2g',
    });
  });

  // Explicit 3g overhead, 12 GiB limit reached exactly: max(1.5 x 3, 3 + 0 + 0.6) = 4.5 GiB -> 5g
  // (the headroom alone would say 3.6 -> 4g).
  it('never suggests less than 1.5x an explicit overhead', () => {
    const book = bookOf({ 'spark.executor.memoryOverhead': '3g' }, kill(12 * GiB, 12 * GiB));
    expect(containerMemory(book)).toMatchObject({ 'overhead.current': '3g', 'overhead.suggested': '5g' });
  });

  // A kill that reports what was used but not the limit: no overshoot can be worked out, so 50% headroom.
  it('counts no overshoot without the limit', () => {
    const book = bookOf({ 'spark.executor.memory': '8g' }, kill(9 * GiB));
    expect(containerMemory(book)).toMatchObject({ 'overhead.current': '820m', 'overhead.suggested': '2g' });
  });

  // The pre-Spark-2.3 key, as a bare number of MiB: 1536m; 12 GiB limit: max(2304m, 1536m + 614.4m) = 2304m -> 3g.
  it('reads the legacy YARN overhead key in MiB', () => {
    const book = bookOf({ 'spark.yarn.executor.memoryOverhead': '1536' }, kill(12 * GiB, 12 * GiB));
    expect(containerMemory(book)).toMatchObject({ 'overhead.current': '1536m', 'overhead.suggested': '3g' });
  });

  // Heap only: max(384 MiB, 0.1 x 8 GiB = 819.2 MiB) -> 820m (rounded up to a MiB);
  // headroom = half the overhead: wanted = 1.5 x 819.2 MiB = 1228.8 MiB > 1 GiB -> 2g.
  it('falls back to the default overhead of the heap, with 50% headroom', () => {
    expect(containerMemory(bookOf({ 'spark.executor.memory': '8g' }))).toEqual({
      'executor.memory': '8g',
      'overhead.current': '820m',
      'overhead.suggested': '2g',
    });
  });

  // A 2g heap: 0.1 x 2 GiB = 204.8 MiB is below the 384 MiB floor; wanted 576 MiB -> 1024m = 1g.
  it('applies the 384 MiB floor and rounds to half gibibytes below 1 GiB', () => {
    expect(containerMemory(bookOf({ 'spark.executor.memory': '2g' }))).toMatchObject({
      'overhead.current': '384m',
      'overhead.suggested': '1g',
    });
    // 256m explicit: wanted = max(384m, 256m + 128m) = 384m -> 512m (a whole GiB step would say 1g).
    expect(containerMemory(bookOf({ 'spark.executor.memoryOverhead': '256m' }))).toMatchObject({
      'overhead.current': '256m',
      'overhead.suggested': '512m',
    });
  });

  // A limit no larger than the heap cannot hold heap + overhead: the heap's default overhead is used.
  it('ignores a limit that does not exceed the heap', () => {
    const book = bookOf({ 'spark.executor.memory': '8g' }, kill(undefined, 8 * GiB));
    expect(containerMemory(book)['overhead.current']).toBe('820m');
  });

  // Limit only: limit = heap x 1.1, so overhead = 11 GiB / 11 = 1 GiB; used 11.5 GiB:
  // wanted = max(1.5, 1 + 0.5 + 0.55) = 2.05 GiB -> 3g.
  it('derives the overhead from the limit alone with the default factor', () => {
    expect(containerMemory(bookOf({}, kill(11.5 * GiB, 11 * GiB)))).toEqual({
      'container.used': '11.5 GB',
      'container.limit': '11 GB',
      'overhead.current': '1g',
      'overhead.suggested': '3g',
    });
    // 2 GiB / 11 = 186 MiB, below the 384 MiB floor.
    expect(containerMemory(bookOf({}, kill(undefined, 2 * GiB)))['overhead.current']).toBe('384m');
  });

  it('reports only the figures it has', () => {
    expect(containerMemory(bookOf({}))).toEqual({});
    expect(containerMemory(bookOf({}, kill(3 * GiB)))).toEqual({ 'container.used': '3 GB' });
    expect(containerMemory(bookOf({ 'spark.executor.memory': 'lots' }))).toEqual({});
  });
});
