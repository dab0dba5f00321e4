import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataflowConnector } from '../../src/connectors/dataflow.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import {
  DF_JOB,
  DF_LOCATION,
  DF_PROJECT,
  dataflowFake,
  dataflowTargetFor,
  FAKE_PAGE,
} from './fakes/dataflow-fake.ts';
import { fixture } from './fakes/rest-fake.ts';
import { FIXED_NOW, useFake } from './support.ts';

/** What Beam's DataflowRunner printed for the same messages (test/engine/parsers/fixtures/SOURCES.md). */
const PASTED_RUNNER_LOG = readFileSync(
  join(
    import.meta.dirname,
    '..',
    'engine',
    'parsers',
    'fixtures',
    'dataflow-messages',
    'assembled-runner-log-workers-lost.txt',
  ),
  'utf8',
);
const WHERE = `projects/${DF_PROJECT}/locations/${DF_LOCATION}/jobs/${DF_JOB}`;

describe('Dataflow connector through the real googleapis client against a loopback fake', () => {
  const running = useFake(() => dataflowFake());
  const fetch = (resource: string, overrides = {}) =>
    dataflowConnector.fetch(
      { resource, ids: { jobId: DF_JOB } },
      { target: dataflowTargetFor(running.url, overrides), now: FIXED_NOW },
    );

  it('job: jobs.get with the description view, the job printed as its JSON, its SDK cited', async () => {
    const got = await fetch('job');
    expect(running.fake.seen.map((s) => s.path)).toEqual([`/v1b3/${WHERE}?view=JOB_VIEW_DESCRIPTION`]);
    expect(running.fake.seen[0]?.headers['user-agent']).toMatch(/google-api-nodejs-client/);
    expect(got.from).toEqual({
      connector: 'dataflow',
      path: `jobs.get ${WHERE}`,
      fetchedAt: '2026-12-03T11:00:00.000Z',
    });
    expect(JSON.parse(got.paste)).toEqual(
      JSON.parse(fixture('dataflow/assembled-job-python-2.50-failed.json')),
    );
    expect(got.citations).toEqual([
      'job.currentState = JOB_STATE_FAILED',
      'job.type = JOB_TYPE_BATCH',
      'job.jobMetadata.sdkVersion = Apache Beam Python 3.10 SDK 2.50.0 (SUPPORTED)',
    ]);
  });

  it('messages: every page at JOB_MESSAGE_ERROR, read as the pasted runner log is', async () => {
    const got = await fetch('messages');
    const query = running.fake.seen.map((s) => new URL(s.path, 'http://x').searchParams.toString());
    expect(query).toEqual([
      'minimumImportance=JOB_MESSAGE_ERROR&pageSize=100',
      `minimumImportance=JOB_MESSAGE_ERROR&pageSize=100&pageToken=${FAKE_PAGE}`,
    ]);
    expect(got.parser).toBe('dataflow-messages');
    const fetched = parseText('dataflow-messages', got.paste);
    const pasted = parseText('dataflow-messages', PASTED_RUNNER_LOG);
    expect(fetched.values).toEqual(pasted.values);
    expect(fetched.verdict).toBe('workers lost, most often to memory');
    expect(fetched.values).toMatchObject({ errors: 3, workerLost: 2, harnessLost: 1, workItemAttempts: 4 });
    expect(got.citations).toEqual([
      'jobMessages: 3 at JOB_MESSAGE_ERROR or above from 2026-05-18T14:05:41.602Z to 2026-05-18T14:07:13.905Z, 2 page(s)',
      'jobMessages[0].messageText = Error message from worker: ',
    ]);
  });

  it('messages: pages stop at maxPages, and the citation says more were left', async () => {
    const got = await fetch('messages', { maxPages: 1 });
    expect(running.fake.seen).toHaveLength(1);
    expect(got.citations[0]).toMatch(
      /2 at JOB_MESSAGE_ERROR .*1 page\(s\) \(more pages not read: dataflow.maxPages\)$/,
    );
  });

  it('metrics: jobs.getMetrics, cited by count and time, not judged', async () => {
    const got = await fetch('metrics');
    expect(running.fake.seen.map((s) => s.path)).toEqual([`/v1b3/${WHERE}/metrics`]);
    expect(got.parser).toBeUndefined();
    expect(got.citations).toEqual(['metrics: 2 update(s) at 2026-05-18T14:07:14.170Z']);
  });

  it('one call at a time for one project and region, even when asked at once', async () => {
    await Promise.all([fetch('job'), fetch('messages'), fetch('metrics')]);
    expect(running.fake.maxInFlight).toBe(1);
  });

  it('refuses an id that is not a Dataflow job id before any request', async () => {
    await expect(
      dataflowConnector.fetch(
        { resource: 'job', ids: { jobId: '../jobs' } },
        { target: dataflowTargetFor(running.url) },
      ),
    ).rejects.toThrow(
      'Dataflow: "../jobs" is not a job id (expected something like 2024-06-19_09_43_07-14927685200167458422).',
    );
    expect(running.fake.seen).toEqual([]);
  });
});
