import type { SamplesChartData } from '../charts/types.ts';
import type { FactValue } from '../facts.ts';
import { formatSize } from '../units.ts';
import { maxOf, percent } from './common.ts';
import { judgeSeries, type SeriesJudgement } from './memory-series.ts';

// Dataflow's worker memory in Cloud Monitoring, as "Google Cloud metrics: D through H" lists it
// (docs.cloud.google.com/monitoring/api/metrics_gcp_d_h, resource dataflow_worker): every one a
// GAUGE of INT64 in By (bytes).
//   worker/memory/bytes_used       "memory usage in bytes by a particular container instance"
//   worker/memory/container_limit  "maximum RAM size in bytes available to a particular container"
//   worker/memory/total_limit      "RAM size in bytes available to a Dataflow worker"
// The first two carry the metric label `container` ("java-streaming", "harness").
const PREFIX = 'dataflow.googleapis.com/worker/memory/';
export const USED_METRIC = `${PREFIX}bytes_used`;
export const CONTAINER_LIMIT_METRIC = `${PREFIX}container_limit`;
export const TOTAL_LIMIT_METRIC = `${PREFIX}total_limit`;
/** Share of the limit at which the verdict says the container reached it. */
const NEAR_LIMIT = 0.9;

/** One time series of a timeSeries.list answer, oldest point first, times in epoch seconds. */
export interface MonitoredSeries {
  metricType: string;
  /** The metric's and the resource's labels: what tells one worker's container from another. */
  labels: Readonly<Record<string, string>>;
  /** The unit the answer states ("By"), when it states one. */
  unit?: string;
  seconds: number[];
  values: number[];
}

