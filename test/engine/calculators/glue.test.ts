import { describe, expect, it } from 'vitest';
import {
  findWorkerType,
  GLUE_WORKER_TYPES,
  glueTypeFor,
  glueTypeForContainer,
  glueWorkerBudget,
} from '../../../src/engine/calculators/glue.ts';
import { GiB, MiB } from '../../../src/engine/units.ts';

describe('Glue worker types', () => {
  // docs.aws.amazon.com/glue/latest/dg/worker-types.html: vCPU, memory and disk per type.
  it.each([
    ['G.025X', 2, 4],
    ['G.1X', 4, 16],
    ['G.2X', 8, 32],
    ['G.4X', 16, 64],
    ['G.8X', 32, 128],
    ['G.12X', 48, 192],
    ['G.16X', 64, 256],
    ['R.1X', 4, 32],
    ['R.2X', 8, 64],
    ['R.4X', 16, 128],
    ['R.8X', 32, 256],
    ['Z.2X', 8, 64],
    ['Standard', 4, 16],
  ])('%s has %d vCPU and %d GB', (type, vcpu, memoryGB) => {
    expect(findWorkerType(type)).toMatchObject({ vcpu, memoryGB });
  });

  it('lists the types in order of memory', () => {
    const memory = GLUE_WORKER_TYPES.map((w) => w.memoryGB);
    expect(memory).toEqual([...memory].sort((a, b) => a - b));
  });

  // apache/hudi#3431 quotes AWS support: a G.1X executor is configured with 10 GB.
  it('gives a G.1X executor 10 GB of heap, split with Spark defaults', () => {
    const worker = findWorkerType('g.1x');
    if (!worker) throw new Error('G.1X missing');
    const b = glueWorkerBudget(worker);
    expect(b.executorHeap).toBe(10 * GiB);
    expect(b.executorHeapEstimated).toBe(false);
    expect(b.executor.unified).toBeCloseTo((10 * GiB - 300 * 1024 ** 2) * 0.6, 0);
  });

  it('marks estimates and grows the heap with the worker', () => {
    const heaps = GLUE_WORKER_TYPES.filter((w) => w.type.startsWith('G.')).map((w) => glueWorkerBudget(w));
    // G.1X and G.2X are documented; the other G types are estimated.
    expect(heaps.filter((b) => b.executorHeapEstimated).length).toBe(heaps.length - 2);
    for (let i = 1; i < heaps.length; i++)
      expect(heaps[i]?.executorHeap).toBeGreaterThan(heaps[i - 1]?.executorHeap ?? 0);
  });

  // AWS knowledge center "Container killed by YARN for exceeding memory limits" (glue-container-yarn-
  // memory-limit): spark.executor.memory / spark.driver.memory / spark.executor.cores per Glue version.
  it.each([
    ['Standard', '2.0', 5, 4],
    ['Standard', '3.0', 5, 4],
    ['G.1X', '1.0', 10, 8],
    ['G.1X', '2.0', 10, 8],
    ['G.1X', '3.0', 10, 4],
    ['G.2X', '2.0', 20, 16],
    ['G.2X', '4.0', 20, 8],
  ])('%s on Glue %s: %d GB executor and driver heap, %d cores', (type, version, heapGB, cores) => {
    const worker = findWorkerType(type);
    if (!worker) throw new Error(`${type} missing`);
    const b = glueWorkerBudget(worker, version);
    expect(b.executorHeap).toBe(heapGB * GiB);
    expect(b.driverHeap).toBe(heapGB * GiB);
    expect(b.executorCores).toBe(cores);
  });

  // 5g + max(384m, 10%) = 5.5 GB: the "5.5 GB of 5.5 GB physical memory used" of Standard workers.
  it('finds the worker type from the size of a killed executor container', () => {
    expect(glueTypeForContainer(5.5 * GiB)?.type).toBe('Standard');
    expect(glueTypeForContainer(11 * GiB)?.type).toBe('G.1X');
    expect(glueTypeForContainer(22 * GiB)?.type).toBe('G.2X');
    expect(glueTypeForContainer(7 * GiB)).toBeUndefined();
  });

  it('picks the smallest type that holds a needed heap', () => {
    expect(glueTypeFor(14 * GiB).general?.type).toBe('G.2X');
    expect(glueTypeFor(14 * GiB).memoryOptimized?.type).toBe('R.1X');
    expect(glueTypeFor(10_000 * GiB).general).toBeUndefined();
  });

  // AWS's knowledge-center table: Standard 5g with 4 cores, G.2X 20g with 8 cores (Glue 3.0+). G.025X is
  // estimated: 4 GiB x 10/16 = 2.5 GiB, one core per vCPU (2).
  it.each([
    ['Standard', 5 * GiB, 4, false],
    ['G.2X', 20 * GiB, 8, false],
    ['G.025X', 2.5 * GiB, 2, true],
  ])('gives a %s executor %d bytes of heap and %d cores (estimated: %s)', (type, heap, cores, estimated) => {
    const worker = findWorkerType(type);
    if (!worker) throw new Error(`${type} missing`);
    const b = glueWorkerBudget(worker);
    expect([b.executorHeap, b.executorCores, b.driverHeap, b.executorHeapEstimated]).toEqual([
      heap,
      cores,
      heap,
      estimated,
    ]);
    expect(b.executor.heap).toBe(heap);
    expect(b.executor.executionPerTask).toBeCloseTo(((heap - 300 * MiB) * 0.6) / cores, 0);
  });

  // A made-up shape to pin the rounding: 5 GiB / 3 x 0.625 = 1066.7 MiB, down to 16 x 64 MiB = 1024 MiB.
  it('rounds an estimated heap down to a multiple of 64 MiB', () => {
    const odd = { type: 'X', dpu: 1, vcpu: 3, memoryGB: 5, executorsPerWorker: 3, note: '' };
    expect(glueWorkerBudget(odd)).toMatchObject({ executorHeap: 1024 * MiB, executorCores: 3 });
  });

  it('finds a type whatever its case and surrounding spaces', () => {
    expect(findWorkerType('  r.2x ')?.type).toBe('R.2X');
    expect(findWorkerType('G.3X')).toBeUndefined();
  });

  // G.1X holds exactly 10 GiB, R.1X and G.2X 20 GiB (32 GiB x 0.625), G.4X and R.2X 40 GiB.
  it('counts a heap that fits exactly', () => {
    expect(glueTypeFor(10 * GiB)).toEqual({
      general: findWorkerType('G.1X'),
      memoryOptimized: findWorkerType('R.1X'),
    });
    expect(glueTypeFor(10 * GiB + 1).general?.type).toBe('G.2X');
    expect(glueTypeFor(20 * GiB + 1)).toEqual({
      general: findWorkerType('G.4X'),
      memoryOptimized: findWorkerType('R.2X'),
    });
    expect(glueTypeFor(GiB).general?.type).toBe('G.025X');
    // Standard's 5 GiB executors would hold 3 GiB, but it is not a G type: G.1X is the answer.
    expect(glueTypeFor(3 * GiB).general?.type).toBe('G.1X');
  });
});
