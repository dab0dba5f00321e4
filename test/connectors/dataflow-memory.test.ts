import { describe, expect, it } from 'vitest';
import { dataflowConnector } from '../../src/connectors/dataflow.ts';
import { alignmentFor, jobWindow } from '../../src/connectors/dataflow-memory.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { ConnectorError } from '../../src/errors.ts';
import {
  DF_JOB,
  DF_PROJECT,
  dataflowFake,
  dataflowTargetFor,
  PYTHON_JOB,
  TEST_TOKEN,
} from './fakes/dataflow-fake.ts';
import { endlessBody, OtherServer, redirectTo } from './fakes/hostile.ts';
import { fixture } from './fakes/rest-fake.ts';
import { FIXED_NOW, useFake } from './support.ts';

const LIST = 'monitoring.projects.timeSeries.list';
const timeSeriesCalls = (seen: readonly { path: string }[]) =>
  seen.map((s) => new URL(s.path, 'http://fake')).filter((u) => u.pathname.endsWith('/timeSeries'));

describe("Dataflow workers' memory from Cloud Monitoring, through the real googleapis client against the fake", () => {
  const running = useFake(() => dataflowFake());
  const fetch = (overrides = {}) =>
    dataflowConnector.fetch(
      { resource: 'memory', ids: { jobId: DF_JOB } },
      { target: dataflowTargetFor(running.url, overrides), now: FIXED_NOW },
    );

  it("jobs.get names the job and its run; timeSeries.list asks each metric for the job's workers over that run", async () => {
    const got = await fetch();
    const calls = timeSeriesCalls(running.fake.seen);
    // Two metrics, two workers each, one series a page: four pages.
    expect(running.fake.seen).toHaveLength(5);
    expect(calls.map((u) => u.pathname)).toEqual(Array(4).fill(`/v3/projects/${DF_PROJECT}/timeSeries`));
    expect(calls.map((u) => u.searchParams.get('pageToken'))).toEqual([null, '1', null, '1']);
    expect(calls[0]?.searchParams.get('filter')).toBe(
      'metric.type = "dataflow.googleapis.com/worker/memory/bytes_used" AND resource.type = "dataflow_worker" AND resource.labels.job_name = "wordcount"',
    );
    expect(calls[2]?.searchParams.get('filter')).toContain('worker/memory/container_limit');
    // The job ran 14:03:27.118 to 14:07:14.170 (JOB_STATE_FAILED); a minute more keeps the last gauge.
    expect(calls[0]?.searchParams.get('interval.startTime')).toBe('2026-05-18T14:03:27.118Z');
    expect(calls[0]?.searchParams.get('interval.endTime')).toBe('2026-05-18T14:08:14.170Z');
    expect(calls[0]?.searchParams.get('view')).toBe('FULL');
    expect(running.fake.seen[1]?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(got.parser).toBe('cloud-monitoring-series');
    expect(got.citations).toEqual([
      "interval: 2026-05-18T14:03:27.118Z to 2026-05-18T14:08:14.170Z (the job's run), raw points",
      'worker/memory/bytes_used: 2 series, 21 points; highest 251203584 bytes (239.6 MiB) (container harness) at 2026-05-18T14:06:43Z',
      'worker/memory/container_limit: 2 series, 21 points; highest 268435456 bytes (256.0 MiB) (container harness) at 2026-05-18T14:06:43Z',
    ]);
  });

  it('the fetched answer is judged as the pasted pair of answers is, and gives the chart', async () => {
    const got = await fetch();
    const fetched = parseText('cloud-monitoring-series', got.paste);
    const pasted = parseText(
      'cloud-monitoring-series',
      fixture('../../engine/parsers/fixtures/cloud-monitoring-series/assembled-dataflow-worker-oom.json'),
    );
    expect(fetched.values).toEqual(pasted.values);
    expect(fetched.verdict).toBe('worker container reached 94% of its memory limit');
    expect(fetched.chart).toEqual(pasted.chart);
  });

  it('pages stop at maxPages, and the citation says more were left', async () => {
    const got = await fetch({ maxPages: 1 });
    expect(timeSeriesCalls(running.fake.seen)).toHaveLength(2);
    expect(got.citations[1]).toMatch(
      /^worker\/memory\/bytes_used: 1 series, 13 points; .*\(more pages not read: dataflow\.maxPages\)$/,
    );
  });

  it('refused by Cloud Monitoring: names monitoring.timeSeries.list and roles/monitoring.viewer', async () => {
    const error = await fetch({ project: 'another-project' }).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    // jobs.get of another project is Dataflow's 404 here; the memory needs the job first.
    expect(error.message).toContain('Dataflow has no job');
    running.fake.override(LIST, {
      status: 403,
      body: JSON.stringify({
        error: {
          code: 403,
          message: 'Permission monitoring.timeSeries.list denied (or the resource may not exist).',
          status: 'PERMISSION_DENIED',
        },
      }),
    });
    await expect(fetch()).rejects.toThrow(
      `Cloud Monitoring refused timeSeries.list (PERMISSION_DENIED: Permission monitoring.timeSeries.list denied (or the resource may not exist).): the credentials need monitoring.timeSeries.list on project ${DF_PROJECT}, which roles/monitoring.viewer grants (read-only; docs/connectors.md).`,
    );
  });

  it('an endless body from Cloud Monitoring is cut at maxBytes while reading', async () => {
    running.fake.override(LIST, { respond: endlessBody() });
    await expect(fetch({ maxBytes: 65_536 })).rejects.toThrow(
      /^Cloud Monitoring answered more than 65536 bytes to timeSeries\.list; raise dataflow\.maxBytes in connectors\.yaml or paste the output of `curl .*monitoring\.googleapis\.com\/v3\/projects\/gcpdiag-dataflow1-aaaa\/timeSeries\?filter=/,
    );
  });

  it('a redirect off monitoringEndpoint is not followed: the token is not sent there', async () => {
    const other = new OtherServer('{}');
    const port = await other.start();
    try {
      running.fake.override(LIST, {
        respond: redirectTo(`http://localhost:${port}/v3/projects/p/timeSeries`),
      });
      const error = await fetch().catch((e) => e);
      expect(error.message).toMatch(
        new RegExp(
          `^Cloud Monitoring redirected timeSeries\\.list to http://localhost:${port}, outside dataflow\\.monitoringEndpoint \\(${running.url}\\)`,
        ),
      );
      expect(other.seen).toEqual([]);
    } finally {
      await other.stop();
    }
  });
});

