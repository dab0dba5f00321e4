import { GiB } from '../units.ts';
import { SPARK_DEFAULTS, type SparkBudget, sparkBudget } from './spark.ts';

/** One Glue worker type as AWS documents it. `diskGB` is undefined where AWS gives no figure. */
export interface GlueWorkerType {
  type: string;
  dpu: number;
  vcpu: number;
  memoryGB: number;
  diskGB?: number;
  executorsPerWorker: number;
  note: string;
}

/**
 * The worker types in the AWS Glue "worker types" page and the Glue API's WorkerType enum
 * (docs.aws.amazon.com/glue/latest/dg/worker-types.html). Ordered by memory.
 */
export const GLUE_WORKER_TYPES: readonly GlueWorkerType[] = [
  {
    type: 'G.025X',
    dpu: 0.25,
    vcpu: 2,
    memoryGB: 4,
    diskGB: 84,
    executorsPerWorker: 1,
    note: 'low-volume streaming jobs',
  },
  {
    type: 'Standard',
    dpu: 1,
    vcpu: 4,
    memoryGB: 16,
    diskGB: 50,
    executorsPerWorker: 2,
    note: 'legacy; two executors share the worker',
  },
  {
    type: 'G.1X',
    dpu: 1,
    vcpu: 4,
    memoryGB: 16,
    diskGB: 94,
    executorsPerWorker: 1,
    note: 'general transforms, joins, queries',
  },
  {
    type: 'G.2X',
    dpu: 2,
    vcpu: 8,
    memoryGB: 32,
    diskGB: 138,
    executorsPerWorker: 1,
    note: 'general transforms, joins, queries',
  },
  { type: 'R.1X', dpu: 1, vcpu: 4, memoryGB: 32, executorsPerWorker: 1, note: 'memory-optimized (M-DPU)' },
  {
    type: 'G.4X',
    dpu: 4,
    vcpu: 16,
    memoryGB: 64,
    diskGB: 256,
    executorsPerWorker: 1,
    note: 'demanding transforms and joins',
  },
  {
    type: 'Z.2X',
    dpu: 2,
    vcpu: 8,
    memoryGB: 64,
    diskGB: 128,
    executorsPerWorker: 1,
    note: 'Ray jobs (M-DPU)',
  },
  { type: 'R.2X', dpu: 2, vcpu: 8, memoryGB: 64, executorsPerWorker: 1, note: 'memory-optimized (M-DPU)' },
  {
    type: 'G.8X',
    dpu: 8,
    vcpu: 32,
    memoryGB: 128,
    diskGB: 512,
    executorsPerWorker: 1,
    note: 'most demanding transforms and joins',
  },
  { type: 'R.4X', dpu: 4, vcpu: 16, memoryGB: 128, executorsPerWorker: 1, note: 'memory-optimized (M-DPU)' },
  {
    type: 'G.12X',
    dpu: 12,
    vcpu: 48,
    memoryGB: 192,
    diskGB: 768,
    executorsPerWorker: 1,
    note: 'very large workloads',
  },
  {
    type: 'G.16X',
    dpu: 16,
    vcpu: 64,
    memoryGB: 256,
    diskGB: 1024,
    executorsPerWorker: 1,
    note: 'largest workloads',
  },
  { type: 'R.8X', dpu: 8, vcpu: 32, memoryGB: 256, executorsPerWorker: 1, note: 'memory-optimized (M-DPU)' },
];

/**
 * Heap Glue gives each executor, as a share of the worker's memory. AWS support states a G.1X executor
 * gets 10 GB of its 16 GB (apache/hudi#3431); we apply that ratio to the other types and mark the
 * figure as an estimate there.
 */
const KNOWN_EXECUTOR_HEAP: Readonly<Record<string, number>> = { 'G.1X': 10 * GiB };
const HEAP_SHARE = 10 / 16;

/** What one worker of a type gives a Spark executor (and the driver, which runs on one such worker). */
export interface GlueWorkerBudget {
  worker: GlueWorkerType;
  executorHeap: number;
  executorHeapEstimated: boolean;
  executorCores: number;
  executor: SparkBudget;
  driverHeap: number;
}

export function findWorkerType(type: string): GlueWorkerType | undefined {
  return GLUE_WORKER_TYPES.find((w) => w.type.toLowerCase() === type.trim().toLowerCase());
}

/** The Spark executor and driver budgets one Glue worker type yields, with Spark's default fractions. */
export function glueWorkerBudget(worker: GlueWorkerType): GlueWorkerBudget {
  const known = KNOWN_EXECUTOR_HEAP[worker.type];
  const perExecutor = (worker.memoryGB * GiB) / worker.executorsPerWorker;
  const executorHeap = known ?? Math.floor((perExecutor * HEAP_SHARE) / (64 * 1024 ** 2)) * 64 * 1024 ** 2;
  const executorCores = worker.vcpu / worker.executorsPerWorker;
  return {
    worker,
    executorHeap,
    executorHeapEstimated: known === undefined,
    executorCores,
    executor: sparkBudget({ ...SPARK_DEFAULTS, executorMemory: executorHeap, executorCores }),
    driverHeap: executorHeap,
  };
}

/**
 * The smallest general-purpose (G) worker type whose executor heap holds `neededHeap` bytes; R types
 * are listed as the memory-optimized alternative with the same vCPUs.
 */
export function glueTypeFor(neededHeap: number): {
  general?: GlueWorkerType;
  memoryOptimized?: GlueWorkerType;
} {
  const fits = (w: GlueWorkerType) => glueWorkerBudget(w).executorHeap >= neededHeap;
  return {
    general: GLUE_WORKER_TYPES.find((w) => w.type.startsWith('G.') && fits(w)),
    memoryOptimized: GLUE_WORKER_TYPES.find((w) => w.type.startsWith('R.') && fits(w)),
  };
}
