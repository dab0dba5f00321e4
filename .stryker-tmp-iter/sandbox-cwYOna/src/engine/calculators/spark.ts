// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import { CalculationInvalidError } from '../../errors.ts';
import { GiB, MiB, roundUp } from '../units.ts';

/** Heap Spark keeps for itself before splitting the rest (RESERVED_SYSTEM_MEMORY_BYTES). */
export const SPARK_RESERVED = stryMutAct_9fa48("435") ? 300 / MiB : (stryCov_9fa48("435"), 300 * MiB);
/** Smallest executor overhead Spark asks for (spark.executor.minMemoryOverhead). */
export const SPARK_MIN_OVERHEAD = stryMutAct_9fa48("436") ? 384 / MiB : (stryCov_9fa48("436"), 384 * MiB);

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
export const SPARK_DEFAULTS: SparkSettings = stryMutAct_9fa48("437") ? {} : (stryCov_9fa48("437"), {
  executorMemory: GiB,
  memoryFraction: 0.6,
  storageFraction: 0.5,
  executorCores: 1,
  offHeapSize: 0,
  nonJvmOnK8s: stryMutAct_9fa48("438") ? true : (stryCov_9fa48("438"), false),
  pysparkMemory: 0
});

/**
 * Splits an executor's memory the way Spark's UnifiedMemoryManager and resource profile do:
 * usable = heap - 300 MB, unified = usable x fraction (storage x storageFraction, execution the rest),
 * user = usable - unified; container = heap + overhead + off-heap + PySpark memory.
 */
