import { GiB, MiB } from '../units.ts';
import { SPARK_DEFAULTS, SPARK_MIN_OVERHEAD, type SparkBudget, sparkBudget } from './spark.ts';

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
 * Spark settings Glue gives a worker type, from the AWS knowledge-center article "Container killed
 * by YARN for exceeding memory limits" (aws.amazon.com/premiumsupport/knowledge-center/
 * glue-container-yarn-memory-limit): spark.executor.memory = spark.driver.memory, and
 * spark.executor.cores, which doubled on Glue 1.0 and 2.0 for G.1X (8) and G.2X (16) and equals
 * the vCPUs from Glue 3.0 on. Types the article leaves out are estimated (see below).
 */
const KNOWN: Readonly<Record<string, { heap: number; cores: { legacy: number; current: number } }>> = {
  Standard: { heap: 5 * GiB, cores: { legacy: 4, current: 4 } },
  'G.1X': { heap: 10 * GiB, cores: { legacy: 8, current: 4 } },
  'G.2X': { heap: 20 * GiB, cores: { legacy: 16, current: 8 } },
};
/** For the other types, the share of a worker's memory that G.1X and G.2X give the executor heap. */
const HEAP_SHARE = 10 / 16;

/** Glue versions whose executors ran twice the vCPUs in cores (the article's "1.0 and 2.0" rows). */
const LEGACY_CORE_VERSIONS = new Set(['0.9', '1.0', '2.0']);

/** What one worker of a type gives a Spark executor (and the driver, which runs on one such worker). */
export interface GlueWorkerBudget {
  worker: GlueWorkerType;
  glueVersion: string;
  executorHeap: number;
  executorHeapEstimated: boolean;
  executorCores: number;
  executor: SparkBudget;
  driverHeap: number;
  /** The YARN container of one executor: heap plus Spark's default overhead, max(384 MB, 10%). */
  executorContainer: number;
}

export function findWorkerType(type: string): GlueWorkerType | undefined {
  return GLUE_WORKER_TYPES.find((w) => w.type.toLowerCase() === type.trim().toLowerCase());
}

/**
 * The Spark executor and driver budgets one Glue worker type yields on a Glue version (default:
 * 3.0 and later), with Spark's default fractions.
 */
export function glueWorkerBudget(worker: GlueWorkerType, glueVersion = '3.0'): GlueWorkerBudget {
  const known = KNOWN[worker.type];
  const perExecutor = (worker.memoryGB * GiB) / worker.executorsPerWorker;
  const executorHeap = known?.heap ?? Math.floor((perExecutor * HEAP_SHARE) / (64 * MiB)) * 64 * MiB;
  const legacy = LEGACY_CORE_VERSIONS.has(glueVersion.trim());
  const executorCores = known ? (legacy ? known.cores.legacy : known.cores.current) : worker.vcpu;
  return {
    worker,
    glueVersion,
    executorHeap,
    executorHeapEstimated: known === undefined,
    executorCores,
    executor: sparkBudget({ ...SPARK_DEFAULTS, executorMemory: executorHeap, executorCores }),
    driverHeap: executorHeap,
    executorContainer: executorHeap + Math.max(SPARK_MIN_OVERHEAD, 0.1 * executorHeap),
  };
}

/**
 * The worker type whose executor container has the size YARN reported when it killed one ("5.5 GB
 * of 5.5 GB physical memory used" is a Standard worker's 5g + 512m), within the rounding of YARN's
 * one-decimal figures. Only types whose heap AWS documents are matched.
 */
export function glueTypeForContainer(limitBytes: number): GlueWorkerType | undefined {
  return GLUE_WORKER_TYPES.filter((w) => KNOWN[w.type]).find((w) => {
    const container = glueWorkerBudget(w).executorContainer;
    return Math.abs(container - limitBytes) <= 0.05 * GiB;
  });
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
