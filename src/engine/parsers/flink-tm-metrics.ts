import { z } from 'zod';
import type { FactValue } from '../facts.ts';
import { formatSize } from '../units.ts';
import { output, parseFailed, percent } from './common.ts';
import { JsonBody } from './json-body.ts';
import type { Parser, ParserRun } from './types.ts';

/** A metrics answer holds one entry per asked metric; far more text is not what the step asked for. */
const MAX_CHARS = 1024 * 1024;

// apache/flink MetricCollectionResponseBody: `[{"id": ..., "value": ...}]` for one TaskManager
// (`/taskmanagers/<id>/metrics?get=...`); the value is the gauge's toString() (MetricDumpSerialization),
// so a number arrives as a string. Without `get` the answer lists ids only; the aggregated endpoint
// (`/taskmanagers/metrics`) answers min/max/avg/sum instead of a value.
const Entry = z.looseObject({ id: z.string(), value: z.string().optional() });
const Answer = z.array(Entry);

/** The gauges read, by Flink's metric id (docs/content/docs/ops/metrics.md, "Memory": all in bytes). */
const GAUGES: Readonly<Record<string, string>> = {
  'Status.JVM.Memory.Heap.Used': 'heapUsedBytes',
  'Status.JVM.Memory.Heap.Committed': 'heapCommittedBytes',
  'Status.JVM.Memory.Heap.Max': 'heapMaxBytes',
  'Status.JVM.Memory.Metaspace.Used': 'metaspaceUsedBytes',
  'Status.JVM.Memory.Metaspace.Max': 'metaspaceMaxBytes',
  'Status.JVM.Memory.Direct.MemoryUsed': 'directUsedBytes',
  'Status.JVM.Memory.Direct.TotalCapacity': 'directCapacityBytes',
  'Status.JVM.Memory.Direct.Count': 'directBuffers',
};

/** Below this share of its maximum the heap is far from full: what grew lies outside it. */
export const HEAP_FAR_BELOW = 0.5;
/** From this share on the heap is nearly full. */
const HEAP_NEARLY_FULL = 0.9;

type Values = Record<string, FactValue>;

function heapVerdict(ratio: number | undefined): string {
  if (ratio === undefined) return 'heap maximum unknown';
  if (ratio < HEAP_FAR_BELOW) return `heap far below its max (${percent(ratio)})`;
  if (ratio >= HEAP_NEARLY_FULL) return `heap nearly full (${percent(ratio)})`;
  return `heap partly used (${percent(ratio)})`;
}

/** The gauges as numbers; a value that is not one (a JVM without the pool answers -1) is kept as read. */
function gaugeValues(entries: readonly z.infer<typeof Entry>[]): Values {
  const values: Values = {};
  for (const e of entries) {
    const key = GAUGES[e.id];
    const n = Number(e.value);
    if (key && e.value !== undefined && e.value.trim() !== '' && Number.isFinite(n)) values[key] = n;
  }
  const used = values.heapUsedBytes;
  const max = values.heapMaxBytes;
  // Heap.Max is -1 when the JVM has no limit; a ratio against it would mean nothing.
  if (typeof used === 'number' && typeof max === 'number' && max > 0)
    values.heapUsedRatio = Math.round((used / max) * 10_000) / 10_000;
  return values;
}

const size = (v: FactValue | undefined) => (typeof v === 'number' && v >= 0 ? formatSize(v) : undefined);

function summaryOf(values: Values): string {
  const parts: string[] = [];
  const used = size(values.heapUsedBytes);
  const max = size(values.heapMaxBytes);
  if (used)
    parts.push(
      `heap ${used} used${max ? ` of ${max} max` : ''}${typeof values.heapUsedRatio === 'number' ? ` (${percent(values.heapUsedRatio)})` : ''}`,
    );
  const metaspace = size(values.metaspaceUsedBytes);
  if (metaspace) parts.push(`metaspace ${metaspace}`);
  const direct = size(values.directUsedBytes);
  if (direct) parts.push(`direct buffers ${direct}`);
  return `TaskManager JVM memory: ${parts.join(', ')}.`;
}

class FlinkTmMetricsRun implements ParserRun {
  private readonly body = new JsonBody(MAX_CHARS);

  push(line: string, lineNo: number): void {
    this.body.push(line, lineNo);
  }

  finish() {
    const gauges = this.body.parseAs(Answer, {
      notJson:
        'the JSON list `curl <jobmanager>:8081/taskmanagers/<id>/metrics?get=Status.JVM.Memory.Heap.Used,...` prints; this JSON is cut off or malformed.',
      wrongShape:
        'a list of {"id", "value"} from /taskmanagers/<id>/metrics?get=... (the aggregated /taskmanagers/metrics answers min/max instead: ask one TaskManager).',
    });
    if (gauges.length > 0 && gauges.every((e) => e.value === undefined))
      throw parseFailed(
        'metric values, but this lists metric names only: add ?get=Status.JVM.Memory.Heap.Used,Status.JVM.Memory.Heap.Max,... to the URL.',
      );
    const values = gaugeValues(gauges);
    if (!('heapUsedBytes' in values) && !('directUsedBytes' in values) && !('metaspaceUsedBytes' in values))
      throw parseFailed(
        'Status.JVM.Memory.Heap.Used, Metaspace.Used or Direct.MemoryUsed among the metrics; none was in the answer.',
      );
    const ratio = typeof values.heapUsedRatio === 'number' ? values.heapUsedRatio : undefined;
    const verdict = heapVerdict(ratio);
    return output('flink-tm-metrics', values, summaryOf(values), [], verdict, this.body.line);
  }
}

/** One TaskManager's JVM memory gauges from Flink's REST API: heap used and max, metaspace, direct buffers. */
export const flinkTmMetricsParser: Parser = {
  id: 'flink-tm-metrics',
  title: 'Flink TaskManager metrics JSON',
  howToGet:
    '`curl "http://<jobmanager>:8081/taskmanagers/<taskmanager-id>/metrics?get=Status.JVM.Memory.Heap.Used,Status.JVM.Memory.Heap.Max,Status.JVM.Memory.Metaspace.Used,Status.JVM.Memory.Direct.MemoryUsed"`',
  maxLineChars: MAX_CHARS,
  // AbstractMetricsHandler answers an empty MetricCollectionResponseBody when its MetricStore holds
  // nothing for the TaskManager: an id it does not know, or metrics the MetricFetcher has not fetched yet.
  emptyAnswer:
    'the answer is an empty list: Flink holds no metrics for that TaskManager, either because the id is not one /taskmanagers lists (a TaskManager that was restarted gets a new id) or because the JobManager has not fetched its metrics yet (it does every metrics.fetcher.update-interval, 10 s by default). Check the id against /taskmanagers, or ask again in a few seconds.',
  detect(head) {
    const start = head.find((l) => l.trim())?.trim() ?? '';
    return start.startsWith('[') && head.some((l) => /"id"\s*:\s*"Status\.JVM\.Memory\./.test(l));
  },
  create: () => new FlinkTmMetricsRun(),
};
