import type { FlinkBudget } from '../engine/calculators/flink.ts';
import type { SparkBudget, SparkFix } from '../engine/calculators/spark.ts';
import type { StackChartData, StackPart } from '../engine/charts/types.ts';
import { formatSize } from '../engine/units.ts';

/**
 * The calculators' memory models as stacked bars: each part of the process in the order the system
 * lays it out, the limit it runs under, and, when a failure reported what was used, that figure
 * beside the model with the part above the limit marked as overflow.
 */

/** What the failure reported, split at the limit: the part within it and the part that overflowed. */
function observedParts(observed: number, limit: number): StackPart[] {
  const over = Math.max(0, observed - limit);
  return [
    { label: 'used, within the limit', bytes: Math.min(observed, limit), measured: true },
    ...(over > 0 ? [{ label: 'over the limit', bytes: over, overflow: true }] : []),
  ];
}

/** The Spark executor's memory model; with --failure and --observed, what was used against the limit hit. */
export function sparkChart(b: SparkBudget, fix?: SparkFix, observed?: number): StackChartData {
  const parts: StackPart[] = [
    { label: 'reserved', bytes: b.reserved },
    { label: 'user memory', bytes: b.user },
    { label: 'storage', bytes: b.storage },
    { label: 'execution', bytes: b.execution },
    { label: 'off-heap', bytes: b.offHeap },
    { label: 'overhead', bytes: b.overhead },
    { label: 'PySpark memory', bytes: b.pyspark },
  ];
  const limitBytes = fix?.limitBytes ?? b.container;
  const limitLabel = fix ? limitName(fix.limit) : 'container limit';
  const stacks = [{ label: 'executor model', parts }];
  if (observed !== undefined)
    stacks.push({ label: 'reported used', parts: observedParts(observed, limitBytes) });
  const over = observed !== undefined ? observed - limitBytes : 0;
  return {
    kind: 'stack',
    id: 'spark-executor',
    title: `Spark executor memory (spark.executor.memory=${formatSize(b.heap)})`,
    stacks,
    limitBytes,
    limitLabel,
    ...(fix
      ? {
          verdict:
            over > 0
              ? `${formatSize(over)} over the ${limitLabel}; smallest change: ${fix.setting}`
              : `the failure hit the ${limitLabel}; smallest change: ${fix.setting}`,
        }
      : {}),
  };
}

/** "container (heap + overhead + ...)" -> "container": the name before the explanation. */
function limitName(limit: string): string {
  const at = limit.indexOf('(');
  return (at < 0 ? limit : limit.slice(0, at)).trimEnd();
}

/** The Flink TaskManager's memory model against its total process memory (the container). */
export function flinkChart(b: FlinkBudget): StackChartData {
  return {
    kind: 'stack',
    id: 'flink-taskmanager',
    title: `Flink TaskManager memory (process size ${formatSize(b.processSize)})`,
    stacks: [
      {
        label: 'TaskManager',
        parts: [
          { label: 'framework heap', bytes: b.frameworkHeap },
          { label: 'task heap', bytes: b.taskHeap },
          { label: 'framework off-heap', bytes: b.frameworkOffHeap },
          { label: 'task off-heap', bytes: b.taskOffHeap },
          { label: 'network', bytes: b.network },
          { label: 'managed', bytes: b.managed },
          { label: 'JVM metaspace', bytes: b.metaspace },
          { label: 'JVM overhead', bytes: b.overhead },
        ],
      },
    ],
    limitBytes: b.processSize,
    limitLabel: 'process size',
  };
}
