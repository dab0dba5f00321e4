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
export const GLUE_WORKER_TYPES: readonly GlueWorkerType[] = stryMutAct_9fa48("350") ? [] : (stryCov_9fa48("350"), [stryMutAct_9fa48("351") ? {} : (stryCov_9fa48("351"), {
  type: stryMutAct_9fa48("352") ? "" : (stryCov_9fa48("352"), 'G.025X'),
  dpu: 0.25,
  vcpu: 2,
  memoryGB: 4,
  diskGB: 84,
  executorsPerWorker: 1,
  note: 'low-volume streaming jobs'
}), stryMutAct_9fa48("354") ? {} : (stryCov_9fa48("354"), {
  type: stryMutAct_9fa48("355") ? "" : (stryCov_9fa48("355"), 'Standard'),
  dpu: 1,
  vcpu: 4,
  memoryGB: 16,
  diskGB: 50,
  executorsPerWorker: 2,
  note: 'legacy; two executors share the worker'
}), stryMutAct_9fa48("357") ? {} : (stryCov_9fa48("357"), {
  type: stryMutAct_9fa48("358") ? "" : (stryCov_9fa48("358"), 'G.1X'),
  dpu: 1,
  vcpu: 4,
  memoryGB: 16,
  diskGB: 94,
  executorsPerWorker: 1,
  note: 'general transforms, joins, queries'
}), stryMutAct_9fa48("360") ? {} : (stryCov_9fa48("360"), {
  type: stryMutAct_9fa48("361") ? "" : (stryCov_9fa48("361"), 'G.2X'),
  dpu: 2,
  vcpu: 8,
  memoryGB: 32,
  diskGB: 138,
  executorsPerWorker: 1,
  note: 'general transforms, joins, queries'
}), stryMutAct_9fa48("363") ? {} : (stryCov_9fa48("363"), {
  type: stryMutAct_9fa48("364") ? "" : (stryCov_9fa48("364"), 'R.1X'),
  dpu: 1,
  vcpu: 4,
  memoryGB: 32,
  executorsPerWorker: 1,
  note: 'memory-optimized (M-DPU)'
}), stryMutAct_9fa48("366") ? {} : (stryCov_9fa48("366"), {
  type: stryMutAct_9fa48("367") ? "" : (stryCov_9fa48("367"), 'G.4X'),
  dpu: 4,
  vcpu: 16,
  memoryGB: 64,
  diskGB: 256,
  executorsPerWorker: 1,
  note: 'demanding transforms and joins'
}), stryMutAct_9fa48("369") ? {} : (stryCov_9fa48("369"), {
  type: stryMutAct_9fa48("370") ? "" : (stryCov_9fa48("370"), 'Z.2X'),
  dpu: 2,
  vcpu: 8,
  memoryGB: 64,
  diskGB: 128,
  executorsPerWorker: 1,
  note: 'Ray jobs (M-DPU)'
}), stryMutAct_9fa48("372") ? {} : (stryCov_9fa48("372"), {
  type: stryMutAct_9fa48("373") ? "" : (stryCov_9fa48("373"), 'R.2X'),
  dpu: 2,
  vcpu: 8,
  memoryGB: 64,
  executorsPerWorker: 1,
  note: 'memory-optimized (M-DPU)'
}), stryMutAct_9fa48("375") ? {} : (stryCov_9fa48("375"), {
  type: stryMutAct_9fa48("376") ? "" : (stryCov_9fa48("376"), 'G.8X'),
  dpu: 8,
  vcpu: 32,
  memoryGB: 128,
  diskGB: 512,
  executorsPerWorker: 1,
  note: 'most demanding transforms and joins'
}), stryMutAct_9fa48("378") ? {} : (stryCov_9fa48("378"), {
  type: stryMutAct_9fa48("379") ? "" : (stryCov_9fa48("379"), 'R.4X'),
  dpu: 4,
  vcpu: 16,
  memoryGB: 128,
  executorsPerWorker: 1,
  note: 'memory-optimized (M-DPU)'
}), stryMutAct_9fa48("381") ? {} : (stryCov_9fa48("381"), {
  type: stryMutAct_9fa48("382") ? "" : (stryCov_9fa48("382"), 'G.12X'),
  dpu: 12,
  vcpu: 48,
  memoryGB: 192,
  diskGB: 768,
  executorsPerWorker: 1,
  note: 'very large workloads'
}), stryMutAct_9fa48("384") ? {} : (stryCov_9fa48("384"), {
  type: stryMutAct_9fa48("385") ? "" : (stryCov_9fa48("385"), 'G.16X'),
  dpu: 16,
  vcpu: 64,
  memoryGB: 256,
  diskGB: 1024,
  executorsPerWorker: 1,
  note: 'largest workloads'
}), stryMutAct_9fa48("387") ? {} : (stryCov_9fa48("387"), {
  type: stryMutAct_9fa48("388") ? "" : (stryCov_9fa48("388"), 'R.8X'),
  dpu: 8,
  vcpu: 32,
  memoryGB: 256,
  executorsPerWorker: 1,
  note: 'memory-optimized (M-DPU)'
})]);

