import {
  defaultSlotProfile,
  FLINK_DEFAULTS,
  type FlinkSettings,
  flinkBudget,
  flinkDefaultsFor,
  UNLIMITED,
} from '../engine/calculators/flink.ts';
import { formatSetting, formatSize } from '../engine/units.ts';
import { flinkChart } from './charts.ts';
import { type FlagSpecs, type FlagValues, read } from './flags.ts';
import type { CalcSystem } from './system.ts';

const P = 'taskmanager.memory.';

/** Flag key -> FlinkSettings field, for the options that have a default. */
const DEFAULTED: Readonly<Record<string, keyof FlinkSettings>> = {
  [`${P}framework.heap.size`]: 'frameworkHeap',
  [`${P}framework.off-heap.size`]: 'frameworkOffHeap',
  [`${P}task.off-heap.size`]: 'taskOffHeap',
  [`${P}managed.fraction`]: 'managedFraction',
  [`${P}network.min`]: 'networkMin',
  [`${P}network.max`]: 'networkMax',
  [`${P}network.fraction`]: 'networkFraction',
  [`${P}jvm-metaspace.size`]: 'metaspace',
  [`${P}jvm-overhead.min`]: 'overheadMin',
  [`${P}jvm-overhead.max`]: 'overheadMax',
  [`${P}jvm-overhead.fraction`]: 'overheadFraction',
};

const flags: FlagSpecs = {
  [`${P}process.size`]: { kind: 'size', help: 'total process memory (container size)' },
  [`${P}flink.size`]: { kind: 'size', help: 'total Flink memory (process minus metaspace and overhead)' },
  [`${P}task.heap.size`]: { kind: 'size', help: 'task heap (with managed.size, instead of a total)' },
  [`${P}managed.size`]: { kind: 'size', help: 'managed memory (default: managed.fraction x Flink memory)' },
  'flink-version': {
    kind: 'text',
    help: 'the Flink release whose defaults apply (default: current, 1.17 and later)',
  },
  'taskmanager.numberOfTaskSlots': {
    kind: 'int',
    help: 'slots per TaskManager, to show one slot (default 1)',
  },
  ...Object.fromEntries(
    Object.entries(DEFAULTED).map(([key, field]) => {
      const fallback = FLINK_DEFAULTS[field] as number;
      const isFraction = key.endsWith('fraction');
      const shown = isFraction
        ? String(fallback)
        : fallback === UNLIMITED
          ? 'unlimited (1g before Flink 1.17)'
          : formatSetting(fallback);
      return [key, { kind: isFraction ? 'fraction' : 'size', help: `default ${shown}` }];
    }),
  ),
};

function settingsFrom(v: FlagValues): FlinkSettings {
  const settings: FlinkSettings = {
    ...flinkDefaultsFor(read.text(v, 'flink-version')),
    processSize: read.size(v, `${P}process.size`),
    flinkSize: read.size(v, `${P}flink.size`),
    taskHeap: read.size(v, `${P}task.heap.size`),
    managedSize: read.size(v, `${P}managed.size`),
  };
  for (const [key, field] of Object.entries(DEFAULTED)) {
    const value = read.num(v, key);
    if (value !== undefined) (settings[field] as number) = value;
  }
  return settings;
}

function row(label: string, bytes: number, note = ''): string {
  return `  ${label.padEnd(20)} ${formatSize(bytes).padStart(9)}${note ? `   ${note}` : ''}`;
}

/** `memdoctor calc flink`: every TaskManager memory component and the JVM flags Flink derives. */
export const flinkCalc: CalcSystem = {
  name: 'flink',
  summary: 'Flink TaskManager memory components and the JVM flags Flink starts it with',
  flags,
  run(v) {
    const b = flinkBudget(settingsFrom(v));
    const slots = read.num(v, 'taskmanager.numberOfTaskSlots') ?? 1;
    const slot = defaultSlotProfile(b, slots);
    const lines = [
      `Flink TaskManager, total process memory ${formatSetting(b.processSize)}:`,
      row('framework heap', b.frameworkHeap),
      row('task heap', b.taskHeap, 'operators and user code'),
      row('framework off-heap', b.frameworkOffHeap),
      row('task off-heap', b.taskOffHeap),
      row('network', b.network, 'network buffers (direct)'),
      row('managed', b.managed, 'RocksDB, sorting, Python (native)'),
      row('JVM metaspace', b.metaspace),
      row('JVM overhead', b.overhead, 'thread stacks, code cache, GC, glibc arenas'),
      row('total Flink memory', b.flinkSize),
      '',
      `JVM flags: -Xmx${b.jvm.xmx} -Xms${b.jvm.xms} -XX:MaxDirectMemorySize=${b.jvm.maxDirectMemorySize} -XX:MaxMetaspaceSize=${b.jvm.maxMetaspaceSize}`,
      `Each of ${slots} slot(s): task heap ${formatSize(slot.taskHeapMemory)}, managed ${formatSize(slot.managedMemory)}, network ${formatSize(slot.networkMemory)}, task off-heap ${formatSize(slot.taskOffHeapMemory)}.`,
    ];
    return {
      text: `${lines.join('\n')}\n`,
      json: { system: 'flink', budget: b, slot },
      chart: flinkChart(b),
    };
  },
};
