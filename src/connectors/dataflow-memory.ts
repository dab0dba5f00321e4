import type { dataflow_v1b3 } from 'googleapis/build/src/apis/dataflow/v1b3.js';
import type { monitoring_v3 } from 'googleapis/build/src/apis/monitoring/v3.js';
import { CONTAINER_LIMIT_METRIC, USED_METRIC } from '../engine/parsers/dataflow-memory-series.ts';
import { ConnectorError } from '../errors.ts';
import {
  type DataflowCall,
  dataflowCall,
  MONITORING_ROOT,
  monitoringClient,
  requestOptions,
} from './dataflow-call.ts';
import type { DataflowTarget } from './dataflow-config.ts';

type Job = dataflow_v1b3.Schema$Job;
type TimeSeries = monitoring_v3.Schema$TimeSeries;

/** The container's memory and its limit: the two series the chart draws against each other. */
export const MEMORY_METRICS = [USED_METRIC, CONTAINER_LIMIT_METRIC] as const;
/** The least role that lists time series (Cloud Monitoring access control: monitoring.timeSeries.list). */
export const MONITORING_ROLE = 'roles/monitoring.viewer';

// Job states after which a job runs no more (JobState in the v1b3 reference): its series end there.
const ENDED = new Set([
  'JOB_STATE_DONE',
  'JOB_STATE_FAILED',
  'JOB_STATE_CANCELLED',
  'JOB_STATE_UPDATED',
  'JOB_STATE_DRAINED',
]);
/** A worker's last gauge can land after the state changed: a minute more keeps it. */
const AFTER_END_MS = 60_000;
// Dataflow job names: lower-case letters, digits and hyphens, starting with a letter (the
// --jobName rule the Dataflow pipeline options document), so one can be quoted in a filter as it is.
const JOB_NAME = /^[a-z]([-a-z0-9]{0,1022}[a-z0-9])?$/;

/** Raw points while a series would hold no more than this many a minute apart; past it, each window's maximum. */
const MAX_POINTS = 500;
const MINUTE_S = 60;

/**
 * How Cloud Monitoring is asked to thin a long run: ALIGN_MAX over whole minutes, so a series keeps
 * at most MAX_POINTS points and every peak (a window's maximum is what a kill follows); a run short
 * enough is read raw.
 */
export function alignmentFor(window: { start: Date; end: Date }): Record<string, string> {
  const span = (window.end.getTime() - window.start.getTime()) / 1000;
  const period = Math.ceil(span / MAX_POINTS / MINUTE_S) * MINUTE_S;
  if (period <= MINUTE_S) return {};
  return { 'aggregation.alignmentPeriod': `${period}s`, 'aggregation.perSeriesAligner': 'ALIGN_MAX' };
}

/** The job's run: its start to its end, or to now while it runs. */
export function jobWindow(job: Job, now: Date): { start: Date; end: Date } {
  const started = job.startTime ?? job.createTime;
  const start = started ? new Date(started) : now;
  const ended = ENDED.has(job.currentState ?? '') && job.currentStateTime;
  const end = ended ? new Date(Date.parse(ended) + AFTER_END_MS) : now;
  return { start, end: end < now ? end : now };
}

/**
 * The filter of one metric for the job's workers. The dataflow_worker resource carries the job's
 * name (`resource.label."job_name"`, as Dataflow dashboards filter it); the window keeps a later
 * job of the same name out.
 */
export function memoryFilter(metricType: string, jobName: string): string {
  return `metric.type = "${metricType}" AND resource.type = "dataflow_worker" AND resource.labels.job_name = "${jobName}"`;
}

function listCall(
  metricType: string,
  jobName: string,
  window: { start: Date; end: Date },
  t: DataflowTarget,
): DataflowCall {
  const query = new URLSearchParams({
    filter: memoryFilter(metricType, jobName),
    'interval.startTime': window.start.toISOString(),
    'interval.endTime': window.end.toISOString(),
    ...alignmentFor(window),
  });
  return {
    method: 'timeSeries.list',
    service: 'Cloud Monitoring',
    permission: 'monitoring.timeSeries.list',
    role: MONITORING_ROLE,
    what: `${metricType} series of job ${jobName} in project ${t.project}`,
    command: `curl -H "Authorization: Bearer $(gcloud auth print-access-token)" "${MONITORING_ROOT}v3/projects/${t.project}/timeSeries?${query}"`,
  };
}

