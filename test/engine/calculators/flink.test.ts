import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defaultSlotProfile,
  FLINK_DEFAULTS,
  flinkBudget,
  flinkDefaultsFor,
} from '../../../src/engine/calculators/flink.ts';
import { GiB, MiB } from '../../../src/engine/units.ts';

const withDefaults = (s: Partial<typeof FLINK_DEFAULTS> & Record<string, number>) => ({
  ...FLINK_DEFAULTS,
  ...s,
});

describe('flinkBudget', () => {
  // apache/flink PR #13547 (REST /taskmanagers/<id> memoryConfiguration of a 1280m-Flink-memory TM):
  // networkMemory 134217730, managedMemory 536870920, taskHeap 402653174. The odd bytes come from
  // Flink reading fractions as floats.
  it('reproduces the figures Flink reports for 1280m of total Flink memory', () => {
    const b = flinkBudget(withDefaults({ flinkSize: 1280 * MiB }));
    expect(b.network).toBe(134217730);
    expect(b.managed).toBe(536870920);
    expect(b.taskHeap).toBe(402653174);
    expect(b.jvm.xmx).toBe(134217728 + 402653174);
    expect(b.jvm.maxDirectMemorySize).toBe(134217728 + 134217730);
    expect(b.jvm.maxMetaspaceSize).toBe(256 * MiB);
  });

  // Flink's default flink-conf.yaml sets process.size 1728m; 10% is below the 192m minimum overhead,
  // so total Flink memory is 1728 - 256 - 192 = 1280m.
  it('derives 1280m of Flink memory from the default 1728m process size', () => {
    const b = flinkBudget(withDefaults({ processSize: 1728 * MiB }));
    expect(b.overhead).toBe(192 * MiB);
    expect(b.flinkSize).toBe(1280 * MiB);
    expect(b.processSize).toBe(1728 * MiB);
  });

  // Flink docs, "Set up Flink's Process Memory" (capped fractionated components): 1000mb of Flink
  // memory with network min 64mb / max 128mb / fraction 0.1 gives 100mb; with min 128mb it gives 128mb.
  it.each([
    [64 * MiB, 128 * MiB, 100 * MiB],
    [128 * MiB, 256 * MiB, 128 * MiB],
  ])('caps network memory (min %d, max %d)', (networkMin, networkMax, expected) => {
    const b = flinkBudget(withDefaults({ flinkSize: 1000 * MiB, networkMin, networkMax }));
    expect(Math.abs(b.network - expected)).toBeLessThanOrEqual(2);
  });

  // Same docs page: 1000mb process memory, overhead min 64mb / max 128mb / fraction 0.1 gives 100mb.
  it('caps the JVM overhead as the docs example does', () => {
    const b = flinkBudget(
      withDefaults({
        processSize: 1000 * MiB,
        overheadMin: 64 * MiB,
        overheadMax: 128 * MiB,
        metaspace: 96 * MiB,
      }),
    );
    expect(Math.abs(b.overhead - 100 * MiB)).toBeLessThanOrEqual(2);
  });

  it('derives network with the inverse fraction from explicit task heap and managed memory', () => {
    const b = flinkBudget(withDefaults({ taskHeap: GiB, managedSize: GiB }));
    const rest = 128 * MiB * 2 + 2 * GiB;
    expect(b.network).toBe(Math.floor((rest * Math.fround(0.1)) / (1 - Math.fround(0.1))));
    expect(b.flinkSize).toBe(rest + b.network);
  });

  // The error from blog.csdn.net/weixin_43979134/article/details/126608917: 1.25gb of Flink memory
  // cannot hold 1024mb of network memory plus the other parts.
  it('refuses parts that exceed total Flink memory', () => {
    expect(() =>
      flinkBudget(withDefaults({ flinkSize: 1280 * MiB, networkMin: GiB, networkMax: GiB })),
    ).toThrow(/exceed total Flink memory/);
  });

  it('asks for a size when none is given', () => {
    expect(() => flinkBudget(FLINK_DEFAULTS)).toThrow(/taskmanager.memory.process.size/);
  });

  it('makes the parts sum to the process size and respects every cap (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1024, max: 128 * 1024 }), (processMib) => {
        const b = flinkBudget(withDefaults({ processSize: processMib * MiB }));
        const parts =
          b.frameworkHeap +
          b.taskHeap +
          b.frameworkOffHeap +
          b.taskOffHeap +
          b.network +
          b.managed +
          b.metaspace +
          b.overhead;
        expect(parts).toBe(processMib * MiB);
        // No cap on network memory since Flink 1.17: 10% of Flink memory, at least 64m.
        expect(b.network).toBe(Math.max(64 * MiB, Math.floor(b.flinkSize * Math.fround(0.1))));
        expect(b.overhead).toBeGreaterThanOrEqual(192 * MiB);
        expect(b.overhead).toBeLessThanOrEqual(GiB);
        expect(b.taskHeap).toBeGreaterThan(0);
      }),
    );
  });

  it('never shrinks task heap or managed memory when the process grows (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1024, max: 64 * 1024 }),
        fc.integer({ min: 1, max: 8192 }),
        (a, extra) => {
          const small = flinkBudget(withDefaults({ processSize: a * MiB }));
          const big = flinkBudget(withDefaults({ processSize: (a + extra) * MiB }));
          expect(big.taskHeap).toBeGreaterThanOrEqual(small.taskHeap);
          expect(big.managed).toBeGreaterThanOrEqual(small.managed);
        },
      ),
    );
  });
});