/**
 * Heap Glue gives each executor, as a share of the worker's memory. AWS support states a G.1X executor
 * gets 10 GB of its 16 GB (apache/hudi#3431); we apply that ratio to the other types and mark the
 * figure as an estimate there.
 */
const KNOWN_EXECUTOR_HEAP: Readonly<Record<string, number>> = stryMutAct_9fa48("390") ? {} : (stryCov_9fa48("390"), {
  'G.1X': stryMutAct_9fa48("391") ? 10 / GiB : (stryCov_9fa48("391"), 10 * GiB)
});
const HEAP_SHARE = stryMutAct_9fa48("392") ? 10 * 16 : (stryCov_9fa48("392"), 10 / 16);

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
  if (stryMutAct_9fa48("393")) {
    {}
  } else {
    stryCov_9fa48("393");
    return GLUE_WORKER_TYPES.find(stryMutAct_9fa48("394") ? () => undefined : (stryCov_9fa48("394"), w => stryMutAct_9fa48("397") ? w.type.toLowerCase() !== type.trim().toLowerCase() : stryMutAct_9fa48("396") ? false : stryMutAct_9fa48("395") ? true : (stryCov_9fa48("395", "396", "397"), (stryMutAct_9fa48("398") ? w.type.toUpperCase() : (stryCov_9fa48("398"), w.type.toLowerCase())) === (stryMutAct_9fa48("400") ? type.toLowerCase() : stryMutAct_9fa48("399") ? type.trim().toUpperCase() : (stryCov_9fa48("399", "400"), type.trim().toLowerCase())))));
  }
}

