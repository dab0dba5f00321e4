import { CalculationInvalidError } from '../../errors.ts';
import { GiB } from '../units.ts';

/** A Compute Engine machine type's size. */
export interface MachineType {
  vcpu: number;
  memoryBytes: number;
}

/** GiB per vCPU of the predefined families Dataflow workers commonly use. */
const FAMILY_GIB_PER_VCPU: Readonly<Record<string, number>> = {
  'n1-standard': 3.75,
  'n1-highmem': 6.5,
  'n1-highcpu': 0.9,
  'n2-standard': 4,
  'n2-highmem': 8,
  'n2-highcpu': 1,
  'n2d-standard': 4,
  'n2d-highmem': 8,
  'e2-standard': 4,
  'e2-highmem': 8,
  'e2-highcpu': 1,
  'c2-standard': 4,
  'c3-standard': 4,
  'm1-ultramem': 24.025,
};

/**
 * Sizes a machine type: predefined `family-N` (e.g. n1-standard-4) or custom `[family-]custom-CPUS-MEMORY_MB`
 * (e.g. custom-4-16384, n2-custom-8-65536).
 */
export function machineType(name: string): MachineType {
  const custom = /^(?:[a-z0-9]+-)?custom-(\d+)-(\d+)(?:-ext)?$/i.exec(name.trim());
  if (custom) return { vcpu: Number(custom[1]), memoryBytes: Number(custom[2]) * 1024 ** 2 };
  const predefined = /^([a-z0-9]+-[a-z]+)-(\d+)$/i.exec(name.trim());
  const perVcpu = predefined ? FAMILY_GIB_PER_VCPU[predefined[1]?.toLowerCase() ?? ''] : undefined;
  if (!predefined || perVcpu === undefined) {
    throw new CalculationInvalidError(
      `unknown machine type "${name}": use a predefined type (${Object.keys(FAMILY_GIB_PER_VCPU).join(', ')} followed by -N) or custom-CPUS-MEMORY_MB.`,
    );
  }
  const vcpu = Number(predefined[2]);
  return { vcpu, memoryBytes: Math.round(vcpu * perVcpu * GiB) };
}

/** The Dataflow worker setup, in Beam pipeline option names. */
export interface BeamSettings {
  machineType: string;
  sdk: 'python' | 'java' | 'go';
  streaming: boolean;
  /** --number_of_worker_harness_threads, when set. */
  harnessThreads?: number;
  /** --experiments=no_use_multiple_sdk_containers: one SDK process per worker instead of one per vCPU. */
  noMultipleSdkContainers: boolean;
}

/** Memory each SDK process and each harness thread can count on. */
export interface BeamBudget {
  machine: MachineType;
  /** Held back for the OS and Dataflow's own worker processes (the guide puts it at up to 1 GB). */
  operational: number;
  sdkProcesses: number;
  threadsPerProcess: number;
  perProcess: number;
  perThread: number;
}

const OPERATIONAL = GiB;

/**
 * Default harness threads per SDK process, from Dataflow's out-of-memory guide: Python runs 12 threads
 * per process when streaming and one per vCPU-process in batch; Java and Go share one process with
 * one thread per vCPU in batch and up to 300 (Streaming Engine) when streaming.
 */
function defaultThreads(s: BeamSettings, vcpu: number, processes: number): number {
  if (s.sdk === 'python') return s.streaming ? 12 : Math.max(1, Math.round(vcpu / processes));
  return s.streaming ? 300 : vcpu;
}

/** Splits a Dataflow worker's memory across its SDK processes and their harness threads. */
export function beamBudget(s: BeamSettings): BeamBudget {
  const machine = machineType(s.machineType);
  if (s.harnessThreads !== undefined && !(Number.isInteger(s.harnessThreads) && s.harnessThreads > 0))
    throw new CalculationInvalidError('--number_of_worker_harness_threads must be a positive whole number.');
  // Only the Python SDK runs one container per vCPU; the experiment folds them into one.
  const sdkProcesses = s.sdk === 'python' && !s.noMultipleSdkContainers ? machine.vcpu : 1;
  const threadsPerProcess = s.harnessThreads ?? defaultThreads(s, machine.vcpu, sdkProcesses);
  const available = Math.max(0, machine.memoryBytes - OPERATIONAL);
  const perProcess = available / sdkProcesses;
  return {
    machine,
    operational: OPERATIONAL,
    sdkProcesses,
    threadsPerProcess,
    perProcess,
    perThread: perProcess / threadsPerProcess,
  };
}
