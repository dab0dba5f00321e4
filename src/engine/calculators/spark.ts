import { CalculationInvalidError } from '../../errors.ts';
import { GiB, MiB, roundUp } from '../units.ts';

/** Heap Spark keeps for itself before splitting the rest (RESERVED_SYSTEM_MEMORY_BYTES). */
export const SPARK_RESERVED = 300 * MiB;
/** Smallest executor overhead Spark asks for (spark.executor.minMemoryOverhead). */
export const SPARK_MIN_OVERHEAD = 384 * MiB;

/** Executor settings, in Spark's own terms; sizes in bytes. */
export interface SparkSettings {
  /** spark.executor.memory: the JVM heap (-Xmx). */
  executorMemory: number;
  /** spark.memory.fraction: share of (heap - reserved) for execution + storage. */
  memoryFraction: number;
  /** spark.memory.storageFraction: share of unified memory protected for cached blocks. */
  storageFraction: number;
  /** spark.executor.cores: tasks that share the execution memory at once. */
  executorCores: number;
  /** spark.memory.offHeap.size when spark.memory.offHeap.enabled is true, else 0. */
  offHeapSize: number;
  /** spark.executor.memoryOverhead when set explicitly. */
  memoryOverhead?: number;
  /** spark.executor.memoryOverheadFactor; defaults to 0.1, or 0.4 for non-JVM jobs on Kubernetes. */
  overheadFactor?: number;
  /** True for PySpark/R jobs on Kubernetes, where Spark's default factor is 0.4. */
  nonJvmOnK8s: boolean;
  /** spark.executor.pyspark.memory, 0 when unset (Python workers then share the overhead). */
  pysparkMemory: number;
}

/** Where every byte of one executor container goes. */
export interface SparkBudget {
  heap: number;
  reserved: number;
  usable: number;
  user: number;
  unified: number;
  storage: number;
  execution: number;
  /** Execution memory one task can count on when all cores are busy. */
  executionPerTask: number;
  offHeap: number;
  overhead: number;
  overheadFactor: number;
  pyspark: number;
  /** What YARN/Kubernetes grants the container: heap + overhead + off-heap + PySpark memory. */
  container: number;
}

export const SPARK_DEFAULTS: SparkSettings = {
  executorMemory: GiB,
  memoryFraction: 0.6,
  storageFraction: 0.5,
  executorCores: 1,
  offHeapSize: 0,
  nonJvmOnK8s: false,
  pysparkMemory: 0,
};

/**
 * Splits an executor's memory the way Spark's UnifiedMemoryManager and resource profile do:
 * usable = heap - 300 MB, unified = usable x fraction (storage x storageFraction, execution the rest),
 * user = usable - unified; container = heap + overhead + off-heap + PySpark memory.
 */
export function sparkBudget(settings: SparkSettings): SparkBudget {
  const s = settings;
  if (s.executorMemory < SPARK_RESERVED * 1.5) {
    throw new CalculationInvalidError(
      `spark.executor.memory must be at least 450m (1.5 x the 300 MB Spark reserves); got ${Math.round(s.executorMemory / MiB)}m.`,
    );
  }
  checkFraction('spark.memory.fraction', s.memoryFraction);
  checkFraction('spark.memory.storageFraction', s.storageFraction);
  const usable = s.executorMemory - SPARK_RESERVED;
  const unified = usable * s.memoryFraction;
  const storage = unified * s.storageFraction;
  const factor = s.overheadFactor ?? (s.nonJvmOnK8s ? 0.4 : 0.1);
  const overhead = s.memoryOverhead ?? Math.max(SPARK_MIN_OVERHEAD, Math.floor(factor * s.executorMemory));
  return {
    heap: s.executorMemory,
    reserved: SPARK_RESERVED,
    usable,
    user: usable - unified,
    unified,
    storage,
    execution: unified - storage,
    executionPerTask: unified / Math.max(1, s.executorCores),
    offHeap: s.offHeapSize,
    overhead,
    overheadFactor: factor,
    pyspark: s.pysparkMemory,
    container: s.executorMemory + overhead + s.offHeapSize + s.pysparkMemory,
  };
}

function checkFraction(key: string, value: number): void {
  if (!(value > 0 && value <= 1))
    throw new CalculationInvalidError(`${key} must be in (0, 1]; got ${value}.`);
}

/** Failures the Spark calculator can explain. */
export const SPARK_FAILURES = ['heap-oom', 'container-killed', 'spill'] as const;
export type SparkFailure = (typeof SPARK_FAILURES)[number];

/** Which limit a failure hit and the smallest setting change that moves it. */
export interface SparkFix {
  limit: string;
  limitBytes: number;
  setting: string;
  from: number;
  to: number;
  why: string;
}

const STEP = 512 * MiB;

/**
 * The limit a reported failure hit and the smallest change to it. `observed` is what the failure
 * reported, e.g. "5.5 GB of 5.5 GB physical memory used" (bytes used); without it we add one step.
 */
export function sparkFix(settings: SparkSettings, failure: SparkFailure, observed?: number): SparkFix {
  const budget = sparkBudget(settings);
  if (failure === 'container-killed') return overheadFix(budget, observed);
  if (failure === 'spill' && settings.executorCores > 1) {
    // Halving concurrent tasks doubles each task's execution share without asking for more memory.
    const cores = Math.max(1, Math.floor(settings.executorCores / 2));
    return {
      limit: 'execution memory per task (unified memory / spark.executor.cores)',
      limitBytes: budget.executionPerTask,
      setting: 'spark.executor.cores',
      from: settings.executorCores,
      to: cores,
      why: 'fewer concurrent tasks give each task a larger share of the same execution memory',
    };
  }
  return heapFix(budget, failure, observed);
}

function overheadFix(budget: SparkBudget, observed: number | undefined): SparkFix {
  // The container limit counts heap + overhead (+ off-heap + PySpark); the JVM heap did not overflow,
  // so the native part (overhead) is what needs room: add what was exceeded plus 10% headroom.
  const excess = observed !== undefined ? Math.max(0, observed - budget.container) : 0;
  const to = roundUp(budget.overhead + excess + 0.1 * budget.container, STEP);
  return {
    limit: 'container (heap + overhead + off-heap + PySpark memory)',
    limitBytes: budget.container,
    setting: 'spark.executor.memoryOverhead',
    from: budget.overhead,
    to,
    why: 'the process outgrew the container while the heap stayed within -Xmx, so the non-heap part needs room',
  };
}

/** A heap OOM, or a spill with one core: more heap (which also grows the unified region). */
function heapFix(budget: SparkBudget, failure: SparkFailure, observed: number | undefined): SparkFix {
  const target = observed !== undefined ? observed * 1.2 : budget.heap * 1.25;
  return {
    limit:
      failure === 'spill' ? 'execution memory (unified region)' : 'JVM heap (-Xmx = spark.executor.memory)',
    limitBytes: failure === 'spill' ? budget.unified : budget.heap,
    setting: 'spark.executor.memory',
    from: budget.heap,
    to: roundUp(Math.max(target, budget.heap + STEP), STEP),
    why:
      failure === 'spill'
        ? 'a larger heap grows the unified region that execution borrows from'
        : 'the heap itself filled up; more heap (and fewer cores per executor) is the direct lever',
  };
}
