import {
  findWorkerType,
  GLUE_WORKER_TYPES,
  glueTypeFor,
  glueWorkerBudget,
} from '../engine/calculators/glue.ts';
import { formatSize } from '../engine/units.ts';
import { UsageError } from '../errors.ts';
import { glueChart } from './charts.ts';
import { read } from './flags.ts';
import type { CalcSystem } from './system.ts';

function describe(type: string, glueVersion: string): string {
  const worker = findWorkerType(type);
  if (!worker)
    throw new UsageError(
      `unknown Glue worker type "${type}". Known: ${GLUE_WORKER_TYPES.map((w) => w.type).join(', ')}.`,
    );
  const b = glueWorkerBudget(worker, glueVersion);
  const heap = `${formatSize(b.executorHeap)}${b.executorHeapEstimated ? ' (estimated)' : ''}`;
  return [
    `${worker.type}: ${worker.dpu} DPU, ${worker.vcpu} vCPU, ${worker.memoryGB} GB memory, ${worker.diskGB ? `${worker.diskGB} GB disk` : 'disk not documented'} (${worker.note}).`,
    `  ${worker.executorsPerWorker} executor(s) per worker, each with a ${heap} heap and ${b.executorCores} cores:`,
    `  user ${formatSize(b.executor.user)}, storage ${formatSize(b.executor.storage)}, execution ${formatSize(b.executor.execution)} (${formatSize(b.executor.executionPerTask)} per task when all cores run).`,
    `  One executor's container: ${formatSize(b.executorContainer)} (heap plus Spark's default overhead), the size a YARN kill message shows.`,
    `  The driver runs on one such worker: ${formatSize(b.driverHeap)} of heap (spark.driver.memory)${b.executorHeapEstimated ? ', estimated' : ''}.`,
  ].join('\n');
}

/** `memdoctor calc glue`: worker types, what each gives an executor, and which one a heap needs. */
export const glueCalc: CalcSystem = {
  name: 'glue',
  summary: 'AWS Glue worker types and what each gives a Spark executor and the driver',
  flags: {
    'worker-type': { kind: 'text', help: 'one worker type, e.g. G.1X (default: list them all)' },
    'needed-heap': { kind: 'size', help: 'executor heap a job needs; names the smallest type that has it' },
    'glue-version': {
      kind: 'text',
      help: 'Glue version (executor cores doubled on 1.0 and 2.0 for G.1X and G.2X; default 3.0 and later)',
      choices: ['0.9', '1.0', '2.0', '3.0', '4.0', '5.0'],
    },
  },
  run(v) {
    const type = read.text(v, 'worker-type');
    const needed = read.size(v, 'needed-heap');
    const types = type ? [type] : GLUE_WORKER_TYPES.map((w) => w.type);
    const version = read.text(v, 'glue-version') ?? '3.0';
    const parts = types.map((t) => describe(t, version));
    const pick = needed !== undefined ? glueTypeFor(needed) : undefined;
    if (pick && needed !== undefined) {
      parts.push(
        pick.general
          ? `For an executor heap of ${formatSize(needed)}: ${pick.general.type}${pick.memoryOptimized ? `, or memory-optimized ${pick.memoryOptimized.type} with fewer vCPUs` : ''}.`
          : `No Glue worker type gives one executor ${formatSize(needed)} of heap: split the work (more partitions) instead.`,
      );
    }
    const budgets = types.map((t) => {
      const worker = findWorkerType(t);
      return worker ? glueWorkerBudget(worker, version) : undefined;
    });
    const known = budgets.filter((b) => b !== undefined);
    return {
      text: `${parts.join('\n')}\n`,
      json: { system: 'glue', workers: budgets, neededHeap: needed, pick },
      chart: glueChart(known, needed, pick?.general?.type),
    };
  },
};
