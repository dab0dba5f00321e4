import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPARK_DEFAULTS, sparkBudget, sparkFix } from '../../../src/engine/calculators/spark.ts';
import { GiB, MiB } from '../../../src/engine/units.ts';

const gib = (bytes: number) => bytes / GiB;

describe('sparkBudget', () => {
  // /work/shared/seeds/002 (Spark memory tuning lesson): an 8g executor with fraction 0.6 and
  // storageFraction 0.5 has ~3.1g user, ~2.3g execution and ~2.3g storage memory.
  it('splits an 8g executor as the seed document does', () => {
    const b = sparkBudget({ ...SPARK_DEFAULTS, executorMemory: 8 * GiB });
    expect(gib(b.user)).toBeCloseTo(3.08, 2);
    expect(gib(b.execution)).toBeCloseTo(2.31, 2);
    expect(gib(b.storage)).toBeCloseTo(2.31, 2);
    expect(b.reserved).toBe(300 * MiB);
    // Spark docs (configuration, spark.executor.memoryOverhead): max(384 MiB, 0.1 x executor memory).
    expect(b.overhead).toBe(Math.floor(0.1 * 8 * GiB));
    expect(b.container).toBe(8 * GiB + Math.floor(0.1 * 8 * GiB));
  });

  // Spark docs (configuration): the 384 MiB floor applies below 3.75g of heap.
  it('applies the 384 MiB overhead floor to small executors', () => {
    expect(sparkBudget({ ...SPARK_DEFAULTS, executorMemory: 2 * GiB }).overhead).toBe(384 * MiB);
  });

  // Spark docs (spark.executor.memoryOverheadFactor): 0.40 for non-JVM jobs on Kubernetes.
  it('uses a 0.4 factor for non-JVM jobs on Kubernetes', () => {
    const b = sparkBudget({ ...SPARK_DEFAULTS, executorMemory: 4 * GiB, nonJvmOnK8s: true });
    expect(b.overheadFactor).toBe(0.4);
    expect(b.overhead).toBe(Math.floor(0.4 * 4 * GiB));
  });

  it('counts off-heap and PySpark memory in the container', () => {
    const b = sparkBudget({
      ...SPARK_DEFAULTS,
      executorMemory: 3 * GiB,
      offHeapSize: GiB,
      pysparkMemory: GiB,
    });
    expect(b.container).toBe(3 * GiB + 384 * MiB + GiB + GiB);
  });

  it.each([
    [{ executorMemory: 400 * MiB }, /at least 450m/],
    [{ memoryFraction: 1.5 }, /spark.memory.fraction/],
    [{ storageFraction: 0 }, /storageFraction/],
  ])('rejects %o', (override, message) => {
    expect(() => sparkBudget({ ...SPARK_DEFAULTS, ...override })).toThrow(message);
  });

  it('keeps reserved + user + storage + execution equal to the heap (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 450, max: 256 * 1024 }),
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        (heapMib, fraction, storageFraction) => {
          const b = sparkBudget({
            ...SPARK_DEFAULTS,
            executorMemory: heapMib * MiB,
            memoryFraction: fraction,
            storageFraction,
          });
          const parts = b.reserved + b.user + b.storage + b.execution;
          expect(Math.abs(parts - b.heap)).toBeLessThan(1e-3);
          expect(b.overhead).toBeGreaterThanOrEqual(384 * MiB);
        },
      ),
    );
  });

  it('grows every part when the heap grows (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 450, max: 100_000 }), fc.integer({ min: 1, max: 10_000 }), (a, extra) => {
        const small = sparkBudget({ ...SPARK_DEFAULTS, executorMemory: a * MiB });
        const big = sparkBudget({ ...SPARK_DEFAULTS, executorMemory: (a + extra) * MiB });
        expect(big.user).toBeGreaterThan(small.user);
        expect(big.execution).toBeGreaterThan(small.execution);
        expect(big.container).toBeGreaterThan(small.container);
      }),
    );
  });
});

// Every term of the container sum non-zero, worked by hand in MiB (1 GiB = 1024 MiB):
// heap 4096, usable = 4096 - 300 = 3796, unified = 3796 x 0.6 = 2277.6, storage = execution = 1138.8,
// user = 3796 - 2277.6 = 1518.4, per task (4 cores) = 2277.6 / 4 = 569.4;
// overhead = max(384 MiB, floor(0.1 x 4294967296 B)) = 429496729 B;
// container = 4294967296 + 429496729 + 1073741824 (off-heap) + 536870912 (PySpark) = 6335076761 B.
const FULL = {
  ...SPARK_DEFAULTS,
  executorMemory: 4 * GiB,
  executorCores: 4,
  offHeapSize: GiB,
  pysparkMemory: 512 * MiB,
};

