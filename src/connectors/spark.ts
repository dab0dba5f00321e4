import { settingBytes } from '../engine/parsers/spark-environment.ts';
import { processRss } from '../engine/parsers/spark-executors.ts';
import { formatSize } from '../engine/units.ts';
import { loosely, type RestResource, restConnector, z } from './rest.ts';

// ExecutorSummary as Spark's status API writes it (core/src/main/scala/org/apache/spark/status/api/v1/api.scala):
// maxMemory and memoryMetrics in bytes; peakMemoryMetrics (3.0+) holds ExecutorMetricType names, bytes.
const Executor = z.looseObject({
  id: z.string(),
  isActive: z.boolean().optional(),
  maxMemory: z.number().optional(),
  removeReason: z.string().optional(),
  peakMemoryMetrics: z.record(z.string(), z.number()).optional(),
});
const Environment = z.looseObject({
  sparkProperties: z.array(z.tuple([z.string(), z.string()])),
  // Spark 3.1+: the executor resources each profile asks for; memory amounts in MiB (ResourceProfile).
  resourceProfiles: z
    .array(
      z.looseObject({
        id: z.number(),
        executorResources: z.record(z.string(), z.looseObject({ amount: z.number() })).optional(),
      }),
    )
    .optional(),
});
const PROFILE_MEMORY = new Set(['memory', 'memoryOverhead', 'pyspark.memory', 'offHeap']);

/** Each profile's cores and memory, as the default profile holds the settings in force (defaults included). */
function profileCitations(env: z.infer<typeof Environment> | undefined): string[] {
  return (env?.resourceProfiles ?? []).flatMap((p, i) =>
    Object.entries(p.executorResources ?? {})
      .filter(([name]) => name === 'cores' || PROFILE_MEMORY.has(name))
      .map(([name, r]) => {
        const amount = PROFILE_MEMORY.has(name) ? `${r.amount} MiB` : `${r.amount}`;
        return `environment.resourceProfiles[${i}] (id ${p.id}).executorResources.${name} = ${amount}`;
      }),
  );
}

/** Settings that size an executor or driver: what `check spark` cites from /environment. */
const MEMORY_SETTINGS =
  /^spark\.(executor|driver)\.(memory|memoryOverhead|cores)$|^spark\.memory\.|^spark\.yarn\.executor\.memoryOverhead$/;
const MAX_CITED = 8;

/** The peaks a person reads for memory; a 0 is cited as not measured, as Spark sends it then. */
const PEAKS_CITED = [
  'JVMHeapMemory',
  'ProcessTreeJVMRSSMemory',
  'ProcessTreePythonRSSMemory',
  'ProcessTreeOtherRSSMemory',
  'ProcessTreeRSSMemory',
] as const;

function peakCitations(at: string, peak: Readonly<Record<string, number>>, who: string): string[] {
  const treeMeasured = processRss(peak) > 0;
  return PEAKS_CITED.filter((key) => peak[key] !== undefined).map((key) => {
    const bytes = peak[key] ?? 0;
    const zero =
      key === 'JVMHeapMemory'
        ? '0 (not measured)'
        : treeMeasured
          ? formatSize(0)
          : '0 (not measured: spark.executor.processTreeMetrics.enabled is off)';
    return `${at}.peakMemoryMetrics.${key} = ${bytes > 0 ? formatSize(bytes) : zero} ${who}`;
  });
}

function executorCitations(executors: readonly z.infer<typeof Executor>[]): string[] {
  const out: string[] = [];
  executors.forEach((e, i) => {
    const who = `(executor ${e.id})`;
    if (e.removeReason) out.push(`[${i}].removeReason = ${e.removeReason.slice(0, 200)} ${who}`);
    if (e.peakMemoryMetrics) out.push(...peakCitations(`[${i}]`, e.peakMemoryMetrics, who));
  });
  return out.slice(0, MAX_CITED);
}

/** Each removed executor's reason, one after the other, as the driver logs them ("Lost executor ..."). */
function removeReasons(json: unknown): string {
  return (loosely(z.array(Executor), json) ?? [])
    .flatMap((e) => (e.removeReason ? [e.removeReason] : []))
    .join('\n');
}

const resources: Record<string, RestResource> = {
  executors: {
    what: 'application with that id (executors)',
    ids: ['appId'],
    parser: 'spark-executors',
    path: (ids) => `/api/v1/applications/${ids.appId}/allexecutors`,
    cite: (json) => executorCitations(loosely(z.array(Executor), json) ?? []),
  },
  // The same answer read for why YARN killed an executor: Spark's YarnAllocator copies the kill's
  // figures from the container's diagnostics into the reason ("Container killed by YARN for exceeding
  // physical memory limits. 5.6 GB of 5.5 GB physical memory used. Consider boosting ..."), which stays
  // in the executor's removeReason when the application's own diagnostics never mention it.
  'removed-executors': {
    what: 'application with that id (executors)',
    ids: ['appId'],
    parser: 'yarn-container',
    path: (ids) => `/api/v1/applications/${ids.appId}/allexecutors`,
    empty:
      'no executor was removed (allexecutors gives a removeReason to removed executors only), so none has a kill to read',
    paste: (json) => removeReasons(json),
    cite: (json) => executorCitations(loosely(z.array(Executor), json) ?? []),
  },
  environment: {
    what: 'application with that id (environment)',
    ids: ['appId'],
    parser: 'spark-environment',
    path: (ids) => `/api/v1/applications/${ids.appId}/environment`,
    cite: (json) => {
      const env = loosely(Environment, json);
      const settings = (env?.sparkProperties ?? [])
        .filter(([key]) => MEMORY_SETTINGS.test(key))
        .map(([key, value]) => {
          // A size without a unit is MiB or bytes by the setting: the citation says which it was read as.
          const bytes = settingBytes(key, value);
          const read = bytes === undefined ? '' : ` (${formatSize(bytes)})`;
          return `environment.sparkProperties.${key} = ${value}${read}`;
        });
      return [...settings, ...profileCitations(env)].slice(0, 2 * MAX_CITED);
    },
  },
};

/** Spark's monitoring REST API: a History Server (port 18080) or a running driver's UI (4040). */
export const sparkConnector = restConnector({
  name: 'spark',
  title: 'Spark History Server',
  permission:
    'view access to the application (spark.ui.view.acls / spark.history.ui.acls.enable, or the History Server filter in front of it)',
  idPatterns: {
    appId: {
      pattern: /^[\w.-]{1,200}$/,
      example: 'application_1523494505172_1552404 or app-20161116163331-0000',
    },
  },
  resources,
});
