import { resourcesUnreported } from '../engine/parsers/flink-rest.ts';
import { formatSize, parseSize } from '../engine/units.ts';
import { flinkJvmResources } from './flink-jvm.ts';
import { loosely, type RestResource, restConnector, z } from './rest.ts';

// Field names as Flink's REST handlers write them (flink-runtime rest/messages: ClusterOverviewWithVersion,
// TaskManagerInfo with ResourceProfileInfo, JobDetailsInfo, ClusterConfigurationInfo: a list of
// {key, value}); a TaskManager's memory gauges and a job's exceptions are in flink-jvm.ts.
// totalResource/freeResource carry whole MiB (ResourceProfileInfo's getMebiBytes(), -1 when unknown);
// memoryConfiguration and hardware carry bytes; Flink releases before fine-grained resources lack them.
const Resource = z.looseObject({
  taskHeapMemory: z.number().optional(),
  managedMemory: z.number().optional(),
});
const TaskManager = z.looseObject({
  id: z.string(),
  slotsNumber: z.number(),
  freeSlots: z.number(),
  totalResource: Resource.optional(),
  freeResource: Resource.optional(),
  memoryConfiguration: z.record(z.string(), z.number().nullable()).optional(),
});
const Overview = z.looseObject({
  taskmanagers: z.number(),
  'slots-total': z.number(),
  'slots-available': z.number(),
  'flink-version': z.string().optional(),
});
const Job = z.looseObject({
  state: z.string(),
  vertices: z.array(z.looseObject({ name: z.string().optional(), parallelism: z.number() })),
  'status-counts': z.record(z.string(), z.number()).optional(),
});

/** Most TaskManagers cited one by one; a large cluster is summed by the parser anyway. */
const MAX_CITED = 8;

const mib = (v: number | undefined) => (v === undefined || v < 0 ? 'unknown' : `${v} MiB`);

function taskManagerCitations(at: string, tm: z.infer<typeof TaskManager>): string[] {
  const out = [`${at}.freeSlots = ${tm.freeSlots} of slotsNumber = ${tm.slotsNumber}`];
  const unreported = resourcesUnreported([tm]);
  if (!tm.freeResource) out.push(`${at}.freeResource is absent (an older Flink): slots only`);
  else if (unreported)
    out.push(`${at}.totalResource and freeResource are all 0, not measured (Flink 1.11-1.12): slots only`);
  else {
    out.push(`${at}.freeResource.taskHeapMemory = ${mib(tm.freeResource.taskHeapMemory)}`);
    out.push(`${at}.freeResource.managedMemory = ${mib(tm.freeResource.managedMemory)}`);
  }
  const process = tm.memoryConfiguration?.totalProcessMemory;
  if (typeof process === 'number')
    out.push(`${at}.memoryConfiguration.totalProcessMemory = ${formatSize(process)}`);
  return out;
}

const ConfigEntries = z.array(z.looseObject({ key: z.string(), value: z.string() }));
/** The settings that size Flink's memory and slots, cited from /jobmanager/config. */
const MEMORY_SETTING = /\.memory\.|\.heap\.size$|numberOfTaskSlots$/;

/** A Flink MemorySize as configured ("1728m", "134217728b"), with its size in bytes when it is one. */
function setting(key: string, value: string): string {
  const bytes = key.includes('memory') || key.endsWith('heap.size') ? parseSize(value) : undefined;
  return `jobmanager/config ${key} = ${value}${bytes === undefined ? '' : ` (${formatSize(bytes)})`}`;
}

const resources: Record<string, RestResource> = {
  overview: {
    what: 'cluster overview',
    ids: [],
    parser: 'flink-rest',
    path: () => '/overview',
    cite: (json) => {
      const o = loosely(Overview, json);
      if (!o) return [];
      return [
        `overview.slots-available = ${o['slots-available']} of slots-total = ${o['slots-total']}`,
        `overview.taskmanagers = ${o.taskmanagers}`,
        ...(o['flink-version'] ? [`overview.flink-version = ${o['flink-version']}`] : []),
      ];
    },
  },
  taskmanagers: {
    what: 'TaskManager list',
    ids: [],
    parser: 'flink-rest',
    path: () => '/taskmanagers',
    cite: (json) => {
      const list = loosely(z.looseObject({ taskmanagers: z.array(TaskManager) }), json)?.taskmanagers ?? [];
      return list.slice(0, MAX_CITED).flatMap((tm, i) => taskManagerCitations(`taskmanagers[${i}]`, tm));
    },
  },
  taskmanager: {
    what: 'TaskManager with that id',
    ids: ['taskManagerId'],
    parser: 'flink-rest',
    path: (ids) => `/taskmanagers/${encodeURIComponent(ids.taskManagerId ?? '')}`,
    cite: (json) => {
      const tm = loosely(TaskManager, json);
      return tm ? taskManagerCitations('taskmanager', tm) : [];
    },
  },
  'jobmanager-config': {
    what: 'cluster configuration',
    ids: [],
    path: () => '/jobmanager/config',
    // As flink-conf.yaml writes them, so the engine reads the settings in force as it reads a pasted file.
    paste: (json, body) => {
      const entries = loosely(ConfigEntries, json);
      return entries ? entries.map((e) => `${e.key}: ${e.value}`).join('\n') : body;
    },
    cite: (json) =>
      (loosely(ConfigEntries, json) ?? [])
        .filter((e) => MEMORY_SETTING.test(e.key))
        .sort((a, b) => a.key.localeCompare(b.key))
        .map((e) => setting(e.key, e.value)),
  },
  job: {
    what: 'job with that id',
    ids: ['jobId'],
    parser: 'flink-job-slots',
    path: (ids) => `/jobs/${ids.jobId}`,
    cite: (json) => {
      const job = loosely(Job, json);
      if (!job) return [];
      const widest = Math.max(0, ...job.vertices.map((v) => v.parallelism));
      const counts = job['status-counts'] ?? {};
      return [
        `job.state = ${job.state}`,
        `job.vertices: ${job.vertices.length}, largest parallelism = ${widest}`,
        ...['CREATED', 'SCHEDULED']
          .filter((s) => (counts[s] ?? 0) > 0)
          .map((s) => `job.status-counts.${s} = ${counts[s]}`),
      ];
    },
  },
  ...flinkJvmResources,
};

/** The Flink JobManager's REST API (port 8081 by default; on YARN, the application's tracking URL). */
export const flinkConnector = restConnector({
  name: 'flink',
  title: 'Flink JobManager',
  permission:
    'read access to the JobManager REST API (GET /overview, /taskmanagers, /taskmanagers/*/metrics, /jobs/*, /jobs/*/exceptions, /jobmanager/config); Flink itself has no roles, so this is what the proxy or ingress in front of it allows',
  idPatterns: {
    jobId: { pattern: /^[0-9a-f]{32}$/, example: '1c53a8f1b4937f50456190e884c9f289' },
    taskManagerId: { pattern: /^[\w.:-]{1,200}$/, example: 'container_e07_1647426438639_0022_01_000002' },
  },
  resources,
});