describe('sparkBudget, every term non-zero', () => {
  const b = sparkBudget(FULL);

  it('splits the heap as UnifiedMemoryManager does', () => {
    expect(b.heap).toBe(4 * GiB);
    expect(b.usable).toBe(3796 * MiB);
    expect(b.unified).toBeCloseTo(2277.6 * MiB, 0);
    expect(b.storage).toBeCloseTo(1138.8 * MiB, 0);
    expect(b.execution).toBeCloseTo(1138.8 * MiB, 0);
    expect(b.user).toBeCloseTo(1518.4 * MiB, 0);
    expect(b.executionPerTask).toBeCloseTo(569.4 * MiB, 0);
  });

  it('adds heap, overhead, off-heap and PySpark memory into the container', () => {
    expect(b.overheadFactor).toBe(0.1);
    expect(b.overhead).toBe(429_496_729);
    expect(b.offHeap).toBe(GiB);
    expect(b.pyspark).toBe(512 * MiB);
    expect(b.container).toBe(6_335_076_761);
  });

  it('gives one core the whole unified region as its per-task share', () => {
    expect(sparkBudget({ ...FULL, executorCores: 1 }).executionPerTask).toBeCloseTo(2277.6 * MiB, 0);
  });

  it('takes spark.memory.storageFraction as the storage share of unified memory', () => {
    // unified 2277.6 MiB x 0.25 = 569.4 storage, 1708.2 execution.
    const quarter = sparkBudget({ ...FULL, storageFraction: 0.25 });
    expect(quarter.storage).toBeCloseTo(569.4 * MiB, 0);
    expect(quarter.execution).toBeCloseTo(1708.2 * MiB, 0);
  });

  it('uses an explicit overhead or factor instead of the default', () => {
    expect(sparkBudget({ ...FULL, memoryOverhead: 2 * GiB }).overhead).toBe(2 * GiB);
    // floor(0.25 x 4294967296) = 1073741824
    const factor = sparkBudget({ ...FULL, overheadFactor: 0.25 });
    expect([factor.overheadFactor, factor.overhead]).toEqual([0.25, GiB]);
    // An explicit factor wins over the Kubernetes non-JVM default (0.4).
    expect(sparkBudget({ ...FULL, overheadFactor: 0.25, nonJvmOnK8s: true }).overhead).toBe(GiB);
  });

  // Boundaries of the checks: 450m (1.5 x 300m) is the smallest heap, fractions are in (0, 1].
  it('accepts the smallest heap and fractions of exactly 1', () => {
    expect(sparkBudget({ ...SPARK_DEFAULTS, executorMemory: 450 * MiB }).usable).toBe(150 * MiB);
    expect(() => sparkBudget({ ...SPARK_DEFAULTS, executorMemory: 450 * MiB - 1 })).toThrow(/450m/);
    const whole = sparkBudget({ ...FULL, memoryFraction: 1, storageFraction: 1 });
    expect([whole.user, whole.storage, whole.execution]).toEqual([0, 3796 * MiB, 0]);
    expect(() => sparkBudget({ ...FULL, memoryFraction: 0 })).toThrow(/spark.memory.fraction/);
    expect(() => sparkBudget({ ...FULL, storageFraction: 1.01 })).toThrow(/storageFraction/);
    expect(() => sparkBudget({ ...FULL, memoryFraction: Number.NaN })).toThrow(/spark.memory.fraction/);
  });
});

