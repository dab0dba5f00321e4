import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ResourceProfile, slotFit } from '../../../src/engine/calculators/flink-slots.ts';
import { MiB } from '../../../src/engine/units.ts';

const profile = (
  cpu: number,
  heapMib: number,
  offHeapMib = 0,
  managedMib = 0,
  networkMib = 0,
): ResourceProfile => ({
  cpuCores: cpu,
  taskHeapMemory: heapMib * MiB,
  taskOffHeapMemory: offHeapMib * MiB,
  managedMemory: managedMib * MiB,
  networkMemory: networkMib * MiB,
});

describe('slotFit', () => {
  // /work/shared/seeds/003 (Flink "Debugging Job Resources"): two pending requests of
  // <0.1 core, 256MB heap, 32MB off-heap ...> with no free native memory left cannot be served.
  it('says the cluster lacks resources when the sum falls short', () => {
    const request = profile(0.1, 256, 32);
    const fit = slotFit(
      [request, request],
      [{ id: 'tm-1', free: profile(1, 1024, 0), total: profile(1, 1024, 64) }],
    );
    expect(fit.verdict).toBe('lacks-resources');
    expect(fit.shortfall.taskOffHeapMemory).toBe(64 * MiB);
    expect(fit.advice).toMatch(/add 1 TaskManager/);
  });

  // Same document, step 5: enough resources in total, but no single TaskManager has room.
  it('says fragmentation when the sum suffices but no TaskManager fits', () => {
    const tms = [
      { id: 'tm-1', free: profile(1, 300) },
      { id: 'tm-2', free: profile(1, 300) },
    ];
    const fit = slotFit([profile(0.5, 512)], tms);
    expect(fit.verdict).toBe('fragmentation');
    expect(fit.unplaced).toEqual([0]);
    expect(fit.advice).toMatch(/taskHeapMemory to 300 MB/);
  });

  it('says fits when every request finds a TaskManager', () => {
    const fit = slotFit([profile(0.5, 256), profile(0.5, 256)], [{ id: 'a', free: profile(1, 600) }]);
    expect(fit).toMatchObject({ verdict: 'fits', unplaced: [] });
  });

  it('never calls a fitting placement fragmentation or a short cluster a fit (property)', () => {
    const arb = fc.record({
      cpu: fc.integer({ min: 1, max: 8 }),
      heap: fc.integer({ min: 1, max: 4096 }),
    });
    fc.assert(
      fc.property(
        fc.array(arb, { minLength: 1, maxLength: 6 }),
        fc.array(arb, { minLength: 1, maxLength: 4 }),
        (reqs, tms) => {
          const fit = slotFit(
            reqs.map((r) => profile(r.cpu, r.heap)),
            tms.map((t, i) => ({ id: `tm-${i}`, free: profile(t.cpu, t.heap) })),
          );
          const needHeap = reqs.reduce((s, r) => s + r.heap, 0);
          const haveHeap = tms.reduce((s, t) => s + t.heap, 0);
          if (needHeap > haveHeap) expect(fit.verdict).toBe('lacks-resources');
          if (fit.verdict === 'fits') expect(fit.unplaced).toEqual([]);
          if (fit.verdict === 'fragmentation') expect(fit.unplaced.length).toBeGreaterThan(0);
        },
      ),
    );
  });
});