export function sparkBudget(settings: SparkSettings): SparkBudget {
  if (stryMutAct_9fa48("439")) {
    {}
  } else {
    stryCov_9fa48("439");
    const s = settings;
    if (stryMutAct_9fa48("443") ? s.executorMemory >= SPARK_RESERVED * 1.5 : stryMutAct_9fa48("442") ? s.executorMemory <= SPARK_RESERVED * 1.5 : stryMutAct_9fa48("441") ? false : stryMutAct_9fa48("440") ? true : (stryCov_9fa48("440", "441", "442", "443"), s.executorMemory < (stryMutAct_9fa48("444") ? SPARK_RESERVED / 1.5 : (stryCov_9fa48("444"), SPARK_RESERVED * 1.5)))) {
      if (stryMutAct_9fa48("445")) {
        {}
      } else {
        stryCov_9fa48("445");
        throw new CalculationInvalidError(`spark.executor.memory must be at least 450m (1.5 x the 300 MB Spark reserves); got ${Math.round(s.executorMemory / MiB)}m.`);
      }
    }
    checkFraction(stryMutAct_9fa48("448") ? "" : (stryCov_9fa48("448"), 'spark.memory.fraction'), s.memoryFraction);
    checkFraction(stryMutAct_9fa48("449") ? "" : (stryCov_9fa48("449"), 'spark.memory.storageFraction'), s.storageFraction);
    const usable = stryMutAct_9fa48("450") ? s.executorMemory + SPARK_RESERVED : (stryCov_9fa48("450"), s.executorMemory - SPARK_RESERVED);
    const unified = stryMutAct_9fa48("451") ? usable / s.memoryFraction : (stryCov_9fa48("451"), usable * s.memoryFraction);
    const storage = stryMutAct_9fa48("452") ? unified / s.storageFraction : (stryCov_9fa48("452"), unified * s.storageFraction);
    const factor = stryMutAct_9fa48("453") ? s.overheadFactor && (s.nonJvmOnK8s ? 0.4 : 0.1) : (stryCov_9fa48("453"), s.overheadFactor ?? (s.nonJvmOnK8s ? 0.4 : 0.1));
    const overhead = stryMutAct_9fa48("454") ? s.memoryOverhead && Math.max(SPARK_MIN_OVERHEAD, Math.floor(factor * s.executorMemory)) : (stryCov_9fa48("454"), s.memoryOverhead ?? (stryMutAct_9fa48("455") ? Math.min(SPARK_MIN_OVERHEAD, Math.floor(factor * s.executorMemory)) : (stryCov_9fa48("455"), Math.max(SPARK_MIN_OVERHEAD, Math.floor(stryMutAct_9fa48("456") ? factor / s.executorMemory : (stryCov_9fa48("456"), factor * s.executorMemory))))));
    return stryMutAct_9fa48("457") ? {} : (stryCov_9fa48("457"), {
      heap: s.executorMemory,
      reserved: SPARK_RESERVED,
      usable,
      user: stryMutAct_9fa48("458") ? usable + unified : (stryCov_9fa48("458"), usable - unified),
      unified,
      storage,
      execution: stryMutAct_9fa48("459") ? unified + storage : (stryCov_9fa48("459"), unified - storage),
      executionPerTask: stryMutAct_9fa48("460") ? unified * Math.max(1, s.executorCores) : (stryCov_9fa48("460"), unified / (stryMutAct_9fa48("461") ? Math.min(1, s.executorCores) : (stryCov_9fa48("461"), Math.max(1, s.executorCores)))),
      offHeap: s.offHeapSize,
      overhead,
      overheadFactor: factor,
      pyspark: s.pysparkMemory,
      container: stryMutAct_9fa48("462") ? s.executorMemory + overhead + s.offHeapSize - s.pysparkMemory : (stryCov_9fa48("462"), (stryMutAct_9fa48("463") ? s.executorMemory + overhead - s.offHeapSize : (stryCov_9fa48("463"), (stryMutAct_9fa48("464") ? s.executorMemory - overhead : (stryCov_9fa48("464"), s.executorMemory + overhead)) + s.offHeapSize)) + s.pysparkMemory)
    });
  }
}
function checkFraction(key: string, value: number): void {
  if (stryMutAct_9fa48("465")) {
    {}
  } else {
    stryCov_9fa48("465");
    if (stryMutAct_9fa48("468") ? false : stryMutAct_9fa48("467") ? true : stryMutAct_9fa48("466") ? value > 0 && value <= 1 : (stryCov_9fa48("466", "467", "468"), !(stryMutAct_9fa48("471") ? value > 0 || value <= 1 : stryMutAct_9fa48("470") ? false : stryMutAct_9fa48("469") ? true : (stryCov_9fa48("469", "470", "471"), (stryMutAct_9fa48("474") ? value <= 0 : stryMutAct_9fa48("473") ? value >= 0 : stryMutAct_9fa48("472") ? true : (stryCov_9fa48("472", "473", "474"), value > 0)) && (stryMutAct_9fa48("477") ? value > 1 : stryMutAct_9fa48("476") ? value < 1 : stryMutAct_9fa48("475") ? true : (stryCov_9fa48("475", "476", "477"), value <= 1)))))) throw new CalculationInvalidError(`${key} must be in (0, 1]; got ${value}.`);
  }
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
const STEP = stryMutAct_9fa48("479") ? 512 / MiB : (stryCov_9fa48("479"), 512 * MiB);

/**
 * The limit a reported failure hit and the smallest change to it. `observed` is what the failure
 * reported, e.g. "5.5 GB of 5.5 GB physical memory used" (bytes used); without it we add one step.
 */
export function sparkFix(settings: SparkSettings, failure: SparkFailure, observed?: number): SparkFix {
  if (stryMutAct_9fa48("480")) {
    {}
  } else {
    stryCov_9fa48("480");
    const budget = sparkBudget(settings);
    if (stryMutAct_9fa48("483") ? failure !== 'container-killed' : stryMutAct_9fa48("482") ? false : stryMutAct_9fa48("481") ? true : (stryCov_9fa48("481", "482", "483"), failure === (stryMutAct_9fa48("484") ? "" : (stryCov_9fa48("484"), 'container-killed')))) {
      if (stryMutAct_9fa48("485")) {
        {}
      } else {
        stryCov_9fa48("485");
        // The container limit counts heap + overhead (+ off-heap + PySpark); the JVM heap did not overflow,
        // so the native part (overhead) is what needs room: add what was exceeded plus 10% headroom.
        const excess = (stryMutAct_9fa48("488") ? observed === undefined : stryMutAct_9fa48("487") ? false : stryMutAct_9fa48("486") ? true : (stryCov_9fa48("486", "487", "488"), observed !== undefined)) ? stryMutAct_9fa48("489") ? Math.min(0, observed - budget.container) : (stryCov_9fa48("489"), Math.max(0, stryMutAct_9fa48("490") ? observed + budget.container : (stryCov_9fa48("490"), observed - budget.container))) : 0;
        const to = roundUp(stryMutAct_9fa48("491") ? budget.overhead + excess - 0.1 * budget.container : (stryCov_9fa48("491"), (stryMutAct_9fa48("492") ? budget.overhead - excess : (stryCov_9fa48("492"), budget.overhead + excess)) + (stryMutAct_9fa48("493") ? 0.1 / budget.container : (stryCov_9fa48("493"), 0.1 * budget.container))), STEP);
        return stryMutAct_9fa48("494") ? {} : (stryCov_9fa48("494"), {
          limit: stryMutAct_9fa48("495") ? "" : (stryCov_9fa48("495"), 'container (heap + overhead + off-heap + PySpark memory)'),
          limitBytes: budget.container,
          setting: stryMutAct_9fa48("496") ? "" : (stryCov_9fa48("496"), 'spark.executor.memoryOverhead'),
          from: budget.overhead,
          to,
          why: 'the process outgrew the container while the heap stayed within -Xmx, so the non-heap part needs room'
        });
      }
    }
    if (stryMutAct_9fa48("500") ? failure === 'spill' || settings.executorCores > 1 : stryMutAct_9fa48("499") ? false : stryMutAct_9fa48("498") ? true : (stryCov_9fa48("498", "499", "500"), (stryMutAct_9fa48("502") ? failure !== 'spill' : stryMutAct_9fa48("501") ? true : (stryCov_9fa48("501", "502"), failure === (stryMutAct_9fa48("503") ? "" : (stryCov_9fa48("503"), 'spill')))) && (stryMutAct_9fa48("506") ? settings.executorCores <= 1 : stryMutAct_9fa48("505") ? settings.executorCores >= 1 : stryMutAct_9fa48("504") ? true : (stryCov_9fa48("504", "505", "506"), settings.executorCores > 1)))) {
      if (stryMutAct_9fa48("507")) {
        {}
      } else {
        stryCov_9fa48("507");
        // Halving concurrent tasks doubles each task's execution share without asking for more memory.
        const cores = stryMutAct_9fa48("508") ? Math.min(1, Math.floor(settings.executorCores / 2)) : (stryCov_9fa48("508"), Math.max(1, Math.floor(stryMutAct_9fa48("509") ? settings.executorCores * 2 : (stryCov_9fa48("509"), settings.executorCores / 2))));
        return stryMutAct_9fa48("510") ? {} : (stryCov_9fa48("510"), {
          limit: stryMutAct_9fa48("511") ? "" : (stryCov_9fa48("511"), 'execution memory per task (unified memory / spark.executor.cores)'),
          limitBytes: budget.executionPerTask,
          setting: stryMutAct_9fa48("512") ? "" : (stryCov_9fa48("512"), 'spark.executor.cores'),
          from: settings.executorCores,
          to: cores,
          why: 'fewer concurrent tasks give each task a larger share of the same execution memory'
        });
      }
    }
    const target = (stryMutAct_9fa48("516") ? observed === undefined : stryMutAct_9fa48("515") ? false : stryMutAct_9fa48("514") ? true : (stryCov_9fa48("514", "515", "516"), observed !== undefined)) ? stryMutAct_9fa48("517") ? observed / 1.2 : (stryCov_9fa48("517"), observed * 1.2) : stryMutAct_9fa48("518") ? budget.heap / 1.25 : (stryCov_9fa48("518"), budget.heap * 1.25);
    return stryMutAct_9fa48("519") ? {} : (stryCov_9fa48("519"), {
      limit: (stryMutAct_9fa48("522") ? failure !== 'spill' : stryMutAct_9fa48("521") ? false : stryMutAct_9fa48("520") ? true : (stryCov_9fa48("520", "521", "522"), failure === (stryMutAct_9fa48("523") ? "" : (stryCov_9fa48("523"), 'spill')))) ? stryMutAct_9fa48("524") ? "" : (stryCov_9fa48("524"), 'execution memory (unified region)') : stryMutAct_9fa48("525") ? "" : (stryCov_9fa48("525"), 'JVM heap (-Xmx = spark.executor.memory)'),
      limitBytes: (stryMutAct_9fa48("528") ? failure !== 'spill' : stryMutAct_9fa48("527") ? false : stryMutAct_9fa48("526") ? true : (stryCov_9fa48("526", "527", "528"), failure === (stryMutAct_9fa48("529") ? "" : (stryCov_9fa48("529"), 'spill')))) ? budget.unified : budget.heap,
      setting: stryMutAct_9fa48("530") ? "" : (stryCov_9fa48("530"), 'spark.executor.memory'),
      from: budget.heap,
      to: roundUp(stryMutAct_9fa48("531") ? Math.min(target, budget.heap + STEP) : (stryCov_9fa48("531"), Math.max(target, stryMutAct_9fa48("532") ? budget.heap - STEP : (stryCov_9fa48("532"), budget.heap + STEP))), STEP),
      why: failure === 'spill' ? 'a larger heap grows the unified region that execution borrows from' : 'the heap itself filled up; more heap (and fewer cores per executor) is the direct lever'
    });
  }
}