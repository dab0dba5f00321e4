import { z } from 'zod';
import type { FactValue } from '../facts.ts';
import { maxOf, output } from './common.ts';
import { glueHeapReading, type Series } from './glue-heap-series.ts';
import { JsonBody } from './json-body.ts';
import type { Parser, ParserRun } from './types.ts';

/** A GetMetricData answer is small (at most 100,800 points); far larger text is not one. */
const MAX_CHARS = 8 * 1024 * 1024;
const HEAP_FULL = 0.8;

// MetricDataResult as the CloudWatch API reference documents it (API_MetricDataResult): Timestamps
// and Values pair up by index. The wire (awsJson1_0) carries epoch seconds; `aws cloudwatch
// get-metric-data` prints ISO 8601 strings; both are read.
const Result = z.looseObject({
  Id: z.string(),
  Label: z.string().optional(),
  Timestamps: z.array(z.union([z.number(), z.string()])),
  Values: z.array(z.number()),
  StatusCode: z.string().optional(),
});
const MetricData = z.looseObject({ MetricDataResults: z.array(Result) });

function secondsOf(time: number | string): number {
  return typeof time === 'number' ? time : Date.parse(time) / 1000;
}

function seriesOf(result: z.infer<typeof Result>): Series {
  return {
    id: result.Id,
    label: result.Label ?? result.Id,
    seconds: result.Timestamps.map(secondsOf),
    values: result.Values,
  };
}

/** Series that are no Glue heap metric: their peaks, by Id. */
function otherPeaks(all: readonly Series[], values: Record<string, FactValue>): string[] {
  return all.flatMap((s) => {
    if (/\.jvm\.heap\.(usage|used)$/.test(s.label) || s.values.length === 0) return [];
    values[`${s.id}.peak`] = maxOf(s.values);
    return [`${s.label}: peak ${maxOf(s.values)} over ${s.values.length} points`];
  });
}

function judged(all: Series[], partial: boolean, firstLine: number) {
  const heap = glueHeapReading(all);
  const values: Record<string, FactValue> = {
    series: all.length,
    points: all.reduce((n, s) => n + s.values.length, 0),
    partial,
    ...heap.values,
  };
  const sentences = [...heap.sentences, ...otherPeaks(all, values)];
  if (partial) sentences.push('some series are PartialData: the answer holds only part of the range');
  const peak = values.heapUsagePeak;
  const verdict =
    typeof peak !== 'number'
      ? undefined
      : peak >= HEAP_FULL
        ? `heap nearly full: peaked at ${Math.round(peak * 100)}%`
        : `heap below ${HEAP_FULL * 100}% throughout`;
  const summary = sentences.length ? `${sentences.join('; ')}.` : 'No data points in any series.';
  const out = output('cloudwatch-metrics', values, summary, [], verdict, firstLine);
  const chart = heap.charts[0];
  return chart ? { ...out, chart: { ...chart, ...(verdict ? { verdict } : {}) } } : out;
}

class MetricsRun implements ParserRun {
  private readonly body = new JsonBody(MAX_CHARS);

  push(line: string, lineNo: number): void {
    this.body.push(line, lineNo);
  }

  finish() {
    const results = this.body.parseAs(MetricData, {
      notJson:
        'the complete JSON that `aws cloudwatch get-metric-data` prints; this is cut off or malformed.',
      wrongShape: '"MetricDataResults": a list of results with "Id", "Timestamps" and "Values".',
    }).MetricDataResults;
    const partial = results.some((r) => r.StatusCode === 'PartialData');
    return judged(results.map(seriesOf), partial, this.body.line);
  }
}

/** CloudWatch GetMetricData output; Glue's heap gauges (glue.driver / glue.ALL .jvm.heap.*) are read as such. */
export const cloudwatchMetricsParser: Parser = {
  id: 'cloudwatch-metrics',
  title: 'CloudWatch GetMetricData output',
  howToGet:
    '`aws cloudwatch get-metric-data --metric-data-queries file://heap.json --start-time <run start> --end-time <run end>` with queries for glue.driver.jvm.heap.usage and glue.ALL.jvm.heap.usage (namespace Glue; dimensions JobName, JobRunId, Type=gauge)',
  maxLineChars: MAX_CHARS,
  detect: (head) => head.some((l) => /"MetricDataResults"\s*:/.test(l)),
  create: () => new MetricsRun(),
};