/** The worker and container a series is of: its labels except the project, as `key=value` pairs. */
export function whoseOf(series: MonitoredSeries): string {
  return Object.entries(series.labels)
    .filter(([k]) => k !== 'project_id')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** Where it names them, the container and its worker, short enough for a title: "harness on <worker>". */
function nameOf(series: MonitoredSeries): string {
  const { container, worker_id: worker } = series.labels;
  if (container && worker) return `${container} on ${worker}`;
  return container ? `container ${container}` : worker ? `worker ${worker}` : whoseOf(series) || 'the worker';
}

/** The limit of the same container: container_limit with the same labels, else the worker's total. */
function limitOf(
  used: MonitoredSeries,
  all: readonly MonitoredSeries[],
): { bytes: number; label: string } | undefined {
  const same = (s: MonitoredSeries) => whoseOf(s) === whoseOf(used);
  const container = all.find((s) => s.metricType === CONTAINER_LIMIT_METRIC && same(s) && s.values.length);
  if (container) return { bytes: maxOf(container.values), label: 'container_limit' };
  const { container: _c, ...worker } = used.labels;
  const workerKey = whoseOf({ ...used, labels: worker });
  const total = all.find((s) => s.metricType === TOTAL_LIMIT_METRIC && whoseOf(s) === workerKey);
  return total?.values.length ? { bytes: maxOf(total.values), label: 'total_limit' } : undefined;
}

interface Judged {
  series: MonitoredSeries;
  limit?: { bytes: number; label: string };
  judgement: SeriesJudgement;
  peak: number;
}

function judged(series: MonitoredSeries, all: readonly MonitoredSeries[]): Judged {
  const limit = limitOf(series, all);
  const judgement = judgeSeries({
    bytes: series.values,
    seconds: series.seconds,
    // The gauge is the cgroup's charged bytes: a reading moves by one byte at a time.
    quantumBytes: 1,
    ...(limit ? { limitBytes: limit.bytes } : {}),
  });
  return { series, judgement, peak: maxOf(series.values), ...(limit ? { limit } : {}) };
}

/** The container memory samples against its limit, with their judgement. */
function chartOf(j: Judged): SamplesChartData {
  const { series, judgement } = j;
  const t0 = series.seconds[0] ?? 0;
  return {
    kind: 'memory-samples',
    title: `Dataflow worker memory (${nameOf(series)})`,
    points: series.values.map((bytes, i) => ({ t: (series.seconds[i] ?? t0) - t0, bytes })),
    timed: true,
    ...(j.limit ? { limitBytes: j.limit.bytes, limitLabel: j.limit.label } : {}),
    shape: judgement.shape,
    ...(judgement.bytesPerSecond !== undefined ? { bytesPerSecond: judgement.bytesPerSecond } : {}),
    bytesPerSample: judgement.bytesPerSample,
    ...(judgement.secondsToLimit !== undefined ? { secondsToLimit: judgement.secondsToLimit } : {}),
    steps: judgement.steps.map((step) => step.at),
    plateaus: judgement.plateaus,
  };
}

/** Closest to its limit first (the share of it), then the largest peak: the container to look at. */
function rank(a: Judged, b: Judged): number {
  const share = (j: Judged) => (j.limit ? j.peak / j.limit.bytes : 0);
  return share(b) - share(a) || b.peak - a.peak || whoseOf(a.series).localeCompare(whoseOf(b.series));
}

function sentenceOf(j: Judged): string {
  const shape =
    j.judgement.shape === 'insufficient' ? `shape unknown (${j.judgement.missing})` : j.judgement.shape;
  const against = j.limit
    ? ` of ${formatSize(j.limit.bytes)} ${j.limit.label} (${percent(j.peak / j.limit.bytes)})`
    : ' (no limit series in the answer)';
  return `${nameOf(j.series)} peaked at ${formatSize(j.peak)}${against}, ${j.series.values.length} points, ${shape}`;
}

/**
 * What a climbing container says as memory-samples says it (the `memory.growing` fact's figures), so
 * walkthrough steps and case rules that read a climb read this one too.
 */
function growingOf(j: Judged): Record<string, FactValue> | undefined {
  if (j.judgement.shape !== 'climbing') return undefined;
  const first = j.series.values[0] ?? 0;
  const last = j.series.values.at(-1) ?? 0;
  return {
    growthShare: first > 0 ? Number(((last - first) / first).toFixed(4)) : 0,
    lastBytes: last,
    ...(j.judgement.bytesPerSecond !== undefined
      ? { rateBytesPerSecond: Math.round(j.judgement.bytesPerSecond) }
      : {}),
    ...(j.limit ? { limitBytes: j.limit.bytes } : {}),
  };
}

/** A stated unit other than bytes: the series is not read as memory. */
const notBytes = (s: MonitoredSeries) => s.unit !== undefined && s.unit !== 'By';

/** The figures of the container drawn: its peak and shape, and its limit and share of it. */
function valuesOf(first: Judged): Record<string, FactValue> {
  return {
    workerMemoryPeakBytes: first.peak,
    workerMemoryShape: first.judgement.shape,
    ...(first.limit
      ? {
          workerMemoryLimitBytes: first.limit.bytes,
          workerMemoryPeakShare: Number((first.peak / first.limit.bytes).toFixed(4)),
        }
      : {}),
  };
}

/** Whether the container nearest its limit reached it; nothing to say without a limit. */
function verdictOf(first: Judged): string | undefined {
  if (!first.limit) return undefined;
  const share = first.peak / first.limit.bytes;
  return share >= NEAR_LIMIT
    ? `worker container reached ${percent(share)} of its memory limit`
    : `worker containers stayed below ${percent(NEAR_LIMIT)} of their memory limits`;
}

/** The values, sentences, verdict and chart of the Dataflow memory series among `all`. */
export function dataflowMemoryReading(all: readonly MonitoredSeries[]): {
  values: Record<string, FactValue>;
  sentences: string[];
  verdict?: string;
  chart?: SamplesChartData;
  /** The figures of a `memory.growing` fact when the container drawn climbs. */
  growing?: Record<string, FactValue>;
} {
  const used = all.filter((s) => s.metricType === USED_METRIC && s.values.length > 0);
  const sentences = used.filter(notBytes).map((s) => `${nameOf(s)}: unit ${s.unit}, not bytes: not read`);
  const ranked = used
    .filter((s) => !notBytes(s))
    .map((s) => judged(s, all))
    .sort(rank);
  const [first] = ranked;
  if (!first) return { values: {}, sentences };
  sentences.push(...ranked.slice(0, 3).map(sentenceOf));
  if (ranked.length > 3) sentences.push(`${ranked.length - 3} more containers, further from their limits`);
  const verdict = verdictOf(first);
  const growing = growingOf(first);
  return {
    values: valuesOf(first),
    sentences,
    chart: chartOf(first),
    ...(verdict ? { verdict } : {}),
    ...(growing ? { growing } : {}),
  };
}
