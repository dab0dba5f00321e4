import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { beamBudget, machineType } from '../../../src/engine/calculators/beam.ts';
import { GiB } from '../../../src/engine/units.ts';

describe('beamBudget', () => {
  it.each([
    ['n1-standard-4', 4, 15],
    ['n1-highmem-8', 8, 52],
    ['n2-standard-16', 16, 64],
    ['custom-4-16384', 4, 16],
  ])('sizes %s', (name, vcpu, gib) => {
    expect(machineType(name)).toEqual({ vcpu, memoryBytes: gib * GiB });
  });

  it('rejects an unknown machine type with the families it knows', () => {
    expect(() => machineType('z9-mega-4')).toThrow(/unknown machine type "z9-mega-4".*n1-standard/);
  });

  // /work/shared/seeds/000 (Beam leak investigation): with no_use_multiple_sdk_containers and
  // --number_of_worker_harness_threads=1 the worker runs one SDK process with one thread.
  it('gives the single process and thread the whole worker in the bisection setup', () => {
    const b = beamBudget({
      machineType: 'n1-standard-4',
      sdk: 'python',
      streaming: false,
      harnessThreads: 1,
      noMultipleSdkContainers: true,
    });
    expect(b).toMatchObject({ sdkProcesses: 1, threadsPerProcess: 1 });
    expect(b.perThread).toBe(15 * GiB - GiB);
  });

  it('splits a Python streaming worker into one process per vCPU with 12 threads each', () => {
    const b = beamBudget({
      machineType: 'n1-standard-4',
      sdk: 'python',
      streaming: true,
      noMultipleSdkContainers: false,
    });
    expect(b).toMatchObject({ sdkProcesses: 4, threadsPerProcess: 12 });
    expect(b.perProcess).toBe((14 * GiB) / 4);
  });

  it('accounts for every byte: operational + processes x threads x per-thread (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('n1-standard-2', 'n1-highmem-4', 'n2-standard-8', 'e2-standard-16'),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
        (machine, streaming, single, threads) => {
          const b = beamBudget({
            machineType: machine,
            sdk: 'python',
            streaming,
            noMultipleSdkContainers: single,
            harnessThreads: threads,
          });
          const total = b.operational + b.sdkProcesses * b.threadsPerProcess * b.perThread;
          expect(total).toBeCloseTo(b.machine.memoryBytes, 0);
        },
      ),
    );
  });

  // Dataflow's out-of-memory guide: Java and Go run one SDK process with a thread per vCPU in batch and up
  // to 300 when streaming; Python batch runs one thread per process (4 vCPU / 4 processes).
  it.each([
    ['java', false, 1, 8],
    ['go', true, 1, 300],
    ['java', true, 1, 300],
    ['python', false, 8, 1],
  ] as const)(
    'runs %s (streaming %s) as %d process(es) of %d thread(s) on 8 vCPUs',
    (sdk, streaming, processes, threads) => {
      const b = beamBudget({ machineType: 'n2-standard-8', sdk, streaming, noMultipleSdkContainers: false });
      expect([b.sdkProcesses, b.threadsPerProcess]).toEqual([processes, threads]);
      // n2-standard-8: 8 x 4 GiB = 32 GiB, less 1 GiB operational, split over processes and threads.
      expect(b.perThread).toBe((31 * GiB) / processes / threads);
    },
  );

  // One Python process for 4 vCPUs: round(4 / 1) = 4 threads in batch.
  it('gives a single Python process one thread per vCPU in batch', () => {
    const b = beamBudget({
      machineType: 'e2-highmem-4',
      sdk: 'python',
      streaming: false,
      noMultipleSdkContainers: true,
    });
    expect(b).toMatchObject({ sdkProcesses: 1, threadsPerProcess: 4, perProcess: 31 * GiB });
  });

  it.each([
    ['n2-custom-8-65536', 8, 64 * GiB],
    ['custom-2-3840-ext', 2, 3.75 * GiB],
    [' N1-HIGHCPU-16 ', 16, Math.round(16 * 0.9 * GiB)],
    ['m1-ultramem-40', 40, Math.round(40 * 24.025 * GiB)],
  ])('sizes %j', (name, vcpu, memoryBytes) => {
    expect(machineType(name)).toEqual({ vcpu, memoryBytes });
  });

  it('refuses harness threads that are not a positive whole number', () => {
    const base = {
      machineType: 'n1-standard-4',
      sdk: 'java',
      streaming: false,
      noMultipleSdkContainers: false,
    } as const;
    for (const harnessThreads of [0, -1, 1.5])
      expect(() => beamBudget({ ...base, harnessThreads })).toThrow(/harness_threads/);
    expect(beamBudget({ ...base, harnessThreads: 2 }).threadsPerProcess).toBe(2);
  });

  it('leaves nothing per thread on a worker smaller than the operational reserve', () => {
    const b = beamBudget({
      machineType: 'custom-1-768',
      sdk: 'java',
      streaming: false,
      noMultipleSdkContainers: false,
    });
    expect([b.operational, b.perProcess, b.perThread]).toEqual([GiB, 0, 0]);
  });

  it('knows a predefined family only with its size', () => {
    expect(() => machineType('n1-standard')).toThrow(/unknown machine type/);
    expect(() => machineType('n1-standard-4x')).toThrow(/unknown machine type/);
  });
});
