import { z } from 'zod';
import type { PeaksChartData } from '../charts/types.ts';
import type { Fact } from '../facts.ts';
import { formatSize } from '../units.ts';
import { fact, maxOf, output } from './common.ts';
import { JsonBody } from './json-body.ts';
import type { Parser, ParserRun } from './types.ts';

/** An executor list is small; far larger text is not one. */
const MAX_CHARS = 8 * 1024 * 1024;
/** The same reading of a removal reason as the event-log parser's. */
const MEMORY_REASON = /memory|OutOfMemory|exit code 137|-104|OOM/i;

// ExecutorSummary of Spark's status API (api.scala): maxMemory is the storage memory in bytes;
// peakMemoryMetrics (Spark 3.0+) names ExecutorMetricType values in bytes; removeReason once removed.
const Executor = z.looseObject({
  id: z.string(),
  hostPort: z.string(),
  isActive: z.boolean(),
  maxMemory: z.number(),
  failedTasks: z.number().optional(),
  removeReason: z.string().optional(),
  peakMemoryMetrics: z.record(z.string(), z.number()).optional(),
});
const Executors = z.array(Executor);
type Executor = z.infer<typeof Executor>;

/**
 * The driver's entry: "driver" since Spark 2.0, "<driver>" in Spark 1.x (SparkContext's
 * LEGACY_DRIVER_IDENTIFIER; HistoryServerExpectations/executor_list_json_expectation.json of 1.x).
 */
const isDriver = (e: Executor) => e.id === 'driver' || e.id === '<driver>';

/** The RSS parts of Spark's ProcessTreeMetrics (ExecutorMetricType.scala, 3.0+), each summed from /proc. */
const RSS_PARTS = ['ProcessTreeJVMRSSMemory', 'ProcessTreePythonRSSMemory', 'ProcessTreeOtherRSSMemory'];

/**
 * An executor's process tree resident memory: the JVM, its Python workers and other children; the
 * single ProcessTreeRSSMemory of Spark test data written before 3.0's release where only that is given.
 * 0 when Spark did not measure it.
 */
export function processRss(peak: Readonly<Record<string, number>>): number {
  const parts = RSS_PARTS.reduce((sum, key) => sum + Math.max(0, peak[key] ?? 0), 0);
  return parts > 0 ? parts : Math.max(0, peak.ProcessTreeRSSMemory ?? 0);
}

/**
 * The peaks of the executors that measured them. A running JVM never has 0 B of heap, so an executor
 * whose JVMHeapMemory is 0 sent the metrics without measuring them; ProcfsMetricsGetter answers all
 * zeros for the process tree unless spark.executor.processTreeMetrics.enabled is true (and /proc exists).
 */
function peaksOf(executors: readonly Executor[]) {
  const peaks = executors.flatMap((e) => (e.peakMemoryMetrics ? [e.peakMemoryMetrics] : []));
  const heapMeasured = peaks.filter((p) => (p.JVMHeapMemory ?? 0) > 0);
  const rss = peaks.map(processRss).filter((b) => b > 0);
  return {
    hasPeakMetrics: peaks.length > 0,
    peakMetricsMeasured: heapMeasured.length > 0,
    peakJvmHeapBytes: maxOf(heapMeasured.map((p) => p.JVMHeapMemory ?? 0)),
    peakJvmOffHeapBytes: maxOf(heapMeasured.map((p) => p.JVMOffHeapMemory ?? 0)),
    processTreeMeasured: rss.length > 0,
    peakProcessRssBytes: maxOf(rss),
    peakPythonRssBytes: maxOf(peaks.map((p) => p.ProcessTreePythonRSSMemory ?? 0)),
  };
}

function valuesOf(all: readonly Executor[]) {
  const executors = all.filter((e) => !isDriver(e));
  const removed = executors.filter((e) => e.removeReason !== undefined || !e.isActive);
  const lostToMemory = executors.filter((e) => MEMORY_REASON.test(e.removeReason ?? ''));
  return {
    executors: executors.length,
    activeExecutors: executors.filter((e) => e.isActive).length,
    removedExecutors: removed.length,
    removedForMemory: lostToMemory.length,
    firstMemoryReason: lostToMemory[0]?.removeReason?.slice(0, 200) ?? '',
    failedTasks: executors.reduce((s, e) => s + (e.failedTasks ?? 0), 0),
    maxStorageMemoryBytes: maxOf(executors.map((e) => e.maxMemory)),
    ...peaksOf(executors),
  };
}

type Values = ReturnType<typeof valuesOf>;

function rssText(v: Values): string {
  if (!v.processTreeMeasured)
    return ', process RSS not measured (0 unless spark.executor.processTreeMetrics.enabled=true)';
  const python = v.peakPythonRssBytes ? ` (Python workers ${formatSize(v.peakPythonRssBytes)})` : '';
  return `, process RSS ${formatSize(v.peakProcessRssBytes)}${python}`;
}

