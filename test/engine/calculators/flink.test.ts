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

// Worked with exact fractions; Flink reads 0.1 and 0.4 as floats: fround(0.1) = 13421773 / 2^27,
// fround(0.4) = 13421773 / 2^25.
describe('flinkBudget, every component non-zero (4096m process, 256m task off-heap)', () => {
  const b = flinkBudget(withDefaults({ processSize: 4096 * MiB, taskOffHeap: 256 * MiB }));

  // overhead = floor(2^32 x 13421773 / 2^27) = 429496736 (409.6m, inside 192m..1g);
  // Flink memory = 4294967296 - 268435456 (metaspace) - 429496736 = 3597035104.
  it('takes the overhead off the process size, then metaspace', () => {
    expect(b.overhead).toBe(429_496_736);
    expect(b.flinkSize).toBe(3_597_035_104);
    expect(b.processSize).toBe(4096 * MiB);
  });

  // managed = floor(3597035104 x fround(0.4)) = 1438814063; network = floor(3597035104 x fround(0.1)) =
  // 359703515; task heap = 3597035104 - 128m - 128m - 256m - managed - network = 1261646614.
  it('splits Flink memory into managed, network and task heap', () => {
    expect(b.managed).toBe(1_438_814_063);
    expect(b.network).toBe(359_703_515);
    expect(b.taskOffHeap).toBe(256 * MiB);
    expect(b.taskHeap).toBe(1_261_646_614);
  });

  // -Xmx = -Xms = framework heap + task heap = 134217728 + 1261646614;
  // -XX:MaxDirectMemorySize = framework off-heap + task off-heap + network = 134217728 + 268435456 + 359703515.
  it('starts the JVM with the heap and direct-memory limits Flink sets', () => {
    expect(b.jvm).toEqual({
      xmx: 1_395_864_342,
      xms: 1_395_864_342,
      maxDirectMemorySize: 762_356_699,
      maxMetaspaceSize: 256 * MiB,
    });
  });
});

