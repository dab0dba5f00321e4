import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PROFILE_DIMENSIONS,
  type ResourceProfile,
  slotFit,
  type TaskManagerResources,
} from '../../../src/engine/calculators/flink-slots.ts';
import { GiB, MiB } from '../../../src/engine/units.ts';

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
});

const tm = (id: string, free: ResourceProfile, total?: ResourceProfile): TaskManagerResources =>
  total ? { id, free, total } : { id, free };

describe('slotFit, worked cases', () => {
  // 3 x 1 GiB into 2 x 1.5 GiB: 3 GiB needed, 3 GiB free, but once the first request takes 1 GiB of a
  // TaskManager its 0.5 GiB left cannot hold another: only two fit.
  it('uses up a TaskManager as requests are placed', () => {
    const fit = slotFit(
      [profile(0, 1024), profile(0, 1024), profile(0, 1024)],
      [tm('a', profile(0, 1536)), tm('b', profile(0, 1536))],
    );
    expect(fit).toMatchObject({ verdict: 'fragmentation', unplaced: [2], shortfall: {} });
    // The request fits a TaskManager's free memory as reported, so there is nothing to shrink.
    expect(fit.advice).toBe(
      'There is enough free in total, but no single TaskManager has room for 1 request(s): add one TaskManager.',
    );
  });

  // need 2 cores / 2 GiB heap, free 1 core / 1.5 GiB: short 1 core and 0.5 GiB (need - have, have > 0).
  // Shape (total) 2 cores, 2 GiB: max(ceil(1 / 2), ceil(0.5 / 2)) = 1 more TaskManager.
  it('reports the shortfall as need minus have, and how many TaskManagers cover it', () => {
    const fit = slotFit([profile(1, 1024), profile(1, 1024)], [tm('a', profile(1, 1536), profile(2, 2048))]);
    expect(fit.verdict).toBe('lacks-resources');
    expect(fit.shortfall).toEqual({ cpuCores: 1, taskHeapMemory: 512 * MiB });
    expect(fit.unplaced).toEqual([1]);
    expect(fit.advice).toBe(
      "The cluster is short of 1 core of cpuCores, 512 MB of taskHeapMemory in total: add 1 TaskManager of the current size, or lower the operators' resource requests by that much.",
    );
  });

  // 3 x (0.5 core, 1 GiB) against 1 core / 512 MiB free of a (1 core, 1 GiB) TaskManager: short 0.5 core
  // (1 more TaskManager) and 2.5 GiB heap (ceil(2.5 / 1) = 3 more): the worse dimension decides.
  it('asks for enough TaskManagers to cover the worst dimension', () => {
    const request = profile(0.5, 1024);
    const fit = slotFit([request, request, request], [tm('a', profile(1, 512), profile(1, 1024))]);
    expect(fit.shortfall).toEqual({ cpuCores: 0.5, taskHeapMemory: 2.5 * GiB });
    expect(fit.advice).toMatch(
      /short of 0.5 cores of cpuCores, 2.5 GB of taskHeapMemory .*: add 3 TaskManagers of/,
    );
  });

  // The TaskManagers have no managed memory at all: more of them cannot cover a managed-memory shortfall.
  // Two 1 GiB-free TaskManagers (2 GiB each): the 1.5 GiB request waits for room, the other needs managed
  // memory; only managed memory is short in total, and no request is larger than a whole TaskManager.
  it('says to give the TaskManagers a resource they lack instead of adding more of them', () => {
    const shape = profile(2, 2048);
    const fit = slotFit(
      [profile(1, 1536), profile(0, 0, 0, 256)],
      [tm('a', profile(1, 1024), shape), tm('b', profile(1, 1024), shape)],
    );
    expect(fit).toMatchObject({ verdict: 'lacks-resources', shortfall: { managedMemory: 256 * MiB } });
    expect(fit.advice).toMatch(/: give the TaskManagers some managedMemory, or lower/);
    // Short of heap as well: more TaskManagers for the heap, and a word about the managed memory.
    const both = slotFit([profile(1, 1536), profile(0, 1024, 0, 256)], [tm('a', profile(1, 1024), shape)]);
    expect(both.advice).toMatch(
      /add 1 TaskManager of the current size \(they have no managedMemory: give the TaskManagers some\)/,
    );
  });

  // No managed and no network memory on the TaskManagers: both are named.
  it('names every resource the TaskManagers lack', () => {
    const shape = profile(2, 2048);
    const fit = slotFit(
      [profile(1, 1536), profile(0, 0, 0, 256, 64)],
      [tm('a', profile(1, 1024), shape), tm('b', profile(1, 1024), shape)],
    );
    expect(fit.advice).toMatch(/: give the TaskManagers some managedMemory, networkMemory, or lower/);
    const withHeap = slotFit(
      [profile(1, 1536), profile(0, 1024, 0, 256, 64)],
      [tm('a', profile(1, 1024), shape)],
    );
    expect(withHeap.advice).toMatch(
      /\(they have no managedMemory, networkMemory: give the TaskManagers some\)/,
    );
  });

  // Neither request fits anywhere: the larger (index 1) is tried first, the list is still by index.
  it('lists the unplaced requests by index', () => {
    const fit = slotFit(
      [profile(0, 600), profile(0, 900)],
      [tm('a', profile(0, 500)), tm('b', profile(0, 1000))],
    );
    expect(fit).toMatchObject({ verdict: 'fragmentation', unplaced: [0] });
    const none = slotFit(
      [profile(0, 600), profile(0, 900)],
      [tm('a', profile(0, 550)), tm('b', profile(0, 550))],
    );
    expect(none.unplaced).toEqual([0, 1]);
  });

  // Request 0 is placed; request 1 (2 cores) fits nowhere: the advice is about request 1.
  it('advises on the first request that found no room', () => {
    const fit = slotFit(
      [profile(1, 100), profile(2, 100)],
      [tm('a', profile(1.5, 400)), tm('b', profile(1.5, 400))],
    );
    expect(fit.unplaced).toEqual([1]);
    expect(fit.advice).toMatch(/lower the request's cpuCores to 1.5 cores so it fits a\.$/);
  });

  it('says only "add TaskManagers" when their size is unknown', () => {
    const fit = slotFit([profile(1, 4096)], [tm('a', profile(1, 1024))]);
    expect(fit.advice).toMatch(/: add TaskManagers, or lower/);
  });

  // Largest first: 2 GiB into a (2 GiB free), 1 GiB into b. Smallest first would put 1 GiB into a and
  // leave the 2 GiB request nowhere. Once with heap, once with managed memory, which also count.
  it.each([
    ['task heap', profile(0, 1024), profile(0, 2048), profile(0, 2048), profile(0, 1024)],
    [
      'managed',
      profile(0, 0, 0, 1024),
      profile(0, 0, 0, 2048),
      profile(0, 0, 0, 2048),
      profile(0, 0, 0, 1024),
    ],
  ])('places the largest request first (%s)', (_, small, large, freeA, freeB) => {
    expect(slotFit([small, large], [tm('a', freeA), tm('b', freeB)]).verdict).toBe('fits');
  });

  // Exact fits and float sums: 0.1 + 0.1 + 0.1 cores is 0.30000000000000004 in floating point.
  it('counts an exact fit as a fit, also for fractional cores', () => {
    expect(slotFit([profile(1, 512, 64, 128, 32)], [tm('a', profile(1, 512, 64, 128, 32))]).verdict).toBe(
      'fits',
    );
    const tenth = profile(0.1, 0);
    const fit = slotFit([tenth, tenth, tenth], [tm('a', profile(0.3, 0))]);
    expect(fit).toEqual({ verdict: 'fits', shortfall: {}, unplaced: [], advice: 'Every request fits.' });
  });

  // 450 MiB fits neither 200 MiB nor 300 MiB; the advice names the roomiest TaskManager and every
  // dimension over it (cores 2 > 1.5, heap 450 MiB > 300 MiB).
  it('names the roomiest TaskManager and each dimension the request must shrink in', () => {
    const fit = slotFit([profile(2, 450)], [tm('tm-1', profile(1.5, 200)), tm('tm-2', profile(1.5, 300))]);
    expect(fit.verdict).toBe('fragmentation');
    expect(fit.advice).toBe(
      "There is enough free in total, but no single TaskManager has room for 1 request(s): add one TaskManager or lower the request's cpuCores to 1.5 cores, taskHeapMemory to 300 MB so it fits tm-2.",
    );
  });
});

/** Brute force: the most requests any assignment to the TaskManagers can hold. */
function mostPlaceable(requests: readonly ResourceProfile[], free: readonly ResourceProfile[]): number {
  const [first, ...rest] = requests;
  if (!first) return 0;
  let best = mostPlaceable(rest, free);
  free.forEach((f, i) => {
    if (!PROFILE_DIMENSIONS.every((d) => first[d] <= f[d])) return;
    const left = free.map((g, j) => (j === i ? { ...g, ...minus(g, first) } : g));
    best = Math.max(best, 1 + mostPlaceable(rest, left));
  });
  return best;
}

function minus(a: ResourceProfile, b: ResourceProfile): ResourceProfile {
  return {
    cpuCores: a.cpuCores - b.cpuCores,
    taskHeapMemory: a.taskHeapMemory - b.taskHeapMemory,
    taskOffHeapMemory: a.taskOffHeapMemory - b.taskOffHeapMemory,
    managedMemory: a.managedMemory - b.managedMemory,
    networkMemory: a.networkMemory - b.networkMemory,
  };
}

/** Per dimension, how much more the requests need than the TaskManagers have free in total. */
function sumShortfall(requests: readonly ResourceProfile[], frees: readonly ResourceProfile[]) {
  const shortfall: Record<string, number> = {};
  for (const d of PROFILE_DIMENSIONS) {
    const need = requests.reduce((s, r) => s + r[d], 0);
    const have = frees.reduce((s, f) => s + f[d], 0);
    if (need > have) shortfall[d] = need - have;
  }
  return shortfall;
}

describe('slotFit against a brute-force oracle (small clusters)', () => {
  // Whole cores and 256 MiB steps keep every sum exact, so the oracle needs no tolerance.
  const arbProfile = fc
    .tuple(
      fc.integer({ min: 0, max: 2 }),
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: 1 }),
      fc.integer({ min: 0, max: 2 }),
      fc.integer({ min: 0, max: 1 }),
    )
    .map(([cpu, heap, off, managed, net]) => profile(cpu, heap * 256, off * 64, managed * 256, net * 64));

  it('reports the exact shortfall, places only what fits together, and never beats the optimum', () => {
    fc.assert(
      fc.property(
        fc.array(arbProfile, { minLength: 1, maxLength: 4 }),
        fc.array(arbProfile, { minLength: 1, maxLength: 3 }),
        (requests, frees) => {
          const fit = slotFit(
            requests,
            frees.map((f, i) => tm(`tm-${i}`, f)),
          );
          const shortfall = sumShortfall(requests, frees);
          expect(fit.shortfall).toEqual(shortfall);
          const placed = requests.filter((_, i) => !fit.unplaced.includes(i));
          // What the calculator placed must fit together, and no placement holds more than the optimum.
          expect(mostPlaceable(placed, frees)).toBe(placed.length);
          expect(placed.length).toBeLessThanOrEqual(mostPlaceable(requests, frees));
          expect(new Set(fit.unplaced).size).toBe(fit.unplaced.length);
          const expected =
            Object.keys(shortfall).length > 0
              ? 'lacks-resources'
              : fit.unplaced.length > 0
                ? 'fragmentation'
                : 'fits';
          expect(fit.verdict).toBe(expected);
          if (mostPlaceable(requests, frees) < requests.length) expect(fit.verdict).not.toBe('fits');
        },
      ),
      { numRuns: 300 },
    );
  });
});