describe('defaultSlotProfile', () => {
  // A TaskManager with 4 slots splits task heap, managed and network memory four ways (whole bytes).
  it('divides the slot-level resources evenly', () => {
    const b = flinkBudget(withDefaults({ processSize: 4 * GiB }));
    const slot = defaultSlotProfile(b, 4);
    expect(slot.taskHeapMemory).toBe(Math.floor(b.taskHeap / 4));
    expect(slot.managedMemory * 4).toBeLessThanOrEqual(b.managed);
    expect(slot.cpuCores).toBe(1);
  });

  it('refuses zero slots', () => {
    expect(() => defaultSlotProfile(flinkBudget(withDefaults({ processSize: GiB * 2 })), 0)).toThrow(
      /numberOfTaskSlots/,
    );
  });
});

describe('flinkDefaultsFor', () => {
  // Flink 1.10.1 release notes (FLINK-16406) and 1.17 release notes (FLINK-30469).
  it.each([
    ['1.10.0', 96 * MiB, GiB],
    ['1.10.1', 256 * MiB, GiB],
    ['1.16.3', 256 * MiB, GiB],
    ['1.17', 256 * MiB, Number.POSITIVE_INFINITY],
    ['2.0.0', 256 * MiB, Number.POSITIVE_INFINITY],
  ])('Flink %s: metaspace %d, network.max %d', (version, metaspace, networkMax) => {
    const d = flinkDefaultsFor(version);
    expect(d.metaspace).toBe(metaspace);
    expect(d.networkMax).toBe(networkMax);
  });

  it('uses the current defaults without a version, and refuses the model before 1.10', () => {
    expect(flinkDefaultsFor()).toBe(FLINK_DEFAULTS);
    expect(() => flinkDefaultsFor('1.9.1')).toThrow(/predates the TaskManager memory model/);
    expect(() => flinkDefaultsFor('latest')).toThrow(/not a Flink version/);
  });

  // 16g: 10% of Flink memory is 1.48 GB, capped at 1g before 1.17 and not after.
  it('lets network memory grow past 1g from Flink 1.17 on', () => {
    const now = flinkBudget({ ...flinkDefaultsFor('1.17.1'), processSize: 16 * GiB });
    const before = flinkBudget({ ...flinkDefaultsFor('1.16.2'), processSize: 16 * GiB });
    expect(now.network).toBeGreaterThan(GiB);
    expect(before.network).toBe(GiB);
  });
});
