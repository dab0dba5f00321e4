import { z } from 'zod';
import type { FactValue } from '../facts.ts';
import { formatSize } from '../units.ts';
import { output } from './common.ts';
import { JsonBody } from './json-body.ts';
import type { Parser, ParserRun } from './types.ts';

/** An environment answer with its classpath runs to a few hundred KiB; far more is not one. */
const MAX_CHARS = 4 * 1024 * 1024;

// ApplicationEnvironmentInfo of Spark's status API (core/.../status/api/v1/api.scala): every
// property a [key, value] pair of strings, the value as set (`2G`, `4096`), never normalised.
// Spark 3.1+ adds resourceProfiles (ResourceProfileInfo): executorResources by name, amounts as
// ResourceProfile keeps them, memory ones in MiB.
const Profile = z.looseObject({
  id: z.number(),
  executorResources: z.record(z.string(), z.looseObject({ amount: z.number() })).optional(),
});
const Environment = z.looseObject({
  sparkProperties: z.array(z.tuple([z.string(), z.string()])),
  resourceProfiles: z.array(Profile).optional(),
});
type Profile = z.infer<typeof Profile>;

const KiB = 1024;
/** apache/spark common/utils JavaUtils.byteSuffixes: binary units, case-insensitive. */
const SUFFIX: Readonly<Record<string, number>> = {
  b: 1,
  k: KiB,
  kb: KiB,
  m: KiB ** 2,
  mb: KiB ** 2,
  g: KiB ** 3,
  gb: KiB ** 3,
  t: KiB ** 4,
  tb: KiB ** 4,
  p: KiB ** 5,
  pb: KiB ** 5,
};

/**
 * A size setting as JavaUtils.byteStringAs reads it: a whole number (Spark refuses fractions) with
 * an optional suffix; without one, the setting's own unit. A setting read in MiB drops what is
 * below a MiB, as ByteUnit.convertFrom does.
 */
export function sparkBytes(text: string, unit: 'b' | 'm'): number | undefined {
  const m = /^([0-9]+)([a-z]+)?$/.exec(text.trim().toLowerCase());
  if (!m) return undefined;
  const factor = SUFFIX[m[2] ?? unit];
  if (factor === undefined) return undefined;
  const bytes = Number(m[1]) * factor;
  return unit === 'm' ? Math.floor(bytes / KiB ** 2) * KiB ** 2 : bytes;
}

/**
 * The settings read, each with its unit when none is given (apache/spark core
 * internal/config/package.scala): spark.executor.memory, .memoryOverhead, .pyspark.memory and
 * spark.driver.memory are `bytesConf(ByteUnit.MiB)`; spark.memory.offHeap.size `bytesConf(ByteUnit.BYTE)`.
 * Each name lists its deprecated alternative after it (`withAlternative`).
 */
const SIZES: readonly [value: string, unit: 'b' | 'm', keys: readonly string[]][] = [
  ['executorMemoryBytes', 'm', ['spark.executor.memory']],
  [
    'executorMemoryOverheadBytes',
    'm',
    ['spark.executor.memoryOverhead', 'spark.yarn.executor.memoryOverhead'],
  ],
  ['pysparkMemoryBytes', 'm', ['spark.executor.pyspark.memory']],
  ['offHeapSizeBytes', 'b', ['spark.memory.offHeap.size']],
  ['driverMemoryBytes', 'm', ['spark.driver.memory']],
];

type Values = Record<string, FactValue>;

/**
 * The executor resources of ResourceProfile (core/.../resource/ResourceProfile.scala: CORES, MEMORY,
 * OVERHEAD_MEM, PYSPARK_MEM, OFFHEAP_MEM) and the value each stands for; memory amounts are MiB.
 */
const PROFILE_RESOURCES: readonly [resource: string, value: string, factor: number][] = [
  ['cores', 'executorCores', 1],
  ['memory', 'executorMemoryBytes', KiB ** 2],
  ['memoryOverhead', 'executorMemoryOverheadBytes', KiB ** 2],
  ['pyspark.memory', 'pysparkMemoryBytes', KiB ** 2],
  ['offHeap', 'offHeapSizeBytes', KiB ** 2],
];
/** ResourceProfile.DEFAULT_RESOURCE_PROFILE_ID: the profile Spark builds from the settings, defaults included. */
const DEFAULT_PROFILE = 0;

/**
 * What the default resource profile adds: the figures the settings leave out, as Spark applied them
 * (spark.executor.memory's default 1g shows as 1024 there), and how many profiles stage-level
 * scheduling added. A setting given in sparkProperties wins: it is what the person typed.
 */