/** Every page of one metric's series for the job, following nextPageToken up to maxPages. */
async function listSeries(
  metricType: string,
  job: Job,
  window: { start: Date; end: Date },
  target: DataflowTarget,
) {
  const jobName = job.name ?? '';
  const client = await monitoringClient(target);
  const asked = listCall(metricType, jobName, window, target);
  const series: TimeSeries[] = [];
  const units = new Set<string>();
  let pageToken: string | undefined;
  let pages = 0;
  do {
    const params = {
      name: `projects/${target.project}`,
      filter: memoryFilter(metricType, jobName),
      'interval.startTime': window.start.toISOString(),
      'interval.endTime': window.end.toISOString(),
      view: 'FULL',
      ...alignmentFor(window),
      ...(pageToken ? { pageToken } : {}),
    };
    const page = await dataflowCall(asked, target, () =>
      client.projects.timeSeries.list(params, requestOptions(target, 'Cloud Monitoring')),
    );
    pages++;
    series.push(...(page.timeSeries ?? []));
    if (page.unit) units.add(page.unit);
    pageToken = page.nextPageToken || undefined;
  } while (pageToken && pages < target.maxPages);
  return { series, units, cut: Boolean(pageToken) };
}

/** The job's workers' memory and its limits from Cloud Monitoring, over the job's run. */
export async function fetchWorkerMemory(job: Job, target: DataflowTarget, now: Date) {
  if (!JOB_NAME.test(job.name ?? ''))
    throw new ConnectorError(
      `Dataflow: the job's name "${job.name ?? ''}" is not a Dataflow job name, so its workers' memory was not asked for.`,
    );
  const window = jobWindow(job, now);
  const answers = [];
  for (const metric of MEMORY_METRICS)
    answers.push({ metric, ...(await listSeries(metric, job, window, target)) });
  return { window, answers };
}

type Fetched = Awaited<ReturnType<typeof fetchWorkerMemory>>;

/** The series as one timeSeries.list answer holds them; '' when Cloud Monitoring holds none. */
export function memoryText(fetched: Fetched): string {
  const all = fetched.answers.flatMap((a) => a.series);
  if (all.length === 0) return '';
  const units = new Set(fetched.answers.flatMap((a) => [...a.units]));
  const [unit] = units;
  return JSON.stringify({ timeSeries: all, ...(units.size === 1 && unit ? { unit } : {}) }, null, 2);
}

/** A point's reading: int64 as the string it arrives as, or a double. */
const readingOf = (v: monitoring_v3.Schema$TypedValue | undefined) =>
  Number(v?.int64Value ?? v?.doubleValue ?? Number.NaN);

/** One metric's citation: how many series and points, and the highest reading with whose and when. */
function metricCitation(answer: Fetched['answers'][number]): string {
  const short = answer.metric.replace('dataflow.googleapis.com/', '');
  let best: { value: number; at: string; who: string } | undefined;
  let points = 0;
  for (const s of answer.series)
    for (const p of s.points ?? []) {
      points++;
      const value = readingOf(p.value);
      if (Number.isFinite(value) && (!best || value > best.value))
        best = { value, at: p.interval?.endTime ?? '?', who: s.metric?.labels?.container ?? '' };
    }
  const more = answer.cut ? ' (more pages not read: dataflow.maxPages)' : '';
  if (!best) return `${short}: no points${more}`;
  const who = best.who ? ` (container ${best.who})` : '';
  return `${short}: ${answer.series.length} series, ${points} points; highest ${best.value} bytes (${(best.value / 2 ** 20).toFixed(1)} MiB)${who} at ${best.at}${more}`;
}

/** The fields of the memory answer a diagnosis cites. */
export function memoryCitations(fetched: Fetched): string[] {
  const { start, end } = fetched.window;
  const period = alignmentFor(fetched.window)['aggregation.alignmentPeriod'];
  return [
    `interval: ${start.toISOString()} to ${end.toISOString()} (the job's run)${period ? `, the maximum of each ${period}` : ', raw points'}`,
    ...fetched.answers.map(metricCitation),
  ];
}
