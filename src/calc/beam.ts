import { beamBudget } from '../engine/calculators/beam.ts';
import { formatSize } from '../engine/units.ts';
import { beamChart } from './charts.ts';
import { read } from './flags.ts';
import type { CalcSystem } from './system.ts';

/** `memdoctor calc beam`: memory per SDK process and per harness thread on a Dataflow worker. */
export const beamCalc: CalcSystem = {
  name: 'beam',
  summary: 'Beam on Dataflow: memory per SDK process and per harness thread for a machine type',
  flags: {
    machine_type: { kind: 'text', help: 'worker machine type, e.g. n1-standard-4 (default n1-standard-1)' },
    number_of_worker_harness_threads: {
      kind: 'int',
      help: 'threads per SDK process (default depends on SDK/mode)',
    },
    experiments: { kind: 'text', help: 'e.g. no_use_multiple_sdk_containers (comma-separated)' },
    streaming: { kind: 'bool', help: 'streaming job (default false)' },
    sdk: { kind: 'text', help: 'python, java or go (default python)', choices: ['python', 'java', 'go'] },
  },
  run(v) {
    const experiments = (read.text(v, 'experiments') ?? '').split(',').map((e) => e.trim());
    const settings = {
      machineType: read.text(v, 'machine_type') ?? 'n1-standard-1',
      sdk: (read.text(v, 'sdk') ?? 'python') as 'python' | 'java' | 'go',
      streaming: read.bool(v, 'streaming'),
      harnessThreads: read.num(v, 'number_of_worker_harness_threads'),
      noMultipleSdkContainers: experiments.includes('no_use_multiple_sdk_containers'),
    };
    const b = beamBudget(settings);
    const text = [
      `${settings.machineType}: ${b.machine.vcpu} vCPU, ${formatSize(b.machine.memoryBytes)}; about ${formatSize(b.operational)} kept for the OS and Dataflow's own processes.`,
      `  ${b.sdkProcesses} SDK process(es) x ${b.threadsPerProcess} harness thread(s).`,
      `  per SDK process: ${formatSize(b.perProcess)} (side inputs, models and other shared objects are held once per process)`,
      `  per harness thread: ${formatSize(b.perThread)} (what one bundle can use when every thread is busy)`,
    ].join('\n');
    return {
      text: `${text}\n`,
      json: { system: 'beam', settings, budget: b },
      chart: beamChart(settings.machineType, b),
    };
  },
};