function profileValues(values: Values, profiles: readonly Profile[]): void {
  if (profiles.length === 0) return;
  values.resourceProfiles = profiles.length;
  const resources = profiles.find((p) => p.id === DEFAULT_PROFILE)?.executorResources ?? {};
  const filled: string[] = [];
  for (const [resource, value, factor] of PROFILE_RESOURCES) {
    const amount = resources[resource]?.amount;
    if (amount === undefined || value in values) continue;
    values[value] = amount * factor;
    filled.push(value);
  }
  if (filled.length) values.fromDefaultProfile = filled.join(', ');
  const cores = profiles.flatMap((p) => p.executorResources?.cores?.amount ?? []);
  if (cores.length > 1) values.maxProfileExecutorCores = Math.max(...cores);
}

/** The bytes a size setting stands for, read in its own unit; undefined for any other key or an unreadable value. */
export function settingBytes(key: string, text: string): number | undefined {
  const size = SIZES.find(([, , keys]) => keys.includes(key));
  return size ? sparkBytes(text, size[1]) : undefined;
}

function first(props: ReadonlyMap<string, string>, keys: readonly string[]): string | undefined {
  for (const key of keys) if (props.has(key)) return props.get(key);
  return undefined;
}

function valuesOf(props: ReadonlyMap<string, string>): Values {
  const values: Values = { properties: props.size };
  const cores = props.get('spark.executor.cores')?.trim();
  if (cores && /^\d+$/.test(cores)) values.executorCores = Number(cores);
  for (const [value, unit, keys] of SIZES) {
    const text = first(props, keys);
    const bytes = text === undefined ? undefined : sparkBytes(text, unit);
    if (bytes !== undefined) values[value] = bytes;
  }
  // booleanConf: `toBoolean` of the trimmed text, which ignores case; false when unset.
  const offHeap = first(props, ['spark.memory.offHeap.enabled', 'spark.unsafe.offHeap']);
  values.offHeapEnabled = offHeap?.trim().toLowerCase() === 'true';
  return values;
}

function summaryOf(values: Values): string {
  const size = (key: string) => (typeof values[key] === 'number' ? formatSize(values[key]) : 'not set');
  const cores = values.executorCores ?? 'not set';
  const offHeap = values.offHeapEnabled ? `on (${size('offHeapSizeBytes')})` : 'off';
  return `Spark settings (${values.properties} properties): spark.executor.cores ${cores}, spark.executor.memory ${size('executorMemoryBytes')}, spark.executor.memoryOverhead ${size('executorMemoryOverheadBytes')}, spark.executor.pyspark.memory ${size('pysparkMemoryBytes')}, off-heap ${offHeap}${profilesText(values)}.`;
}

function profilesText(values: Values): string {
  if (!values.resourceProfiles) return '';
  const filled = values.fromDefaultProfile ? ` (what is not set read from the default resource profile)` : '';
  const more =
    Number(values.resourceProfiles) > 1
      ? `; ${values.resourceProfiles} resource profiles (stage-level scheduling), executors of up to ${values.maxProfileExecutorCores ?? values.executorCores ?? '?'} cores`
      : '';
  return `${filled}${more}`;
}

class EnvironmentRun implements ParserRun {
  private readonly body = new JsonBody(MAX_CHARS);

  push(line: string, lineNo: number): void {
    this.body.push(line, lineNo);
  }

  finish() {
    const environment = this.body.parseAs(Environment, {
      notJson:
        'the complete JSON of /api/v1/applications/<app>/environment; this JSON is cut off or malformed.',
      wrongShape: 'an object with "sparkProperties", a list of [key, value] pairs (/environment).',
    });
    const values = valuesOf(new Map(environment.sparkProperties));
    profileValues(values, environment.resourceProfiles ?? []);
    const verdict =
      typeof values.executorCores === 'number'
        ? `${values.executorCores} core(s) per executor`
        : 'spark.executor.cores not set';
    return output('spark-environment', values, summaryOf(values), [], verdict, this.body.line);
  }
}

/** The settings in force of one Spark application (REST `environment`), from a History Server or a driver UI. */
export const sparkEnvironmentParser: Parser = {
  id: 'spark-environment',
  title: 'Spark REST environment',
  howToGet: '`curl http://<history-server>:18080/api/v1/applications/<app-id>/environment`',
  maxLineChars: MAX_CHARS,
  detect(head) {
    const start = head.find((l) => l.trim())?.trim() ?? '';
    return start.startsWith('{') && head.some((l) => /"sparkProperties"\s*:/.test(l));
  },
  create: () => new EnvironmentRun(),
};
