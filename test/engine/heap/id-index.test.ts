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

  it('finds every id and no other, in order or not, rows set apart or not, duplicates keeping the first', () => {
    fc.assert(
      fc.property(
        fc.array(address, { maxLength: 600, size: 'max' }),
        fc.constantFrom('as is', 'sorted', 'sorted, some moved to the front'),
        fc.array(fc.nat(400), { maxLength: 6 }),
        fc.array(address),
        (raw, shape, apartRows, probes) => {
          let ids = raw;
          if (shape !== 'as is') ids = [...new Set(raw)].sort((a, b) => a - b);
          const apart = new Set(apartRows);
          // The class objects of a HotSpot dump: a few rows before the others, out of their order.
          if (shape === 'sorted, some moved to the front' && ids.length > 3) {
            ids = [...ids.slice(-3).reverse(), ...ids.slice(0, -3)];
            for (const row of [0, 1, 2]) apart.add(row);
          }
          const index = new IdIndex(Float64Array.from(ids), (row) => apart.has(row));
          for (const id of [...ids, ...probes, 0, 2 ** 53 - 1])
            expect(index.get(id)).toBe(firstIndexOf(ids, id));
        },
      ),
      { numRuns: 300, endOnFailure: true },
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
