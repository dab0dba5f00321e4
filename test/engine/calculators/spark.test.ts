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

describe('sparkFix', () => {
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