describe('sparkFix', () => {
  // excess = 6.5 GiB observed - 6335076761 container = 6979321856 - 6335076761 = 644245095;
  // to = roundUp(429496729 + 644245095 + 0.1 x 6335076761, 512 MiB) = roundUp(1707249500.1) = 4 x 512 MiB.
  it('gives the overhead what the container overshot plus 10% of it', () => {
    const fix = sparkFix(FULL, 'container-killed', 6.5 * GiB);
    expect(fix.limit).toBe('container (heap + overhead + off-heap + PySpark memory)');
    expect(fix).toMatchObject({
      setting: 'spark.executor.memoryOverhead',
      limitBytes: 6_335_076_761,
      from: 429_496_729,
      to: 2 * GiB,
    });
  });

  // Without an overshoot: roundUp(429496729 + 633507676.1, 512 MiB) = roundUp(1063004405.1) = 2 x 512 MiB.
  it('adds only the headroom when the kill reports no more than the container', () => {
    expect(sparkFix(FULL, 'container-killed').to).toBe(GiB);
    // 5 GiB observed is below the container: the excess is 0, not negative.
    expect(sparkFix(FULL, 'container-killed', 5 * GiB).to).toBe(GiB);
  });

  // 1g heap, no figure: max(1.25 GiB, 1 GiB + 512 MiB) = 1.5 GiB, already a multiple of 512 MiB.
  it('raises a 1g heap by one 512 MiB step', () => {
    const fix = sparkFix({ ...SPARK_DEFAULTS, executorMemory: GiB }, 'heap-oom');
    expect(fix).toMatchObject({
      setting: 'spark.executor.memory',
      from: GiB,
      limitBytes: GiB,
      to: 1536 * MiB,
    });
  });

  // 1100m heap: 1.25 x = 1375m would round to 1536m, but the floor 1100m + 512m = 1612m rounds to 2048m.
  it('keeps at least one step above the heap after rounding', () => {
    expect(sparkFix({ ...SPARK_DEFAULTS, executorMemory: 1100 * MiB }, 'heap-oom').to).toBe(2 * GiB);
  });

  // 8g heap OOM that reported 9 GiB in use: 1.2 x 9 = 10.8 GiB, rounded up to 11 GiB.
  it('sizes the heap from the observed figure with 20% headroom', () => {
    expect(sparkFix({ ...SPARK_DEFAULTS, executorMemory: 8 * GiB }, 'heap-oom', 9 * GiB).to).toBe(11 * GiB);
  });

  // Only spill is fixed with fewer cores; a heap OOM on a 4-core executor still raises the heap (4g x 1.25).
  it('raises the heap for a heap OOM whatever the cores', () => {
    expect(sparkFix(FULL, 'heap-oom')).toMatchObject({ setting: 'spark.executor.memory', to: 5 * GiB });
  });

  it('names the unified region as the limit for spill on a single-core executor', () => {
    const fix = sparkFix({ ...FULL, executorCores: 1 }, 'spill');
    expect(fix.setting).toBe('spark.executor.memory');
    expect(fix.limit).toMatch(/unified/);
    expect(fix.limitBytes).toBeCloseTo(2277.6 * MiB, 0);
    // 4 GiB x 1.25 = 5 GiB
    expect(fix.to).toBe(5 * GiB);
    expect(sparkFix({ ...FULL, executorCores: 1 }, 'heap-oom').limit).toMatch(/JVM heap/);
  });

  it.each([
    [2, 1],
    [3, 1],
    [5, 2],
  ])('halves %d cores to %d for spill, citing the per-task share', (cores, to) => {
    const fix = sparkFix({ ...FULL, executorCores: cores }, 'spill');
    expect(fix).toMatchObject({ setting: 'spark.executor.cores', from: cores, to });
    expect(fix.limit).toBe('execution memory per task (unified memory / spark.executor.cores)');
    expect(fix.limitBytes).toBeCloseTo((2277.6 * MiB) / cores, 0);
  });

  // The classic YARN message "5.5 GB of 5.5 GB physical memory used" for a 5g executor (aws-glue-samples#28).
  it('raises the overhead when the container was killed', () => {
    const settings = { ...SPARK_DEFAULTS, executorMemory: 5 * GiB };
    const fix = sparkFix(settings, 'container-killed', 5.5 * GiB);
    expect(fix.setting).toBe('spark.executor.memoryOverhead');
    expect(fix.from).toBe(sparkBudget(settings).overhead);
    expect(fix.to).toBeGreaterThan(fix.from);
    expect(fix.to % (512 * MiB)).toBe(0);
  });

  it('raises the heap for a heap OOM, by at least one step', () => {
    const fix = sparkFix({ ...SPARK_DEFAULTS, executorMemory: 8 * GiB }, 'heap-oom');
    expect(fix.setting).toBe('spark.executor.memory');
    expect(fix.to).toBe(10 * GiB);
  });

  it('halves the cores for spill when the executor runs several tasks', () => {
    const fix = sparkFix({ ...SPARK_DEFAULTS, executorMemory: 8 * GiB, executorCores: 4 }, 'spill');
    expect(fix).toMatchObject({ setting: 'spark.executor.cores', from: 4, to: 2 });
  });
});