describe('a job whose workers Cloud Monitoring holds nothing of', () => {
  const running = useFake(() => dataflowFake({ ...PYTHON_JOB, memory: undefined }));

  it('answers {} for each metric: the paste is empty, and the resource says what that means', async () => {
    const got = await dataflowConnector.fetch(
      { resource: 'memory', ids: { jobId: DF_JOB } },
      { target: dataflowTargetFor(running.url), now: FIXED_NOW },
    );
    expect(got.paste).toBe('');
    expect(got.citations.slice(1)).toEqual([
      'worker/memory/bytes_used: no points',
      'worker/memory/container_limit: no points',
    ]);
    expect(dataflowConnector.resources.memory?.empty).toMatch(
      /^Cloud Monitoring holds no worker memory points/,
    );
  });
});

describe('jobWindow', () => {
  const job = JSON.parse(fixture('dataflow/assembled-job-python-2.50-failed.json'));
  it('a running job is read up to now; an ended one to its end and a minute more, never past now', () => {
    const now = new Date('2026-05-18T14:05:00Z');
    expect(jobWindow({ ...job, currentState: 'JOB_STATE_RUNNING' }, now).end).toEqual(now);
    expect(jobWindow(job, now).end).toEqual(now);
    expect(jobWindow(job, FIXED_NOW()).end.toISOString()).toBe('2026-05-18T14:08:14.170Z');
  });
});

describe("a long run is thinned by Cloud Monitoring, keeping every window's peak", () => {
  const running = useFake(() => dataflowFake());

  it('a job still running two days later: ALIGN_MAX over whole minutes, at most 500 points a series', async () => {
    const later = () => new Date('2026-05-20T14:03:27.118Z');
    const job = JSON.parse(fixture('dataflow/assembled-job-python-2.50-failed.json'));
    const window = { start: new Date(job.startTime), end: later() };
    expect(alignmentFor(window)).toEqual({
      'aggregation.alignmentPeriod': '360s',
      'aggregation.perSeriesAligner': 'ALIGN_MAX',
    });
    expect(alignmentFor({ start: window.start, end: new Date(job.currentStateTime) })).toEqual({});
    running.fake.override('dataflow.projects.locations.jobs.get', {
      body: JSON.stringify({ ...job, currentState: 'JOB_STATE_RUNNING' }),
    });
    const got = await dataflowConnector.fetch(
      { resource: 'memory', ids: { jobId: DF_JOB } },
      { target: dataflowTargetFor(running.url), now: later },
    );
    const [first] = timeSeriesCalls(running.fake.seen);
    expect(first?.searchParams.get('aggregation.alignmentPeriod')).toBe('360s');
    expect(got.citations[0]).toBe(
      "interval: 2026-05-18T14:03:27.118Z to 2026-05-20T14:03:27.118Z (the job's run), the maximum of each 360s",
    );
    // The leak's three minutes fall into one or two windows of six minutes: their maximum is still the peak before the kill.
    const read = parseText('cloud-monitoring-series', got.paste);
    expect(read.values.workerMemoryPeakBytes).toBe(251203584);
  });
});
