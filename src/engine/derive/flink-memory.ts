import { type FlinkBudget, type FlinkSettings, flinkBudget, flinkDefaultsFor } from '../calculators/flink.ts';
import type { FactBook } from '../facts.ts';
import { formatSetting, formatSize, GiB, MiB, roundUp } from '../units.ts';
import { sizeSetting } from './settings.ts';
import type { Derivation } from './types.ts';

const P = 'taskmanager.memory.';
const SIZES: ReadonlyArray<[string, keyof FlinkSettings]> = [
  ['framework.heap.size', 'frameworkHeap'],
  ['framework.off-heap.size', 'frameworkOffHeap'],
  ['task.off-heap.size', 'taskOffHeap'],
  ['network.min', 'networkMin'],
  ['network.max', 'networkMax'],
  ['jvm-metaspace.size', 'metaspace'],
  ['jvm-overhead.min', 'overheadMin'],
  ['jvm-overhead.max', 'overheadMax'],
];
const FRACTIONS: ReadonlyArray<[string, keyof FlinkSettings]> = [
  ['managed.fraction', 'managedFraction'],
  ['network.fraction', 'networkFraction'],
  ['jvm-overhead.fraction', 'overheadFraction'],
];

/** Flink reads a bare number in a memory option as bytes (MemorySize.parse). */
function flinkSize(book: FactBook, key: string): number | undefined {
  return sizeSetting(book, [key], 'b');
}

/**
 * The TaskManager's settings as the input shows them, on top of the defaults of its Flink version.
 * The process size is the configured one, else the limit of the YARN container that was killed:
 * Flink requests containers of exactly taskmanager.memory.process.size.
 */
function settingsOf(book: FactBook, version?: string): FlinkSettings | undefined {
  const s: FlinkSettings = { ...flinkDefaultsFor(version) };
  for (const [key, field] of SIZES) {
    const bytes = flinkSize(book, P + key);
    if (bytes !== undefined) (s[field] as number) = bytes;
  }
  for (const [key, field] of FRACTIONS) {
    const f = Number(book.config(P + key)?.values?.value);
    if (f > 0 && f < 1) (s[field] as number) = f;
  }
  const physicalKill = book
    .find('container.killed-memory')
    .find((f) => f.values?.resource === 'physical' && f.values?.manager === 'yarn');
  const killed = physicalKill?.values?.limitBytes;
  s.processSize = flinkSize(book, `${P}process.size`) ?? (typeof killed === 'number' ? killed : undefined);
  s.flinkSize = flinkSize(book, `${P}flink.size`);
  s.taskHeap = flinkSize(book, `${P}task.heap.size`);
  s.managedSize = flinkSize(book, `${P}managed.size`);
  const sized = s.processSize ?? s.flinkSize ?? (s.taskHeap !== undefined && s.managedSize !== undefined);
  return sized ? s : undefined;
}

/**
 * Settings as a person writes them for a proposal: the process size and the options they chose.
 * A TaskManager's start command carries every part as a -D option Flink derived itself (task heap,
 * managed, network min = max, overhead min = max); those are dropped so the proposal is derived the
 * way Flink will derive it from the changed total.
 */
function userSettings(s: FlinkSettings, now: FlinkBudget, version?: string): FlinkSettings {
  const derivedByFlink = s.taskHeap !== undefined && s.managedSize !== undefined;
  const base = derivedByFlink
    ? { ...flinkDefaultsFor(version), metaspace: s.metaspace, taskOffHeap: s.taskOffHeap }
    : s;
  return {
    ...base,
    processSize: now.processSize,
    flinkSize: undefined,
    taskHeap: undefined,
    managedSize: undefined,
  };
}

/** Settings of the TaskManager memory model before Flink 1.10, which this calculator does not model. */
const OLD_MODEL = ['taskmanager.heap.size', 'taskmanager.heap.mb', 'containerized.heap-cutoff-ratio'];

function tryBudget(s: FlinkSettings): FlinkBudget | undefined {
  try {
    return flinkBudget(s);
  } catch {
    return undefined;
  }
}

