import { type AwsAnswer, AwsFake, type AwsOperation, awsError } from './aws-fake.ts';
import { fixture } from './rest-fake.ts';

export const GLUE_REGION = 'us-east-1';
/** The job and run of the AWS CLI's get-job-run example (aws/aws-cli awscli/examples/glue/get-job-run.rst). */
export const GLUE_JOB = 'Combine legistators data';
export const GLUE_RUN = 'jr_012e176506505074d94d761755e5c62538ee1aad6f17d39f527e9140cf0c9a5e';

export interface GlueFixtures {
  jobRun: string;
  heap: string;
  log: string;
}

export const FAILED_RUN: GlueFixtures = {
  jobRun: 'glue/assembled-get-job-run-failed-oom.json',
  heap: 'glue/assembled-heap-gauges-driver-oom.json',
  log: 'glue/assembled-get-log-events-driver-oom.json',
};

type Series = Record<string, { Timestamps: number[]; Values: number[] }>;
type Query = {
  Id: string;
  Label?: string;
  MetricStat: { Metric: Record<string, unknown>; Period: number; Stat: string };
};

/** GetJobRun (Glue API reference): the fixture's run, or EntityNotFoundException. */
function getJobRun(file: string): AwsOperation {
  const body = JSON.parse(fixture(file)) as { JobRun: { JobName: string; Id: string } };
  return {
    target: 'AWSGlue.GetJobRun',
    service: 'glue',
    protocol: '1.1',
    required: ['JobName', 'RunId'],
    answer: (input) => {
      // The message Glue gives for an unknown job (aws/aws-cdk#16767); for an unknown run of a known
      // job no real message was found, so none is sent.
      if (input.JobName !== body.JobRun.JobName)
        return awsError('EntityNotFoundException', `Job with name: ${input.JobName} not found.`);
      if (input.RunId !== body.JobRun.Id) return awsError('EntityNotFoundException');
      return { body };
    },
  };
}

/** The points of one recorded series inside [start, end), one per period: its Maximum or Average. */
function aggregate(series: Series[string], start: number, end: number, period: number, stat: string) {
  const buckets = new Map<number, number[]>();
  series.Timestamps.forEach((t, i) => {
    if (t < start || t >= end) return;
    const at = start + Math.floor((t - start) / period) * period;
    buckets.set(at, [...(buckets.get(at) ?? []), series.Values[i] ?? 0]);
  });
  const times = [...buckets.keys()].sort((a, b) => a - b);
  const of = (v: number[]) => (stat === 'Maximum' ? Math.max(...v) : v.reduce((s, x) => s + x, 0) / v.length);
  return { Timestamps: times, Values: times.map((t) => of(buckets.get(t) ?? [])) };
}

/** Whether a query asks for the recorded run: namespace Glue, its JobName and JobRunId, Type gauge. */
function forRun(query: Query): boolean {
  const metric = query.MetricStat.Metric as {
    Namespace?: string;
    Dimensions?: { Name: string; Value: string }[];
  };
  const dims = Object.fromEntries((metric.Dimensions ?? []).map((d) => [d.Name, d.Value]));
  return (
    metric.Namespace === 'Glue' &&
    dims.JobName === GLUE_JOB &&
    dims.JobRunId === GLUE_RUN &&
    dims.Type === 'gauge'
  );
}

/**
 * GetMetricData (CloudWatch API reference), answered as CloudWatch answers: the recorded points in the
 * asked range, one per period with the asked statistic, in the asked order; no points for another run.
 */
function getMetricData(file: string): AwsOperation {
  const recorded = JSON.parse(fixture(file)) as Series;
  return {
    target: 'GraniteServiceVersion20100801.GetMetricData',
    service: 'monitoring',
    protocol: '1.0',
    headers: { 'x-amzn-query-mode': 'true' },
    required: ['MetricDataQueries', 'StartTime', 'EndTime'],
    answer: (input): AwsAnswer => {
      const [start, end] = [input.StartTime as number, input.EndTime as number];
      const results = (input.MetricDataQueries as Query[]).map((q) => {
        const series = recorded[String(q.MetricStat.Metric.MetricName)];
        const points =
          series && forRun(q)
            ? aggregate(series, start, end, q.MetricStat.Period, q.MetricStat.Stat)
            : { Timestamps: [], Values: [] };
        if (input.ScanBy !== 'TimestampAscending') {
          points.Timestamps.reverse();
          points.Values.reverse();
        }
        return {
          Id: q.Id,
          Label: q.Label ?? String(q.MetricStat.Metric.MetricName),
          ...points,
          StatusCode: 'Complete',
        };
      });
      return { body: { MetricDataResults: results, Messages: [] } };
    },
  };
}

/** GetLogEvents (CloudWatch Logs API reference): the run's error stream, its last `limit` events. */
function getLogEvents(file: string): AwsOperation {
  const recorded = JSON.parse(fixture(file)) as { events: unknown[] };
  return {
    target: 'Logs_20140328.GetLogEvents',
    service: 'logs',
    protocol: '1.1',
    required: ['logStreamName', ['logGroupName', 'logGroupIdentifier']],
    answer: (input) => {
      if (input.logGroupName !== '/aws-glue/jobs/error' || input.logStreamName !== GLUE_RUN)
        return awsError('ResourceNotFoundException', 'The specified log stream does not exist.');
      const limit = typeof input.limit === 'number' ? input.limit : 10_000;
      const events =
        input.startFromHead === false ? recorded.events.slice(-limit) : recorded.events.slice(0, limit);
      return { body: { ...recorded, events } };
    },
  };
}

/** Glue, CloudWatch and CloudWatch Logs behind one loopback endpoint, answering for one failed run. */
export function glueFake(fixtures: GlueFixtures = FAILED_RUN): AwsFake {
  return new AwsFake(
    [getJobRun(fixtures.jobRun), getMetricData(fixtures.heap), getLogEvents(fixtures.log)],
    GLUE_REGION,
  );
}
