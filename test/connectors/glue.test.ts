import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { glueConnector } from '../../src/connectors/glue.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { GLUE_JOB, GLUE_RUN } from './fakes/aws-systems.ts';
import { fixture } from './fakes/rest-fake.ts';
import { glueTargetFor, useGlueFake } from './glue-support.ts';
import { FIXED_NOW } from './support.ts';

const RUN = { jobName: GLUE_JOB, runId: GLUE_RUN };
/** What `aws cloudwatch get-metric-data` prints for the same queries (see its SOURCES.md). */
const PASTED_METRICS = readFileSync(
  join(
    import.meta.dirname,
    '..',
    'engine',
    'parsers',
    'fixtures',
    'cloudwatch-metrics',
    'assembled-glue-heap-driver-oom.json',
  ),
  'utf8',
);
// The driver's error log of AWS Glue's "Debugging a Driver OOM Exception" (the playbook's corpus-p030.txt).
const PASTED_LOG = readFileSync(
  join(import.meta.dirname, '..', '..', 'playbooks', 'glue-heap-oom', 'fixtures', 'corpus-p030.txt'),
  'utf8',
);

describe('Glue connector against a fake AWS answering in the real protocols', () => {
  const aws = useGlueFake();
  const fetch = (resource: string, now = FIXED_NOW) =>
    glueConnector.fetch({ resource, ids: RUN }, { target: glueTargetFor(aws.url), now });

  it('job-run: GetJobRun with the job name and run id, the run printed as the CLI prints it', async () => {
    const got = await fetch('job-run');
    expect(aws.fake.seen.map((s) => [s.target, s.input])).toEqual([
      ['AWSGlue.GetJobRun', { JobName: GLUE_JOB, RunId: GLUE_RUN }],
    ]);
    expect(got.from).toEqual({
      connector: 'glue',
      path: `GetJobRun JobName=${GLUE_JOB} RunId=${GLUE_RUN}`,
      fetchedAt: '2026-12-03T11:00:00.000Z',
    });
    const wire = JSON.parse(fixture('glue/assembled-get-job-run-failed-oom.json')).JobRun;
    const printed = JSON.parse(got.paste).JobRun;
    // Epoch seconds on the wire (awsJson); ISO 8601 as AWS CLI v2 prints timestamps.
    expect(printed.StartedOn).toBe(new Date(wire.StartedOn * 1000).toISOString());
    expect({ ...printed, StartedOn: 0, LastModifiedOn: 0, CompletedOn: 0 }).toEqual({
      ...wire,
      StartedOn: 0,
      LastModifiedOn: 0,
      CompletedOn: 0,
    });
    expect(got.citations).toEqual([
      'JobRun.JobRunState = FAILED',
      'JobRun.ErrorMessage = Command failed with exit code 1',
      'JobRun.WorkerType = G.1X, NumberOfWorkers = 10, MaxCapacity = 10 DPU, GlueVersion = 2.0',
      'JobRun.ExecutionTime = 1591 s',
    ]);
  });

  it('heap-metrics: the run bounds GetMetricData, and the answer is judged as the pasted CLI output is', async () => {
    // Ten days after the run: CloudWatch still keeps its 1-minute points (15 days).
    const got = await fetch('heap-metrics', () => new Date('2020-10-26T12:00:00Z'));
    expect(aws.fake.seen.map((s) => s.target)).toEqual([
      'AWSGlue.GetJobRun',
      'GraniteServiceVersion20100801.GetMetricData',
    ]);
    const asked = aws.fake.seen[1]?.input as {
      MetricDataQueries: { MetricStat: Record<string, unknown> }[];
      StartTime: number;
      EndTime: number;
    };
    expect(asked.MetricDataQueries.map((q) => q.MetricStat)).toContainEqual({
      Metric: {
        Namespace: 'Glue',
        MetricName: 'glue.driver.jvm.heap.usage',
        Dimensions: [
          { Name: 'JobName', Value: GLUE_JOB },
          { Name: 'JobRunId', Value: GLUE_RUN },
          { Name: 'Type', Value: 'gauge' },
        ],
      },
      Period: 60,
      Stat: 'Maximum',
    });
    // StartedOn 1602873931.255 and CompletedOn 1602875521.985, widened to whole minutes.
    expect([asked.StartTime, asked.EndTime]).toEqual([1602873900, 1602875640]);
    expect(got.parser).toBe('cloudwatch-metrics');
    expect(parseText('cloudwatch-metrics', got.paste).values).toEqual(
      parseText('cloudwatch-metrics', PASTED_METRICS).values,
    );
    expect(got.citations).toEqual([
      'glue.driver.jvm.heap.usage: peak 0.9767136573791504 (98% of the heap; the metric is a 0-1 fraction) at 2020-10-16T19:11:00Z, 26 points (Maximum per 60 s)',
      'glue.ALL.jvm.heap.usage: peak 0.5560557842254639 (56% of the heap; the metric is a 0-1 fraction) at 2020-10-16T18:59:00Z, 15 points (Maximum per 60 s)',
      'glue.driver.jvm.heap.used: peak 131092288 bytes (125.0 MiB) at 2020-10-16T19:11:00Z, 26 points (Maximum per 60 s)',
      'glue.ALL.jvm.heap.used: peak 74632544 bytes (71.2 MiB) at 2020-10-16T18:59:00Z, 15 points (Maximum per 60 s)',
    ]);
  });

  it('heap-metrics of a run six years old asks for the hourly points CloudWatch keeps longest', async () => {
    await fetch('heap-metrics');
    const asked = aws.fake.seen[1]?.input as
      | { MetricDataQueries: { MetricStat: { Period: number } }[] }
      | undefined;
    expect(asked?.MetricDataQueries[0]?.MetricStat.Period).toBe(3600);
  });

  it('error-log: the tail of /aws-glue/jobs/error/<run id>, as a person copies the messages', async () => {
    const got = await fetch('error-log');
    expect(aws.fake.seen[0]?.input).toEqual({
      logGroupName: '/aws-glue/jobs/error',
      logStreamName: GLUE_RUN,
      limit: 200,
      startFromHead: false,
    });
    expect(got.paste).toBe(PASTED_LOG.trimEnd());
    expect(got.citations).toEqual([
      `/aws-glue/jobs/error/${GLUE_RUN}: 3 event(s) from 2015-06-01T20:23:04.356Z to 2015-06-01T20:23:04.358Z`,
      'events[0].message = # java.lang.OutOfMemoryError: Java heap space',
    ]);
  });
});
