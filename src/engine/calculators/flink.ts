import { CalculationInvalidError } from '../../errors.ts';
import { clamp, formatSize, GiB, MiB } from '../units.ts';

/** TaskManager memory options, named after their `taskmanager.memory.*` keys; sizes in bytes. */
export interface FlinkSettings {
  processSize?: number;
  flinkSize?: number;
  taskHeap?: number;
  managedSize?: number;
  frameworkHeap: number;
  frameworkOffHeap: number;
  taskOffHeap: number;
  managedFraction: number;
  networkMin: number;
  networkMax: number;
  networkFraction: number;
  metaspace: number;
  overheadMin: number;
  overheadMax: number;
  overheadFraction: number;
}

/** taskmanager.memory.network.max since Flink 1.17: MemorySize.MAX_VALUE, i.e. no cap. */
export const UNLIMITED = Number.POSITIVE_INFINITY;

/**
 * Flink's defaults for the TaskManager memory options in current releases (1.17 and later, 2.x
 * included): TaskManagerOptions. `flinkDefaultsFor` gives those of an older release.
 */
export const FLINK_DEFAULTS: FlinkSettings = {
  frameworkHeap: 128 * MiB,
  frameworkOffHeap: 128 * MiB,
  taskOffHeap: 0,
  managedFraction: 0.4,
  networkMin: 64 * MiB,
  networkMax: UNLIMITED,
  networkFraction: 0.1,
  metaspace: 256 * MiB,
  overheadMin: 192 * MiB,
  overheadMax: GiB,
  overheadFraction: 0.1,
};