/** The parts a person compares, with what they were before where they changed. */
function layout(b: FlinkBudget, before?: FlinkBudget): string {
  const part = (name: string, key: keyof FlinkBudget) => {
    const now = b[key] as number;
    const was = before?.[key] as number | undefined;
    const change = was !== undefined && Math.abs(was - now) >= MiB ? ` (was ${formatSize(was)})` : '';
    return `${name} ${formatSize(now)}${change}`;
  };
  return [
    part('task heap', 'taskHeap'),
    part('managed', 'managed'),
    part('network', 'network'),
    part('JVM overhead', 'overhead'),
    part('metaspace', 'metaspace'),
  ].join(', ');
}

function defaultsNote(version?: string): string {
  return version ? `defaults of Flink ${version}` : 'defaults of Flink 1.17 and later';
}

/**
 * Twice the overhead, at least 64 MiB more, at most a quarter of the process; set as min = max so
 * Flink uses exactly that size and takes it from the other areas.
 */
function overheadProposal(s: FlinkSettings, now: FlinkBudget, note: string): string | undefined {
  if (s.processSize === undefined) return undefined;
  const cap = Math.floor((s.processSize * 0.25) / (64 * MiB)) * 64 * MiB;
  const wanted = Math.min(roundUp(now.overhead * 2, 64 * MiB), cap);
  if (wanted < now.overhead + 64 * MiB) return undefined;
  const next = tryBudget({ ...s, overheadMin: wanted, overheadMax: wanted });
  if (!next) return undefined;
  const size = formatSetting(wanted);
  return `set taskmanager.memory.jvm-overhead.min and .max to ${size} (now ${formatSize(now.overhead)}); within taskmanager.memory.process.size ${formatSetting(s.processSize)} the TaskManager then has ${layout(next, now)} (${note}).`;
}

/** Half again of the process size, in whole GiB, with every area grown by Flink's fractions. */
function heapProposal(s: FlinkSettings, now: FlinkBudget, note: string): string | undefined {
  const process = now.processSize;
  const bigger = roundUp(process * 1.5, GiB);
  const next = tryBudget({ ...s, processSize: bigger, flinkSize: undefined });
  if (!next) return undefined;
  return `raise taskmanager.memory.process.size from ${formatSetting(process)} to ${formatSetting(bigger)} (the container grows with it); the TaskManager then has ${layout(next, now)} (${note}).`;
}

/** Twice the metaspace, with the process grown by the same amount so no other area shrinks. */
function metaspaceProposal(s: FlinkSettings, now: FlinkBudget, note: string): string | undefined {
  const more = now.metaspace;
  const next = tryBudget({
    ...s,
    metaspace: now.metaspace * 2,
    processSize: now.processSize + more,
    flinkSize: undefined,
    overheadMin: now.overhead,
    overheadMax: now.overhead,
  });
  if (!next) return undefined;
  return `raise taskmanager.memory.jvm-metaspace.size from ${formatSetting(now.metaspace)} to ${formatSetting(now.metaspace * 2)} and taskmanager.memory.process.size by the same ${formatSetting(more)}, to ${formatSetting(now.processSize + more)}, so no other area shrinks: ${layout(next, now)} (${note}).`;
}

/**
 * The TaskManager's memory layout from the settings in the input and the proposals a conclusion
 * makes, each computed by the Flink calculator so the figures are those Flink itself will derive.
 */
export const flinkMemory: Derivation = (book): Record<string, string> => {
  const version = book.find('flink.version')[0]?.values?.version;
  const v = typeof version === 'string' ? version : undefined;
  let settings: FlinkSettings | undefined;
  try {
    settings = settingsOf(book, v);
  } catch {
    return {};
  }
  if (OLD_MODEL.some((key) => book.config(key))) return {};
  const now = settings && tryBudget(settings);
  if (!settings || !now) return {};
  const note = defaultsNote(v);
  const values: Record<string, string> = { 'flink.layout': `${layout(now)} (${note})` };
  const user = userSettings(settings, now, v);
  const proposals: Array<[string, string | undefined]> = [
    ['flink.overhead.proposal', overheadProposal(user, now, note)],
    ['flink.heap.proposal', heapProposal(user, now, note)],
    ['flink.metaspace.proposal', metaspaceProposal(user, now, note)],
  ];
  for (const [key, text] of proposals) if (text) values[key] = text;
  return values;
};
