import type { BeamBudget } from '../engine/calculators/beam.ts';
import type { FlinkBudget } from '../engine/calculators/flink.ts';
import type { ResourceProfile, SlotFit, TaskManagerResources } from '../engine/calculators/flink-slots.ts';
import type { GlueWorkerBudget } from '../engine/calculators/glue.ts';
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
/** A Spark executor's container, part by part, in the order Spark lays it out. */
function sparkParts(b: SparkBudget): StackPart[] {
  return [
    { label: 'reserved', bytes: b.reserved },
    { label: 'user memory', bytes: b.user },
    { label: 'storage', bytes: b.storage },
    { label: 'execution', bytes: b.execution },
    { label: 'off-heap', bytes: b.offHeap },
    { label: 'overhead', bytes: b.overhead },
    { label: 'PySpark memory', bytes: b.pyspark },
  ];
}

export function sparkChart(b: SparkBudget, fix?: SparkFix, observed?: number): StackChartData {
  const parts = sparkParts(b);
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

/**
 * What each Glue worker type gives one Spark executor, a stack per type. The line is the heap asked
 * for with --needed-heap (the heap parts end where the overhead starts), else, for one type, its
 * executor's container.
 */
export function glueChart(
  budgets: readonly GlueWorkerBudget[],
  neededHeap?: number,
  pick?: string,
): StackChartData {
  const one = budgets.length === 1 ? budgets[0] : undefined;
  const estimated = budgets.some((b) => b.executorHeapEstimated);
  const limit =
    neededHeap !== undefined
      ? { limitBytes: neededHeap, limitLabel: 'executor heap needed' }
      : one
        ? { limitBytes: one.executorContainer, limitLabel: 'executor container' }
        : {};
  const verdict =
    neededHeap === undefined
      ? estimated
        ? 'heaps AWS does not document are estimated as 10/16 of the worker memory'
        : undefined
      : pick
        ? `the smallest type whose executor heap reaches ${formatSize(neededHeap)}: ${pick}`
        : `no Glue worker type gives one executor ${formatSize(neededHeap)} of heap`;
  return {
    kind: 'stack',
    id: 'glue-workers',
    title: `Glue ${one ? `${one.worker.type} worker` : 'worker types'}: one Spark executor's memory (Glue ${budgets[0]?.glueVersion ?? '3.0'})`,
    stacks: budgets.map((b) => ({ label: b.worker.type, parts: sparkParts(b.executor) })),
    ...limit,
    ...(verdict ? { verdict } : {}),
  };
}

/** At most this many equal parts in a row; more would draw as a grey comb. */
const MAX_EQUAL_PARTS = 32;

function equalParts(label: string, count: number, each: number): StackPart[] {
  if (count > MAX_EQUAL_PARTS)
    return [{ label: `${label}s (${count} x ${formatSize(each)})`, bytes: count * each }];
  return Array.from({ length: count }, () => ({ label, bytes: each }));
}

/** A Dataflow worker's memory split into its SDK processes, and one process into its harness threads. */
export function beamChart(machineType: string, b: BeamBudget): StackChartData {
  return {
    kind: 'stack',
    id: 'beam-worker',
    title: `Beam on Dataflow: ${machineType} worker memory per SDK process and harness thread`,
    stacks: [
      {
        label: 'worker',
        parts: [
          { label: 'OS and Dataflow', bytes: b.operational },
          ...equalParts('SDK process', b.sdkProcesses, b.perProcess),
        ],
      },
      { label: 'one SDK process', parts: equalParts('harness thread', b.threadsPerProcess, b.perThread) },
    ],
    limitBytes: b.machine.memoryBytes,
    limitLabel: 'machine memory',
    verdict: `one bundle can count on ${formatSize(b.perThread)} when all ${b.sdkProcesses * b.threadsPerProcess} harness thread(s) are busy`,
  };
}

/** TaskManagers drawn beside the request; the rest (least free heap first) are left out and said. */
const MAX_TASKMANAGERS = 10;

function profileParts(p: ResourceProfile): StackPart[] {
  return [
    { label: 'task heap', bytes: p.taskHeapMemory },
    { label: 'task off-heap', bytes: p.taskOffHeapMemory },
    { label: 'managed', bytes: p.managedMemory },
    { label: 'network', bytes: p.networkMemory },
  ];
}

const DIMENSION_NAMES: Readonly<Record<string, string>> = {
  taskHeapMemory: 'task heap',
  taskOffHeapMemory: 'task off-heap',
  managedMemory: 'managed',
  networkMemory: 'network',
};

/** A YARN container id is long; its tail tells TaskManagers apart. */
const shortId = (id: string) => (id.length > 12 ? `…${id.slice(-9)}` : id);

const memoryOf = (p: ResourceProfile) =>
  p.taskHeapMemory + p.taskOffHeapMemory + p.managedMemory + p.networkMemory;

/** The largest pending slot request against what each TaskManager has free, memory part by part. */
export function flinkSlotsChart(
  requests: readonly ResourceProfile[],
  tms: readonly TaskManagerResources[],
  fit: SlotFit,
): StackChartData {
  const largest = [...requests].sort((a, b) => memoryOf(b) - memoryOf(a))[0];
  const shown = [...tms].sort((a, b) => memoryOf(b.free) - memoryOf(a.free)).slice(0, MAX_TASKMANAGERS);
  const left = tms.length - shown.length;
  const stacks = [
    ...(largest ? [{ label: 'largest request', parts: profileParts(largest) }] : []),
    ...shown.map((tm) => ({ label: `${shortId(tm.id)} free`, parts: profileParts(tm.free) })),
  ];
  const more = left > 0 ? `; ${left} TaskManager(s) with less free not drawn` : '';
  const short = Object.entries(fit.shortfall)
    .filter(([d]) => d !== 'cpuCores')
    .map(([d, bytes]) => `${DIMENSION_NAMES[d] ?? d} by ${formatSize(bytes)}`);
  const shortText = short.length ? `: the TaskManagers together are short of ${short.join(', ')}` : '';
  return {
    kind: 'stack',
    id: 'flink-slots',
    title: `Flink slot fit: ${requests.length} pending request(s) against ${tms.length} TaskManager(s)' free memory`,
    stacks,
    ...(largest ? { limitBytes: memoryOf(largest), limitLabel: 'one request' } : {}),
    verdict: `${fit.verdict.replace('-', ' ')}${shortText}${more}`,
  };
}
