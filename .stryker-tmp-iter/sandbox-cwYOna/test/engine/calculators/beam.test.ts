// @ts-nocheck
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
});
