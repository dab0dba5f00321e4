import type { MetricDataQuery, MetricDataResult } from '@aws-sdk/client-cloudwatch';
import type { JobRun } from '@aws-sdk/client-glue';
import { type AwsCall, awsCall } from './aws-call.ts';
import { awsClientConfig } from './aws-clients.ts';
import type { GlueTarget } from './glue-config.ts';
import type { RunIds } from './glue-job-run.ts';

// The heap gauges of "Monitoring AWS Glue using Amazon CloudWatch metrics" (namespace Glue;
// dimensions JobName, JobRunId, Type=gauge): .jvm.heap.usage is a 0-1 fraction (CloudWatch labels
// it Percentage), .jvm.heap.used is bytes. Glue sends them every 30 s when the run has job metrics on.
export const HEAP_METRICS = [
  { id: 'driverHeapUsage', name: 'glue.driver.jvm.heap.usage' },
  { id: 'allHeapUsage', name: 'glue.ALL.jvm.heap.usage' },
  { id: 'driverHeapUsed', name: 'glue.driver.jvm.heap.used' },
  { id: 'allHeapUsed', name: 'glue.ALL.jvm.heap.used' },
] as const;

/** A run's metrics need a handful of pages at most; a longer answer is cut there, and says so. */
const MAX_PAGES = 5;
const DAY = 86_400;

/**
 * The finest period CloudWatch still keeps for a run that started then (GetMetricData reference:
 * 1-minute points for 15 days, 5-minute for 63 days, 1-hour for 455 days).
 */
export function periodFor(startedOn: Date, now: Date): number {
  const age = (now.getTime() - startedOn.getTime()) / 1000;
  return age <= 15 * DAY ? 60 : age <= 63 * DAY ? 300 : 3600;
}

/** The run's span, widened to whole periods: CloudWatch aligns points to the start time. */
export function metricWindow(run: JobRun, now: Date): { start: Date; end: Date; period: number } {
  const started = run.StartedOn ?? now;
  const period = periodFor(started, now);
  const startSeconds = Math.floor(started.getTime() / 1000 / period) * period;
  const endSeconds = Math.ceil((run.CompletedOn ?? now).getTime() / 1000 / period + 1) * period;
  return { start: new Date(startSeconds * 1000), end: new Date(endSeconds * 1000), period };
}

/** The four heap queries for one run, each labelled with its metric's name. */
export function heapQueries(ids: RunIds, period: number): MetricDataQuery[] {
  const Dimensions = [
    { Name: 'JobName', Value: ids.jobName },
    { Name: 'JobRunId', Value: ids.runId },
    { Name: 'Type', Value: 'gauge' },
  ];
  // Maximum, not the Average the docs list: a peak is what the heap question asks, and a minute's
  // Maximum of two 30-second reports is at least the Average the console shows.
  return HEAP_METRICS.map(({ id, name }) => ({
    Id: id,
    Label: name,
    MetricStat: {
      Metric: { Namespace: 'Glue', MetricName: name, Dimensions },
      Period: period,
      Stat: 'Maximum',
    },
    ReturnData: true,
  }));
}

export function getMetricDataCall(ids: RunIds, target: GlueTarget): AwsCall {
  return {
    service: 'Amazon CloudWatch',
    operation: 'GetMetricData',
    what: `heap metrics of job run ${ids.runId}`,
    action: 'cloudwatch:GetMetricData',
    cli: `aws cloudwatch get-metric-data --region ${target.region} --metric-data-queries file://heap-queries.json --start-time <run start> --end-time <run end>`,
  };
}

/** Appends a page's points to the results gathered so far, by query Id. */
function merge(into: Map<string, MetricDataResult>, page: readonly MetricDataResult[]): void {
  for (const r of page) {
    const kept = into.get(r.Id ?? '');
    if (!kept)
      into.set(r.Id ?? '', { ...r, Timestamps: [...(r.Timestamps ?? [])], Values: [...(r.Values ?? [])] });
    else {
      kept.Timestamps?.push(...(r.Timestamps ?? []));
      kept.Values?.push(...(r.Values ?? []));
      kept.StatusCode = r.StatusCode;
    }
  }
}

/** GetMetricData for the run's heap gauges, oldest point first, following NextToken up to MAX_PAGES. */
export async function fetchHeapMetrics(ids: RunIds, run: JobRun, target: GlueTarget, now: Date) {
  const { CloudWatchClient, GetMetricDataCommand } = await import('@aws-sdk/client-cloudwatch');
  const client = new CloudWatchClient(awsClientConfig(target, 'cloudwatch'));
  const { start, end, period } = metricWindow(run, now);
  const results = new Map<string, MetricDataResult>();
  let NextToken: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const input = {
        MetricDataQueries: heapQueries(ids, period),
        StartTime: start,
        EndTime: end,
        ScanBy: 'TimestampAscending' as const,
        ...(NextToken ? { NextToken } : {}),
      };
      const answer = await awsCall(getMetricDataCall(ids, target), target, (abortSignal) =>
        client.send(new GetMetricDataCommand(input), { abortSignal }),
      );
      merge(results, answer.MetricDataResults ?? []);
      NextToken = answer.NextToken;
      if (!NextToken) break;
    }
  } finally {
    client.destroy();
  }
  return { results: [...results.values()], period, start, end, cut: NextToken !== undefined };
}

/** The answer as `aws cloudwatch get-metric-data` prints it: timestamps in ISO 8601. */
export function metricDataText(results: readonly MetricDataResult[]): string {
  return JSON.stringify({ MetricDataResults: results, Messages: [] }, null, 4);
}

const isoSecond = (d: Date | undefined) => d?.toISOString().replace('.000Z', 'Z') ?? 'unknown';

/** One series' citation: its peak, read in the metric's own unit. */
function seriesCitation(r: MetricDataResult, period: number): string {
  const values = r.Values ?? [];
  const name = r.Label ?? r.Id ?? 'series';
  if (values.length === 0) return `${name}: no data points`;
  const peak = values.reduce((m, v) => Math.max(m, v), Number.NEGATIVE_INFINITY);
  const at = isoSecond(r.Timestamps?.[values.indexOf(peak)]);
  const reading = name.endsWith('.usage')
    ? `${peak} (${Math.round(peak * 100)}% of the heap; the metric is a 0-1 fraction)`
    : `${peak} bytes (${(peak / 2 ** 20).toFixed(1)} MiB)`;
  return `${name}: peak ${reading} at ${at}, ${values.length} points (Maximum per ${period} s)`;
}

/** The fields of the heap answer a diagnosis cites, with why a series may be empty. */
export function heapCitations(
  results: readonly MetricDataResult[],
  run: JobRun,
  period: number,
  cut: boolean,
): string[] {
  const out = results.map((r) => seriesCitation(r, period));
  const empty = results.some((r) => (r.Values ?? []).length === 0);
  if (empty && run.Arguments?.['--enable-metrics'] === undefined)
    out.push('JobRun.Arguments has no --enable-metrics: Glue sends job metrics only for runs that have it');
  if (cut) out.push(`the answer was longer than ${MAX_PAGES} pages: later points were not read`);
  return out;
}
