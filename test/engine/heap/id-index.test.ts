import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockColumn } from '../../../src/engine/heap/blocks.ts';
import { IdIndex } from '../../../src/engine/heap/id-index.ts';

/** The plain reference: the first position of the id, or -1. */
function firstIndexOf(ids: number[], id: number): number {
  return ids.indexOf(id);
}

describe('IdIndex', () => {
  const address = fc.integer({ min: 1, max: 2 ** 40 }).map((a) => a * 8);

  it('finds every id and no other, ascending (searched in place) or not (hashed), duplicates keeping the first', () => {
    fc.assert(
      fc.property(
        fc.array(address, { maxLength: 300 }),
        fc.boolean(),
        fc.array(address),
        (raw, sort, probes) => {
          const ids = sort ? [...new Set(raw)].sort((a, b) => a - b) : raw;
          const index = new IdIndex(Float64Array.from(ids));
          for (const id of [...ids, ...probes, 0, 2 ** 53 - 1])
            expect(index.get(id)).toBe(firstIndexOf(ids, id));
        },
      ),
    );
  });

  it('spreads addresses that differ only in their high word, and dense runs of aligned ones', () => {
    const ids: number[] = [];
    for (let i = 0; i < 5000; i++) ids.push(0x7_0000_0000 + i * 16, (i + 1) * 2 ** 32);
    const shuffled = Float64Array.from(ids);
    const sorted = Float64Array.from(ids).sort();
    for (const [array, list] of [
      [shuffled, ids],
      [sorted, [...sorted]],
    ] as const) {
      const index = new IdIndex(array);
      for (let i = 0; i < list.length; i += 97) expect(index.get(list[i] as number)).toBe(i);
      expect(index.get(0x7_0000_0008)).toBe(-1);
    }
  });
});

describe('BlockColumn', () => {
  it('keeps values across its million-entry blocks and gives them back exact-size, in the kind asked for', () => {
    const column = new BlockColumn(Float64Array);
    const n = (1 << 20) * 2 + 3;
    for (let i = 0; i < n; i++) column.push(i * 3);
    expect(column.length).toBe(n);
    expect(column.get(1 << 20)).toBe((1 << 20) * 3);
    const out = column.toArray(Uint32Array);
    expect(out).toBeInstanceOf(Uint32Array);
    expect(out.length).toBe(n);
    expect([out[0], out[(1 << 20) - 1], out[1 << 20], out[n - 1]]).toEqual([
      0,
      ((1 << 20) - 1) * 3,
      (1 << 20) * 3,
      (n - 1) * 3,
    ]);
    expect(column.length).toBe(0);
  });
});
