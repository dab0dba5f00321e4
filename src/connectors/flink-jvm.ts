import { formatSize } from '../engine/units.ts';
import { loosely, type RestResource, z } from './rest.ts';

// The two Flink answers about what went wrong inside the JVMs: a TaskManager's memory gauges and a
// job's exceptions. Field names as Flink writes them (apache/flink flink-runtime rest/messages:
// MetricCollectionResponseBody, JobExceptionsInfoWithHistory, and before 1.13 JobExceptionsInfo).

/**
 * The gauges asked for, in this order (apache/flink MetricUtils.instantiateMemoryMetrics; every
 * Status.JVM.Memory gauge is bytes, docs/content/docs/ops/metrics.md). A TaskManager answers those it
 * has and leaves out the others, so an old one without Metaspace still answers the heap.
 */
export const TM_MEMORY_METRICS = [
  'Status.JVM.Memory.Heap.Used',
  'Status.JVM.Memory.Heap.Committed',
  'Status.JVM.Memory.Heap.Max',
  'Status.JVM.Memory.Metaspace.Used',
  'Status.JVM.Memory.Metaspace.Max',
  'Status.JVM.Memory.Direct.Count',
  'Status.JVM.Memory.Direct.MemoryUsed',
  'Status.JVM.Memory.Direct.TotalCapacity',
] as const;

const Metrics = z.array(z.looseObject({ id: z.string(), value: z.string().optional() }));

/** A gauge in bytes as a person reads it, with the figure sent; a count or -1 ("no limit") as sent. */
function gauge(id: string, value: string): string {
  const n = Number(value);
  if (id.endsWith('.Count') || !Number.isFinite(n) || n < 0) return value;
  return `${formatSize(n)} (${value} bytes)`;
}

function metricCitations(json: unknown, ids: Readonly<Record<string, string>>): string[] {
  const at = `taskmanagers/${ids.taskManagerId ?? ''}/metrics`;
  const list = (loosely(Metrics, json) ?? []).filter((m) => m.value !== undefined);
  const out = list.map((m) => `${at} ${m.id} = ${gauge(m.id, m.value ?? '')}`);
  const used = Number(list.find((m) => m.id === 'Status.JVM.Memory.Heap.Used')?.value);
  const max = Number(list.find((m) => m.id === 'Status.JVM.Memory.Heap.Max')?.value);
  if (used >= 0 && max > 0)
    out.push(`${at} Status.JVM.Memory.Heap.Used is ${Math.round((used / max) * 100)}% of Heap.Max`);
  return out;
}

const Exception = z.looseObject({
  exceptionName: z.string().optional(),
  stacktrace: z.string().optional(),
  timestamp: z.number().optional(),
  taskName: z.string().nullable().optional(),
  taskManagerId: z.string().nullable().optional(),
});
const Exceptions = z.looseObject({
  'root-exception': z.string().nullable().optional(),
  'all-exceptions': z.array(z.looseObject({ exception: z.string().optional() })).optional(),
  exceptionHistory: z
    .looseObject({
      entries: z.array(Exception.extend({ concurrentExceptions: z.array(Exception).optional() })),
      truncated: z.boolean().optional(),
    })
    .optional(),
  truncated: z.boolean().optional(),
});

/** Most history entries cited one by one; the paste holds them all. */
const MAX_CITED = 5;
const firstLine = (text: string) => (text.split('\n')[0] ?? '').trim().slice(0, 200);

/**
 * The traces a person copies from the Web UI's Exceptions tab, each once, oldest API first: the root
 * exception, then the history's root causes and what failed with them (or the legacy all-exceptions).
 * The engine's extractors read them as they read a pasted trace.
 */
function exceptionText(json: unknown, body: string): string {
  const e = loosely(Exceptions, json);
  if (!e) return body;
  const traces = [
    e['root-exception'] ?? '',
    ...(e.exceptionHistory?.entries ?? []).flatMap((h) => [
      h.stacktrace ?? '',
      ...(h.concurrentExceptions ?? []).map((c) => c.stacktrace ?? ''),
    ]),
    ...(e['all-exceptions'] ?? []).map((a) => a.exception ?? ''),
  ];
  return [...new Set(traces.map((t) => t.trimEnd()).filter((t) => t !== ''))].join('\n');
}

function where(h: z.infer<typeof Exception>): string {
  const parts = [
    h.taskName,
    h.taskManagerId ? `on ${h.taskManagerId}` : undefined,
    h.timestamp !== undefined ? `at ${new Date(h.timestamp).toISOString()}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(' ')})` : '';
}

function exceptionCitations(json: unknown, ids: Readonly<Record<string, string>>): string[] {
  const at = `jobs/${ids.jobId ?? ''}/exceptions`;
  const e = loosely(Exceptions, json);
  if (!e) return [];
  const out: string[] = [];
  const root = e['root-exception'];
  if (root) out.push(`${at} root-exception = ${firstLine(root)}`);
  const history = e.exceptionHistory?.entries ?? [];
  history.slice(0, MAX_CITED).forEach((h, i) => {
    out.push(
      `${at} exceptionHistory.entries[${i}] = ${firstLine(h.stacktrace ?? h.exceptionName ?? '')}${where(h)}`,
    );
  });
  if (history.length > MAX_CITED) out.push(`${at} exceptionHistory: ${history.length} entries`);
  if (e.exceptionHistory?.truncated || e.truncated)
    out.push(`${at} truncated = true (the JobManager kept more than it sent)`);
  if (out.length === 0) out.push(`${at}: no exception recorded`);
  return out;
}

export const flinkJvmResources: Record<string, RestResource> = {
  'taskmanager-metrics': {
    what: 'TaskManager with that id',
    ids: ['taskManagerId'],
    parser: 'flink-tm-metrics',
    path: (ids) =>
      `/taskmanagers/${encodeURIComponent(ids.taskManagerId ?? '')}/metrics?get=${TM_MEMORY_METRICS.join(',')}`,
    cite: metricCitations,
  },
  exceptions: {
    what: 'job with that id',
    ids: ['jobId'],
    path: (ids) => `/jobs/${ids.jobId}/exceptions`,
    paste: exceptionText,
    cite: exceptionCitations,
  },
};
