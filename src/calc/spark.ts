import {
  SPARK_DEFAULTS,
  SPARK_FAILURES,
  type SparkFailure,
  type SparkFix,
  sparkBudget,
  sparkFix,
} from '../engine/calculators/spark.ts';
import { formatSetting, formatSize } from '../engine/units.ts';
import { sparkChart } from './charts.ts';
import { type FlagValues, read } from './flags.ts';
import type { CalcSystem } from './system.ts';

function row(label: string, bytes: number, note = ''): string {
  return `  ${label.padEnd(18)} ${formatSize(bytes).padStart(9)}${note ? `   ${note}` : ''}`;
}

function settingsFrom(v: FlagValues) {
  const master = read.text(v, 'spark.master') ?? '';
  const app = read.text(v, 'app') ?? 'jvm';
  const offHeapOn = read.bool(v, 'spark.memory.offHeap.enabled');
  return {
    ...SPARK_DEFAULTS,
    executorMemory: read.size(v, 'spark.executor.memory') ?? SPARK_DEFAULTS.executorMemory,
    memoryFraction: read.num(v, 'spark.memory.fraction') ?? SPARK_DEFAULTS.memoryFraction,
    storageFraction: read.num(v, 'spark.memory.storageFraction') ?? SPARK_DEFAULTS.storageFraction,
    executorCores: read.num(v, 'spark.executor.cores') ?? SPARK_DEFAULTS.executorCores,
    offHeapSize: offHeapOn ? (read.size(v, 'spark.memory.offHeap.size') ?? 0) : 0,
    memoryOverhead: read.size(v, 'spark.executor.memoryOverhead'),
    overheadFactor: read.num(v, 'spark.executor.memoryOverheadFactor'),
    nonJvmOnK8s: master.startsWith('k8s://') && app !== 'jvm',
    pysparkMemory: read.size(v, 'spark.executor.pyspark.memory') ?? 0,
  };
}

/** The failure's limit and the smallest change to it, under the model. */
function fixLines(fix: SparkFix, failure: SparkFailure | undefined): string[] {
  const show = (n: number) => (fix.setting === 'spark.executor.cores' ? String(n) : formatSetting(n));
  return [
    '',
    `The ${failure} failure hit the ${fix.limit} (${formatSize(fix.limitBytes)}).`,
    `Smallest change: ${fix.setting} ${show(fix.from)} -> ${show(fix.to)}, because ${fix.why}.`,
  ];
}

/** `memdoctor calc spark`: the executor memory model and, with --failure, the smallest fix. */
export const sparkCalc: CalcSystem = {
  name: 'spark',
  summary: 'Spark executor memory: reserved, user, unified (storage/execution), overhead, container',
  flags: {
    'spark.executor.memory': { kind: 'size', help: 'executor heap (default 1g)' },
    'spark.memory.fraction': { kind: 'fraction', help: 'unified share of heap - 300 MB (default 0.6)' },
    'spark.memory.storageFraction': {
      kind: 'fraction',
      help: 'storage share of unified memory (default 0.5)',
    },
    'spark.executor.cores': { kind: 'int', help: 'concurrent tasks per executor (default 1)' },
    'spark.memory.offHeap.enabled': { kind: 'bool', help: 'count spark.memory.offHeap.size (default false)' },
    'spark.memory.offHeap.size': { kind: 'size', help: 'off-heap memory when enabled' },
    'spark.executor.memoryOverhead': {
      kind: 'size',
      help: 'explicit overhead (default max(384m, factor x heap))',
    },
    'spark.executor.memoryOverheadFactor': {
      kind: 'fraction',
      help: 'overhead factor (default 0.1, 0.4 non-JVM on K8s)',
    },
    'spark.executor.pyspark.memory': { kind: 'size', help: 'memory for Python workers (default unset)' },
    'spark.master': { kind: 'text', help: 'e.g. yarn or k8s://...; k8s with --app python|r uses factor 0.4' },
    app: { kind: 'text', help: 'jvm, python or r (default jvm)', choices: ['jvm', 'python', 'r'] },
    failure: { kind: 'text', help: 'what failed, to get the smallest fix', choices: SPARK_FAILURES },
    observed: { kind: 'size', help: 'memory the failure reported, e.g. 5.5g of a YARN kill message' },
  },
  run(v) {
    const settings = settingsFrom(v);
    const b = sparkBudget(settings);
    const failure = read.text(v, 'failure') as SparkFailure | undefined;
    const observed = read.size(v, 'observed');
    const fix = failure ? sparkFix(settings, failure, observed) : undefined;
    const lines = [
      `Spark executor with spark.executor.memory=${formatSetting(b.heap)}:`,
      row('reserved', b.reserved, 'kept by Spark itself'),
      row('user memory', b.user, `(heap - 300 MB) x (1 - ${settings.memoryFraction})`),
      row('unified memory', b.unified, `(heap - 300 MB) x ${settings.memoryFraction}`),
      row(
        '  storage',
        b.storage,
        `protected for cache, spark.memory.storageFraction=${settings.storageFraction}`,
      ),
      row(
        '  execution',
        b.execution,
        `per task with ${settings.executorCores} core(s): ${formatSize(b.executionPerTask)} at most`,
      ),
      row('off-heap', b.offHeap),
      row(
        'overhead',
        b.overhead,
        settings.memoryOverhead ? 'set explicitly' : `max(384 MB, ${b.overheadFactor} x heap)`,
      ),
      row('PySpark memory', b.pyspark),
      row('container total', b.container, 'what YARN/Kubernetes enforces'),
    ];
    if (fix) lines.push(...fixLines(fix, failure));
    const json = { system: 'spark', settings, budget: b, fix };
    return { text: `${lines.join('\n')}\n`, json, chart: sparkChart(b, fix, fix ? observed : undefined) };
  },
};
