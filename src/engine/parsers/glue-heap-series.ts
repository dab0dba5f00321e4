import type { SamplesChartData } from '../charts/types.ts';
import type { FactValue } from '../facts.ts';
import { formatSize } from '../units.ts';
import { maxOf, median, percent } from './common.ts';
import { judgeSeries, type SeriesJudgement } from './memory-series.ts';

// The Glue job metrics of the heap, as "Monitoring AWS Glue using Amazon CloudWatch metrics" defines
// them (awsdocs/aws-glue-developer-guide doc_source/monitoring-awsglue-with-cloudwatch-metrics.md):
// glue.<driver|ALL|executorId>.jvm.heap.usage is "the fraction of memory used by the JVM heap
// (scale: 0-1)" although CloudWatch labels its unit Percentage; .jvm.heap.used is bytes. Spark's
// JvmSource reports them through Dropwizard's MemoryUsageGaugeSet: usage = used / max.

/** One series of a GetMetricData answer, times in epoch seconds. */
export interface Series {
  id: string;
  label: string;
  seconds: number[];
  values: number[];
}

export type HeapOwner = 'driver' | 'executors';
export type HeapMeasure = 'usage' | 'used';

/** "glue.driver.jvm.heap.usage" -> driver / usage; "glue.ALL.jvm.heap.used" -> executors / used. */
export function heapSeriesOf(label: string): { owner: HeapOwner; measure: HeapMeasure } | undefined {
  const m = /^glue\.(driver|ALL)\.jvm\.heap\.(usage|used)$/.exec(label.trim());
  if (!m) return undefined;
  return { owner: m[1] === 'driver' ? 'driver' : 'executors', measure: m[2] === 'usage' ? 'usage' : 'used' };
}

const HEAP_OF: Record<HeapOwner, string> = { driver: "driver's heap", executors: "executors' heap" };

/** Where a series peaked: its largest value and when. */
function peakOf(series: Series): { value: number; at: number } {
  const value = maxOf(series.values);
  return { value, at: series.seconds[series.values.indexOf(value)] ?? 0 };
}

const clock = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** A 0-1 usage series: its peak as the ratio CloudWatch shows and the share a person reads. */
function usage(series: Series, owner: HeapOwner, values: Record<string, FactValue>): string {
  const peak = peakOf(series);
  if (peak.value > 1)
    return `${series.label} has values above 1 (peak ${peak.value}), so it is not Glue's 0-1 ratio: not read as a heap share`;
  values[`${owner}HeapUsagePeak`] = Number(peak.value.toFixed(4));
  return `${HEAP_OF[owner]} peaked at ${percent(peak.value)} (${series.label} ${Number(peak.value.toFixed(3))} at ${clock(peak.at)}, ${series.values.length} points)`;
}

/** A heap-used series for the chart: the samples against the heap's maximum, with their judgement. */
function usedChart(series: Series, owner: HeapOwner, j: SeriesJudgement, limit?: number): SamplesChartData {
  const t0 = series.seconds[0] ?? 0;
  return {
    kind: 'memory-samples',
    title: `Glue ${HEAP_OF[owner]} used (${series.label})`,
    points: series.values.map((bytes, i) => ({ t: (series.seconds[i] ?? t0) - t0, bytes })),
    timed: true,
    ...(limit ? { limitBytes: limit, limitLabel: 'maximum heap (used / usage)' } : {}),
    shape: j.shape,
    ...(j.bytesPerSecond !== undefined ? { bytesPerSecond: j.bytesPerSecond } : {}),
    bytesPerSample: j.bytesPerSample,
    ...(j.secondsToLimit !== undefined ? { secondsToLimit: j.secondsToLimit } : {}),
    steps: j.steps.map((step) => step.at),
    plateaus: j.plateaus,
  };
}

/** A bytes series: its peak, and its shape judged as memory-samples judges a process's memory. */
function used(
  series: Series,
  owner: HeapOwner,
  values: Record<string, FactValue>,
  charts: SamplesChartData[],
  limit?: number,
): string {
  const peak = peakOf(series);
  values[`${owner}HeapUsedPeakBytes`] = peak.value;
  const judged = judgeSeries({
    bytes: series.values,
    seconds: series.seconds,
    // CloudWatch returns the bytes the gauge reported: a reading moves by one byte at a time.
    quantumBytes: 1,
    ...(limit ? { limitBytes: limit } : {}),
  });
  values[`${owner}HeapUsedShape`] = judged.shape;
  charts.push(usedChart(series, owner, judged, limit));
  const shape = judged.shape === 'insufficient' ? `shape unknown (${judged.missing})` : judged.shape;
  return `${HEAP_OF[owner]} used peaked at ${formatSize(peak.value)} (${series.values.length} points, ${shape})`;
}

/**
 * The heap's maximum, from the two gauges of one owner at the same times: usage = used / max, so
 * max = used / usage (the median over the points where both are known and usage is not 0).
 */
function heapMax(usageSeries?: Series, usedSeries?: Series): number | undefined {
  if (!usageSeries || !usedSeries) return undefined;
  const byTime = new Map(usageSeries.seconds.map((s, i) => [s, usageSeries.values[i] ?? 0]));
  const maxima = usedSeries.seconds.flatMap((s, i) => {
    const share = byTime.get(s);
    return share && share > 0 && share <= 1 ? [(usedSeries.values[i] ?? 0) / share] : [];
  });
  return maxima.length ? median(maxima) : undefined;
}

/** The values and sentences of the Glue heap series among `all`; nothing when there are none. */
export function glueHeapReading(all: readonly Series[]): {
  values: Record<string, FactValue>;
  sentences: string[];
  /** The heap-used series to draw, a climbing one first. */
  charts: SamplesChartData[];
} {
  const values: Record<string, FactValue> = {};
  const sentences: string[] = [];
  const charts: SamplesChartData[] = [];
  for (const owner of ['driver', 'executors'] as const) {
    const find = (measure: HeapMeasure) =>
      all.find((s) => {
        const heap = heapSeriesOf(s.label);
        return heap?.owner === owner && heap.measure === measure;
      });
    const [usageSeries, usedSeries] = [find('usage'), find('used')];
    for (const series of [usageSeries, usedSeries])
      if (series && series.values.length === 0) sentences.push(`${series.label}: no data points`);
    if (usageSeries?.values.length) sentences.push(usage(usageSeries, owner, values));
    if (usedSeries?.values.length)
      sentences.push(used(usedSeries, owner, values, charts, heapMax(usageSeries, usedSeries)));
  }
  const peaks = [values.driverHeapUsagePeak, values.executorsHeapUsagePeak].filter(
    (v): v is number => typeof v === 'number',
  );
  if (peaks.length) values.heapUsagePeak = Math.max(...peaks);
  const climbingFirst = [...charts].sort(
    (a, b) => Number(b.shape === 'climbing') - Number(a.shape === 'climbing'),
  );
  return { values, sentences, charts: climbingFirst };
}
