import { z } from 'zod';
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

const peak = (list: readonly Executor[], key: string) =>
  maxOf(list.map((e) => e.peakMemoryMetrics?.[key] ?? 0));

function valuesOf(all: readonly Executor[]) {
  const executors = all.filter((e) => e.id !== 'driver');
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
    peakJvmHeapBytes: peak(executors, 'JVMHeapMemory'),
    peakJvmOffHeapBytes: peak(executors, 'JVMOffHeapMemory'),
    peakProcessRssBytes: peak(executors, 'ProcessTreeRSSMemory'),
    hasPeakMetrics: executors.some((e) => e.peakMemoryMetrics !== undefined),
  };
}

function summaryOf(v: ReturnType<typeof valuesOf>): string {
  const peaks = v.hasPeakMetrics
    ? `; peak JVM heap ${formatSize(v.peakJvmHeapBytes)}, off-heap ${formatSize(v.peakJvmOffHeapBytes)}${v.peakProcessRssBytes ? `, process RSS ${formatSize(v.peakProcessRssBytes)}` : ''}`
    : '; no peak memory metrics (Spark before 3.0, or executors that never reported)';
  const lost = v.removedForMemory
    ? `; ${v.removedForMemory} removed for memory ("${v.firstMemoryReason}")`
    : '';
  return `${v.executors} executor(s), ${v.activeExecutors} active, ${v.removedExecutors} removed${lost}${peaks}.`;
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
    return output('spark-executors', values, summaryOf(values), facts, verdict, line);
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