function peaksText(v: Values): string {
  if (!v.hasPeakMetrics)
    return '; no peak memory metrics (Spark before 3.0, or executors that never reported)';
  if (!v.peakMetricsMeasured)
    return '; peak memory metrics all 0: sent without being measured, so the peaks are unknown';
  return `; peak JVM heap ${formatSize(v.peakJvmHeapBytes)}, off-heap ${formatSize(v.peakJvmOffHeapBytes)}${rssText(v)}`;
}

function summaryOf(v: Values): string {
  const lost = v.removedForMemory
    ? `; ${v.removedForMemory} removed for memory ("${v.firstMemoryReason}")`
    : '';
  return `${v.executors} executor(s), ${v.activeExecutors} active, ${v.removedExecutors} removed${lost}${peaksText(v)}.`;
}

/** Said until someone who read the application's /environment draws the limit (check spark). */
export const NO_LIMIT_NOTE = 'spark.executor.memory is not in the executor list, so no limit is drawn';

/** Executors drawn; the rest (lower heap peaks) are named in the chart's note. */
const MAX_CHART_ROWS = 10;

const heapPeak = (e: Executor) => e.peakMemoryMetrics?.JVMHeapMemory ?? 0;

/**
 * Each executor's peaks (heap, off-heap and, when Spark measured it, the process tree's RSS), those
 * removed for memory first, then the highest heap. Only executors that measured their peaks; the
 * executor memory is not in this list, so the limit is left to whoever read /environment.
 */
function executorPeaksChart(all: readonly Executor[], verdict: string): PeaksChartData | undefined {
  const measured = all.filter((e) => !isDriver(e) && heapPeak(e) > 0);
  if (measured.length === 0) return undefined;
  const lost = (e: Executor) => MEMORY_REASON.test(e.removeReason ?? '');
  const ordered = [...measured].sort(
    (a, b) => Number(lost(b)) - Number(lost(a)) || heapPeak(b) - heapPeak(a) || a.id.localeCompare(b.id),
  );
  const shown = ordered.slice(0, MAX_CHART_ROWS);
  const rss = measured.some((e) => processRss(e.peakMemoryMetrics ?? {}) > 0);
  const measures = ['JVM heap', 'JVM off-heap', ...(rss ? ['process RSS'] : [])];
  const rows = shown.map((e) => {
    const peak = e.peakMemoryMetrics ?? {};
    const values = [
      peak.JVMHeapMemory,
      peak.JVMOffHeapMemory,
      ...(rss ? [processRss(peak) || undefined] : []),
    ];
    return { label: `executor ${e.id}`, values, ...(lost(e) ? { emphasis: true } : {}) };
  });
  const unmeasured = all.filter((e) => !isDriver(e)).length - measured.length;
  const notes = [
    NO_LIMIT_NOTE,
    ...(unmeasured > 0 ? [`${unmeasured} executor(s) sent no measured peaks`] : []),
    ...(rss ? [] : ['process RSS not measured (spark.executor.processTreeMetrics.enabled=false)']),
    ...(ordered.length > shown.length
      ? [`${ordered.length - shown.length} executor(s) with lower heap peaks not drawn`]
      : []),
  ];
  return {
    kind: 'peaks',
    id: 'spark-executor-peaks',
    title: "Spark executors' peak memory",
    measures,
    rows,
    ...(notes.length ? { note: notes.join('; ') } : {}),
    verdict,
  };
}

class ExecutorsRun implements ParserRun {
  private readonly body = new JsonBody(MAX_CHARS);

  push(line: string, lineNo: number): void {
    this.body.push(line, lineNo);
  }

  finish() {
    const executors = this.body.parseAs(Executors, {
      notJson:
        'the complete JSON of /api/v1/applications/<app>/allexecutors; this JSON is cut off or malformed.',
      wrongShape:
        'a JSON list of executors with "id", "hostPort", "isActive" and "maxMemory" (allexecutors).',
    });
    const values = valuesOf(executors);
    const line = this.body.line;
    const facts: Fact[] = values.removedForMemory
      ? [
          fact('spark.executor-lost-memory', line, values.firstMemoryReason, {
            reason: values.firstMemoryReason,
          }),
        ]
      : [];
    const verdict = values.removedForMemory
      ? `${values.removedForMemory} executor(s) removed for memory`
      : 'no executor removed for memory';
    const out = output('spark-executors', values, summaryOf(values), facts, verdict, line);
    const chart = executorPeaksChart(executors, verdict);
    return chart ? { ...out, chart } : out;
  }
}

/** Spark's executor list (REST `allexecutors` or `executors`), from a History Server or a driver UI. */
export const sparkExecutorsParser: Parser = {
  id: 'spark-executors',
  title: 'Spark REST executor list',
  howToGet: '`curl http://<history-server>:18080/api/v1/applications/<app-id>/allexecutors`',
  maxLineChars: MAX_CHARS,
  detect(head) {
    const start = head.find((l) => l.trim())?.trim() ?? '';
    return (
      start.startsWith('[') &&
      head.some((l) => /"hostPort"/.test(l)) &&
      head.some((l) => /"maxMemory"|"isActive"/.test(l))
    );
  },
  create: () => new ExecutorsRun(),
};
