import { beamVersion } from './beam-version.ts';
import { containerMemory } from './container-memory.ts';
import { dataflowJob } from './dataflow-job.ts';
import { flinkMemory } from './flink-memory.ts';
import { flinkSlots } from './flink-slots.ts';
import { glueWorker } from './glue-worker.ts';
import { heapSize } from './heap-size.ts';
import { jdk } from './jdk.ts';
import { resultSize } from './result-size.ts';
import type { Derivation } from './types.ts';
import { yarnVmem } from './yarn-vmem.ts';

/** Calculations a playbook can name under `derive:`. Adding one: one file, one line here. */
export const DERIVATIONS: Readonly<Record<string, Derivation>> = {
  'container-memory': containerMemory,
  'result-size': resultSize,
  'heap-size': heapSize,
  'flink-slots': flinkSlots,
  'flink-memory': flinkMemory,
  'glue-worker': glueWorker,
  jdk,
  'beam-version': beamVersion,
  'dataflow-job': dataflowJob,
  'yarn-vmem': yarnVmem,
};