/** The Spark executor and driver budgets one Glue worker type yields, with Spark's default fractions. */
export function glueWorkerBudget(worker: GlueWorkerType): GlueWorkerBudget {
  if (stryMutAct_9fa48("401")) {
    {}
  } else {
    stryCov_9fa48("401");
    const known = KNOWN_EXECUTOR_HEAP[worker.type];
    const perExecutor = stryMutAct_9fa48("402") ? worker.memoryGB * GiB * worker.executorsPerWorker : (stryCov_9fa48("402"), (stryMutAct_9fa48("403") ? worker.memoryGB / GiB : (stryCov_9fa48("403"), worker.memoryGB * GiB)) / worker.executorsPerWorker);
    const executorHeap = stryMutAct_9fa48("404") ? known && Math.floor(perExecutor * HEAP_SHARE / (64 * 1024 ** 2)) * 64 * 1024 ** 2 : (stryCov_9fa48("404"), known ?? (stryMutAct_9fa48("405") ? Math.floor(perExecutor * HEAP_SHARE / (64 * 1024 ** 2)) * 64 / 1024 ** 2 : (stryCov_9fa48("405"), (stryMutAct_9fa48("406") ? Math.floor(perExecutor * HEAP_SHARE / (64 * 1024 ** 2)) / 64 : (stryCov_9fa48("406"), Math.floor(stryMutAct_9fa48("407") ? perExecutor * HEAP_SHARE * (64 * 1024 ** 2) : (stryCov_9fa48("407"), (stryMutAct_9fa48("408") ? perExecutor / HEAP_SHARE : (stryCov_9fa48("408"), perExecutor * HEAP_SHARE)) / (stryMutAct_9fa48("409") ? 64 / 1024 ** 2 : (stryCov_9fa48("409"), 64 * 1024 ** 2)))) * 64)) * 1024 ** 2)));
    const executorCores = stryMutAct_9fa48("410") ? worker.vcpu * worker.executorsPerWorker : (stryCov_9fa48("410"), worker.vcpu / worker.executorsPerWorker);
    return stryMutAct_9fa48("411") ? {} : (stryCov_9fa48("411"), {
      worker,
      executorHeap,
      executorHeapEstimated: stryMutAct_9fa48("414") ? known !== undefined : stryMutAct_9fa48("413") ? false : stryMutAct_9fa48("412") ? true : (stryCov_9fa48("412", "413", "414"), known === undefined),
      executorCores,
      executor: sparkBudget(stryMutAct_9fa48("415") ? {} : (stryCov_9fa48("415"), {
        ...SPARK_DEFAULTS,
        executorMemory: executorHeap,
        executorCores
      })),
      driverHeap: executorHeap
    });
  }
}

/**
 * The smallest general-purpose (G) worker type whose executor heap holds `neededHeap` bytes; R types
 * are listed as the memory-optimized alternative with the same vCPUs.
 */
export function glueTypeFor(neededHeap: number): {
  general?: GlueWorkerType;
  memoryOptimized?: GlueWorkerType;
} {
  if (stryMutAct_9fa48("416")) {
    {}
  } else {
    stryCov_9fa48("416");
    const fits = stryMutAct_9fa48("417") ? () => undefined : (stryCov_9fa48("417"), (() => {
      const fits = (w: GlueWorkerType) => stryMutAct_9fa48("421") ? glueWorkerBudget(w).executorHeap < neededHeap : stryMutAct_9fa48("420") ? glueWorkerBudget(w).executorHeap > neededHeap : stryMutAct_9fa48("419") ? false : stryMutAct_9fa48("418") ? true : (stryCov_9fa48("418", "419", "420", "421"), glueWorkerBudget(w).executorHeap >= neededHeap);
      return fits;
    })());
    return stryMutAct_9fa48("422") ? {} : (stryCov_9fa48("422"), {
      general: GLUE_WORKER_TYPES.find(stryMutAct_9fa48("423") ? () => undefined : (stryCov_9fa48("423"), w => stryMutAct_9fa48("426") ? w.type.startsWith('G.') || fits(w) : stryMutAct_9fa48("425") ? false : stryMutAct_9fa48("424") ? true : (stryCov_9fa48("424", "425", "426"), (stryMutAct_9fa48("427") ? w.type.endsWith('G.') : (stryCov_9fa48("427"), w.type.startsWith(stryMutAct_9fa48("428") ? "" : (stryCov_9fa48("428"), 'G.')))) && fits(w)))),
      memoryOptimized: GLUE_WORKER_TYPES.find(stryMutAct_9fa48("429") ? () => undefined : (stryCov_9fa48("429"), w => stryMutAct_9fa48("432") ? w.type.startsWith('R.') || fits(w) : stryMutAct_9fa48("431") ? false : stryMutAct_9fa48("430") ? true : (stryCov_9fa48("430", "431", "432"), (stryMutAct_9fa48("433") ? w.type.endsWith('R.') : (stryCov_9fa48("433"), w.type.startsWith(stryMutAct_9fa48("434") ? "" : (stryCov_9fa48("434"), 'R.')))) && fits(w))))
    });
  }
}