import { z } from 'zod';
import type { FactValue } from '../facts.ts';
import { fact, maxOf, output, parseFailed } from './common.ts';
import { dataflowMemoryReading, type MonitoredSeries, USED_METRIC } from './dataflow-memory-series.ts';
import { jsonDocuments } from './flink-job-slots.ts';
import { JsonBody } from './json-body.ts';
import type { Parser, ParserRun } from './types.ts';

/** A timeSeries.list page holds at most 100,000 points; far larger text is not one answer. */
const MAX_CHARS = 16 * 1024 * 1024;

// ListTimeSeriesResponse and TimeSeries as the Cloud Monitoring v3 REST reference documents them:
// points come newest first ("returned in reverse time order"); a TypedValue holds int64Value as a
// JSON string (proto3's int64 mapping) or doubleValue as a number; GAUGE points may omit startTime.
// An answer with no series is `{}`: empty fields are left out of proto3 JSON.
const Value = z.looseObject({
  int64Value: z.union([z.string().regex(/^-?\d+$/), z.number()]).optional(),
  doubleValue: z.union([z.number(), z.enum(['NaN', 'Infinity', '-Infinity'])]).optional(),
});
const Point = z.looseObject({
  interval: z.looseObject({ endTime: z.string(), startTime: z.string().optional() }),
  value: Value,
});
const Labelled = z.looseObject({
  type: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
});
const TimeSeries = z.looseObject({
  metric: Labelled.optional(),
  resource: Labelled.optional(),
  metricKind: z.string().optional(),
  valueType: z.string().optional(),
  unit: z.string().optional(),
  points: z.array(Point).optional(),
});
const ListAnswer = z.looseObject({
  timeSeries: z.array(TimeSeries).optional(),
  nextPageToken: z.string().optional(),
  unit: z.string().optional(),
});

/** A point's number: int64 strings and doubles alike; NaN and infinities are no reading. */
function numberOf(value: z.infer<typeof Value>): number | undefined {
  const raw = value.int64Value ?? value.doubleValue;
  const n = typeof raw === 'string' ? Number(raw) : raw;
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

/** One series, its points oldest first, whatever order they came in. */
function seriesOf(ts: z.infer<typeof TimeSeries>, unit: string | undefined): MonitoredSeries {
  const points = (ts.points ?? [])
    .map((p) => ({ at: Date.parse(p.interval.endTime) / 1000, v: numberOf(p.value) }))
    .filter((p): p is { at: number; v: number } => Number.isFinite(p.at) && p.v !== undefined)
    .sort((a, b) => a.at - b.at);
  const stated = ts.unit ?? unit;
  return {
    metricType: ts.metric?.type ?? 'unknown',
    labels: { ...ts.resource?.labels, ...ts.metric?.labels },
    ...(stated ? { unit: stated } : {}),
    seconds: points.map((p) => p.at),
    values: points.map((p) => p.v),
  };
}

/** Series that are no Dataflow worker memory: their peaks by metric type, counted once per type. */
function otherPeaks(all: readonly MonitoredSeries[]): string[] {
  const byType = new Map<string, MonitoredSeries[]>();
  for (const s of all)
    if (!s.metricType.startsWith('dataflow.googleapis.com/worker/memory/'))
      byType.set(s.metricType, [...(byType.get(s.metricType) ?? []), s]);
  return [...byType.entries()].map(([type, list]) => {
    const peak = maxOf(list.flatMap((s) => s.values));
    const points = list.reduce((n, s) => n + s.values.length, 0);
    return `${type}: ${list.length} series, ${points} points, peak ${peak}${list[0]?.unit ? ` ${list[0].unit}` : ''}`;
  });
}

/** Answers pasted one after another (one per metric type: the filter names a single one) read as one. */
function judgedAnswers(answers: readonly z.infer<typeof ListAnswer>[], firstLine: number) {
  const all = answers.flatMap((a) => (a.timeSeries ?? []).map((ts) => seriesOf(ts, a.unit)));
  const memory = dataflowMemoryReading(all);
  const values: Record<string, FactValue> = {
    series: all.length,
    points: all.reduce((n, s) => n + s.values.length, 0),
    morePages: answers.some((a) => Boolean(a.nextPageToken)),
    ...memory.values,
  };
  const sentences = [...memory.sentences, ...otherPeaks(all)];
  if (all.some((s) => s.metricType === USED_METRIC) && memory.values.workerMemoryPeakBytes === undefined)
    sentences.push(`${USED_METRIC}: no data points`);
  if (values.morePages) sentences.push('the answer names a nextPageToken: later pages were not read');
  const summary = all.length
    ? `${sentences.join('; ')}.`
    : 'No time series in the answer: Cloud Monitoring holds no points for this filter and interval (it answers {}).';
  const facts = memory.growing
    ? [fact('memory.growing', firstLine, sentences[0] ?? summary, memory.growing)]
    : [];
  const out = output('cloud-monitoring-series', values, summary, facts, memory.verdict, firstLine);
  const chart = memory.chart;
  return chart
    ? { ...out, chart: { ...chart, ...(memory.verdict ? { verdict: memory.verdict } : {}) } }
    : out;
}

class SeriesRun implements ParserRun {
  private readonly body = new JsonBody(MAX_CHARS);

  push(line: string, lineNo: number): void {
    this.body.push(line, lineNo);
  }

  finish() {
    const docs = jsonDocuments(this.body.text);
    if (docs.length === 0)
      throw parseFailed(
        'the complete JSON that Cloud Monitoring timeSeries.list answers; this is cut off or malformed.',
      );
    const answers = docs.map((doc) => ListAnswer.safeParse(doc));
    if (answers.some((a) => !a.success))
      throw parseFailed(
        'a timeSeries.list answer: {"timeSeries": [{"metric", "resource", "points": [{"interval": {"endTime"}, "value": {"int64Value" or "doubleValue"}}]}]}.',
      );
    return judgedAnswers(
      answers.flatMap((a) => (a.success ? [a.data] : [])),
      this.body.line,
    );
  }
}

/** Cloud Monitoring timeSeries.list answers; Dataflow's worker memory gauges are read against their limits. */
export const cloudMonitoringSeriesParser: Parser = {
  id: 'cloud-monitoring-series',
  title: 'Cloud Monitoring timeSeries.list answer',
  howToGet:
    'curl -H "Authorization: Bearer $(gcloud auth print-access-token)" "https://monitoring.googleapis.com/v3/projects/<project>/timeSeries?filter=metric.type%3D%22dataflow.googleapis.com%2Fworker%2Fmemory%2Fbytes_used%22&interval.startTime=<job start>&interval.endTime=<job end>" (and again with worker/memory/container_limit)',
  maxLineChars: MAX_CHARS,
  // An answer with series holds "timeSeries"; one with none is `{}` and nothing else.
  detect: (head) => head.some((l) => /"timeSeries"\s*:\s*\[/.test(l)) || head.join('').trim() === '{}',
  create: () => new SeriesRun(),
};