describe('flinkBudget, explicit sizes', () => {
  // rest = 128m + 128m framework + 1024m task heap + 64m task off-heap + 1024m managed = 2368m = 2483027968;
  // network = floor(rest x f / (1 - f)) = 275892001 with f = fround(0.1); Flink memory = 2758919969;
  // overhead = floor((2758919969 + 256m metaspace) x f / (1 - f)) = 336372830;
  // process = 2758919969 + 268435456 + 336372830 = 3363728255.
  const parts = { taskHeap: GiB, managedSize: GiB, taskOffHeap: 64 * MiB };

  it('derives network and overhead with the inverse fraction', () => {
    const b = flinkBudget(withDefaults(parts));
    expect([b.network, b.flinkSize, b.overhead, b.processSize]).toEqual([
      275_892_001, 2_758_919_969, 336_372_830, 3_363_728_255,
    ]);
  });

  // With a process size as well, the overhead is what is left: 3.5g - 2758919969 - 256m = 730740959.
  it('takes the overhead as the rest of an explicit process size, inside its min/max', () => {
    expect(flinkBudget(withDefaults({ ...parts, processSize: 3.5 * GiB })).overhead).toBe(730_740_959);
    // Exactly the 192m minimum is allowed; a byte less is not.
    const atMin = 2_758_919_969 + 256 * MiB + 192 * MiB;
    expect(flinkBudget(withDefaults({ ...parts, processSize: atMin })).overhead).toBe(192 * MiB);
    expect(() => flinkBudget(withDefaults({ ...parts, processSize: atMin - 1 }))).toThrow(/JVM overhead/);
    // At most 1g: 2758919969 + 256m + 1g is the largest process size.
    const atMax = 2_758_919_969 + 256 * MiB + GiB;
    expect(flinkBudget(withDefaults({ ...parts, processSize: atMax })).overhead).toBe(GiB);
    expect(() => flinkBudget(withDefaults({ ...parts, processSize: atMax + 1 }))).toThrow(/JVM overhead/);
  });

  // flink.size 2048m with task heap 512m: managed = floor(2048m x fround(0.4)) = 858993472,
  // network = 2147483648 - 256m - 512m - 858993472 = 483183808 (460.8m, inside 64m..1g).
  it('gives network what a total Flink size leaves after an explicit task heap', () => {
    const b = flinkBudget(withDefaults({ flinkSize: 2048 * MiB, taskHeap: 512 * MiB }));
    expect([b.managed, b.network, b.taskHeap, b.flinkSize]).toEqual([
      858_993_472,
      483_183_808,
      512 * MiB,
      2048 * MiB,
    ]);
  });

  it('refuses parts that leave network memory outside its min/max, and accepts its edges', () => {
    const base = { flinkSize: 2048 * MiB, managedSize: 1024 * MiB };
    // 2048m - 256m - 1024m managed - task heap = network: 704m task heap leaves exactly 64m.
    expect(flinkBudget(withDefaults({ ...base, taskHeap: 704 * MiB })).network).toBe(64 * MiB);
    expect(() => flinkBudget(withDefaults({ ...base, taskHeap: 704 * MiB + 1 }))).toThrow(/network memory/);
    // 2048m - 256m framework - 0 managed - 768m task heap = 1024m, exactly network.max as it was before
    // Flink 1.17 (1g; since 1.17 it is unlimited).
    const wide = { flinkSize: 2048 * MiB, managedSize: 0, taskHeap: 768 * MiB, networkMax: GiB };
    expect(flinkBudget(withDefaults(wide)).network).toBe(GiB);
    expect(() => flinkBudget(withDefaults({ ...wide, taskHeap: 768 * MiB - 1 }))).toThrow(/network memory/);
  });

  // 1024m of Flink memory, network floor(1024m x fround(0.1)) = 107374184; 1073741824 - 256m - 107374184 =
  // 697932184 of managed memory leaves exactly 0 task heap, which Flink accepts; a byte more it refuses.
  it('accepts a task heap of exactly 0 and refuses a negative one, naming the figures', () => {
    const b = flinkBudget(withDefaults({ flinkSize: 1024 * MiB, managedSize: 697_932_184 }));
    expect([b.taskHeap, b.network]).toEqual([0, 107_374_184]);
    expect(() => flinkBudget(withDefaults({ flinkSize: 1024 * MiB, managedSize: 697_932_185 }))).toThrow(
      /managed \(666 MB \(697932185 bytes\)\) and network \(102 MB \(107374184 bytes\)\) memory exceed total Flink memory 1 GB \(1073741824 bytes\)/,
    );
  });

  // flink.size 1280m with managed 256m: network = floor(1280m x fround(0.1)) = 134217730,
  // task heap = 1342177280 - 256m framework - 256m managed - 134217730 = 671088638.
  it('uses an explicit managed size with a total Flink size', () => {
    const b = flinkBudget(withDefaults({ flinkSize: 1280 * MiB, managedSize: 256 * MiB }));
    expect([b.managed, b.network, b.taskHeap]).toEqual([256 * MiB, 134_217_730, 671_088_638]);
  });

  // 448m - 256m metaspace - 192m minimum overhead = 0 bytes of Flink memory.
  it('refuses a process size that leaves no Flink memory', () => {
    expect(() => flinkBudget(withDefaults({ processSize: 448 * MiB }))).toThrow(/does not cover metaspace/);
    expect(() => flinkBudget(withDefaults({ processSize: 449 * MiB }))).toThrow(/exceed total Flink memory/);
  });

  it('refuses min above max, and allows them equal', () => {
    expect(() => flinkBudget(withDefaults({ flinkSize: GiB, networkMin: 2, networkMax: 1 }))).toThrow(
      /network.min/,
    );
    expect(() => flinkBudget(withDefaults({ processSize: 2 * GiB, overheadMin: 2, overheadMax: 1 }))).toThrow(
      /jvm-overhead.min/,
    );
    const fixed = flinkBudget(
      withDefaults({
        processSize: 2 * GiB,
        overheadMin: 300 * MiB,
        overheadMax: 300 * MiB,
        networkMin: 99 * MiB,
        networkMax: 99 * MiB,
      }),
    );
    expect([fixed.overhead, fixed.network]).toEqual([300 * MiB, 99 * MiB]);
  });
});

describe('defaultSlotProfile', () => {
  // The 4096m budget above over 4 slots with taskmanager.cpu.cores 2: floor of each part / 4.
  it('divides every slot-level part, and the cores, by the slot count', () => {
    const b = flinkBudget(withDefaults({ processSize: 4096 * MiB, taskOffHeap: 256 * MiB }));
    expect(defaultSlotProfile(b, 4, 2)).toEqual({
      cpuCores: 0.5,
      taskHeapMemory: 315_411_653, // floor(1261646614 / 4)
      taskOffHeapMemory: 64 * MiB,
      managedMemory: 359_703_515, // floor(1438814063 / 4)
      networkMemory: 89_925_878, // floor(359703515 / 4)
    });
  });

  it('refuses a fractional slot count', () => {
    const b = flinkBudget(withDefaults({ processSize: 2 * GiB }));
    expect(() => defaultSlotProfile(b, 1.5)).toThrow(/numberOfTaskSlots/);
    expect(defaultSlotProfile(b, 1).cpuCores).toBe(1);
  });

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