/** A Flink version as `[major, minor, patch]`, or undefined when the text is not one (`1.17.1`, `2.0`). */
export function parseFlinkVersion(text: string): [number, number, number] | undefined {
  const m = /^\s*(\d{1,2})\.(\d{1,2})(?:\.(\d{1,3}))?/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

function atLeast(v: readonly number[], major: number, minor: number, patch = 0): boolean {
  const [a = 0, b = 0, c = 0] = v;
  return a !== major ? a > major : b !== minor ? b > minor : c >= patch;
}

/**
 * The defaults of one Flink release. The TaskManager memory model (FLIP-49) exists since 1.10;
 * 1.10.0 shipped 96m of metaspace, raised to 256m in 1.10.1 (FLINK-16406, in the 1.10.1 release
 * notes); network.max was 1g until 1.17 made it unlimited (FLINK-30469, 1.17 release notes).
 */
export function flinkDefaultsFor(version?: string): FlinkSettings {
  if (version === undefined || version.trim() === '') return FLINK_DEFAULTS;
  const v = parseFlinkVersion(version);
  if (!v)
    throw new CalculationInvalidError(`"${version}" is not a Flink version; write it as 1.17 or 1.17.1.`);
  if (!atLeast(v, 1, 10))
    throw new CalculationInvalidError(
      `Flink ${version} predates the TaskManager memory model of Flink 1.10 (it sized memory with containerized.heap-cutoff-ratio); this calculator models 1.10 and later.`,
    );
  return {
    ...FLINK_DEFAULTS,
    metaspace: atLeast(v, 1, 10, 1) ? 256 * MiB : 96 * MiB,
    networkMax: atLeast(v, 1, 17) ? UNLIMITED : GiB,
  };
}

/** Every component of a TaskManager process and the JVM flags Flink starts it with. */
export interface FlinkBudget {
  frameworkHeap: number;
  taskHeap: number;
  frameworkOffHeap: number;
  taskOffHeap: number;
  network: number;
  managed: number;
  metaspace: number;
  overhead: number;
  flinkSize: number;
  processSize: number;
  jvm: { xmx: number; xms: number; maxDirectMemorySize: number; maxMetaspaceSize: number };
}

/** Flink reads fractions as 32-bit floats and truncates the product to whole bytes. */
function fraction(bytes: number, f: number): number {
  return Math.floor(bytes * Math.fround(f));
}

/** A capped fraction of a total (e.g. network of total Flink memory), as Flink derives it. */
function capped(total: number, f: number, min: number, max: number): number {
  return clamp(fraction(total, f), min, max);
}

/** The same, when only the rest is known: part = rest x f / (1 - f), then capped. */
function cappedInverse(rest: number, f: number, min: number, max: number): number {
  const ff = Math.fround(f);
  return clamp(Math.floor((rest * ff) / (1 - ff)), min, max);
}

function mb(bytes: number): string {
  return bytes === UNLIMITED ? 'unlimited' : `${formatSize(bytes)} (${bytes} bytes)`;
}

function checkRanges(s: FlinkSettings): void {
  if (s.networkMin > s.networkMax)
    throw new CalculationInvalidError('taskmanager.memory.network.min is larger than network.max.');
  if (s.overheadMin > s.overheadMax)
    throw new CalculationInvalidError('taskmanager.memory.jvm-overhead.min is larger than jvm-overhead.max.');
}

interface FlinkParts {
  taskHeap: number;
  managed: number;
  network: number;
  flinkSize: number;
}

/** Derives the inside of total Flink memory when task heap and managed memory are given. */
function fromExplicitParts(s: FlinkSettings, taskHeap: number, managed: number): FlinkParts {
  const rest = s.frameworkHeap + s.frameworkOffHeap + taskHeap + s.taskOffHeap + managed;
  if (s.flinkSize === undefined) {
    const network = cappedInverse(rest, s.networkFraction, s.networkMin, s.networkMax);
    return { taskHeap, managed, network, flinkSize: rest + network };
  }
  const network = s.flinkSize - rest;
  if (network < s.networkMin || network > s.networkMax) {
    throw new CalculationInvalidError(
      `the configured parts leave ${mb(network)} for network memory, outside network.min/max (${mb(s.networkMin)} .. ${mb(s.networkMax)}).`,
    );
  }
  return { taskHeap, managed, network, flinkSize: s.flinkSize };
}

/** Derives the inside of total Flink memory from its size, as TaskExecutorFlinkMemoryUtils does. */
function fromFlinkSize(s: FlinkSettings, flinkSize: number): FlinkParts {
  const managed = s.managedSize ?? fraction(flinkSize, s.managedFraction);
  const fixed = s.frameworkHeap + s.frameworkOffHeap + s.taskOffHeap + managed;
  if (s.taskHeap !== undefined) return fromExplicitParts({ ...s, flinkSize }, s.taskHeap, managed);
  const network = capped(flinkSize, s.networkFraction, s.networkMin, s.networkMax);
  const taskHeap = flinkSize - fixed - network;
  if (taskHeap < 0) {
    throw new CalculationInvalidError(
      `framework heap/off-heap, task off-heap, managed (${mb(managed)}) and network (${mb(network)}) memory exceed total Flink memory ${mb(flinkSize)}; raise taskmanager.memory.process.size or lower managed memory.`,
    );
  }
  return { taskHeap, managed, network, flinkSize };
}

/**
 * Computes a TaskManager's memory from `taskmanager.memory.process.size`, `.flink.size`, or task heap +
 * managed memory, with Flink's defaults, fractions and min/max caps.
 */
export function flinkBudget(settings: FlinkSettings): FlinkBudget {
  const s = settings;
  checkRanges(s);
  let parts: FlinkParts;
  let overhead: number | undefined;
  if (s.taskHeap !== undefined && s.managedSize !== undefined) {
    parts = fromExplicitParts(s, s.taskHeap, s.managedSize);
  } else if (s.flinkSize !== undefined) {
    parts = fromFlinkSize(s, s.flinkSize);
  } else if (s.processSize !== undefined) {
    overhead = capped(s.processSize, s.overheadFraction, s.overheadMin, s.overheadMax);
    const flinkSize = s.processSize - s.metaspace - overhead;
    if (flinkSize <= 0)
      throw new CalculationInvalidError(
        `taskmanager.memory.process.size ${mb(s.processSize)} does not cover metaspace and JVM overhead.`,
      );
    parts = fromFlinkSize(s, flinkSize);
  } else {
    throw new CalculationInvalidError(
      'give taskmanager.memory.process.size, taskmanager.memory.flink.size, or both taskmanager.memory.task.heap.size and taskmanager.memory.managed.size.',
    );
  }
  overhead ??= overheadFor(s, parts.flinkSize);
  return assemble(s, parts, overhead);
}

function overheadFor(s: FlinkSettings, flinkSize: number): number {
  if (s.processSize === undefined)
    return cappedInverse(flinkSize + s.metaspace, s.overheadFraction, s.overheadMin, s.overheadMax);
  const overhead = s.processSize - flinkSize - s.metaspace;
  if (overhead < s.overheadMin || overhead > s.overheadMax) {
    throw new CalculationInvalidError(
      `process size minus Flink memory and metaspace leaves ${mb(overhead)} of JVM overhead, outside jvm-overhead.min/max.`,
    );
  }
  return overhead;
}

function assemble(s: FlinkSettings, parts: FlinkParts, overhead: number): FlinkBudget {
  const heap = s.frameworkHeap + parts.taskHeap;
  return {
    frameworkHeap: s.frameworkHeap,
    taskHeap: parts.taskHeap,
    frameworkOffHeap: s.frameworkOffHeap,
    taskOffHeap: s.taskOffHeap,
    network: parts.network,
    managed: parts.managed,
    metaspace: s.metaspace,
    overhead,
    flinkSize: parts.flinkSize,
    processSize: parts.flinkSize + s.metaspace + overhead,
    jvm: {
      xmx: heap,
      xms: heap,
      maxDirectMemorySize: s.frameworkOffHeap + s.taskOffHeap + parts.network,
      maxMetaspaceSize: s.metaspace,
    },
  };
}

/**
 * What one slot of a TaskManager offers when its resources are split evenly, as Flink's default slot
 * profile does: task heap, task off-heap, managed and network memory divided by the slot count (whole
 * bytes, rounded down), one CPU core each unless taskmanager.cpu.cores says otherwise.
 */
export function defaultSlotProfile(budget: FlinkBudget, slots: number, cpuCores = slots) {
  if (!(Number.isInteger(slots) && slots > 0))
    throw new CalculationInvalidError('taskmanager.numberOfTaskSlots must be a positive whole number.');
  const per = (bytes: number) => Math.floor(bytes / slots);
  return {
    cpuCores: cpuCores / slots,
    taskHeapMemory: per(budget.taskHeap),
    taskOffHeapMemory: per(budget.taskOffHeap),
    managedMemory: per(budget.managed),
    networkMemory: per(budget.network),
  };
}
