import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataflowConnector } from '../../src/connectors/dataflow.ts';
import { ConnectorError } from '../../src/errors.ts';
import {
  DF_JOB,
  DF_PROJECT,
  dataflowFake,
  dataflowTargetFor,
  TEST_TOKEN,
  testAuth,
} from './fakes/dataflow-fake.ts';
import { signedBy, testServiceAccount } from './fakes/google-credentials.ts';
import { useFake } from './support.ts';

// The message Dataflow answered a caller without the role (googleapis/google-cloud-node#6283).
const DENIED = JSON.stringify({
  error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' },
});
const DESCRIBE = `gcloud dataflow jobs describe ${DF_JOB} --project gcpdiag-dataflow1-aaaa --region us-central1 --format=json`;

describe('Dataflow connector faults', () => {
  const running = useFake(() => dataflowFake());
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  const fetch = (resource: string, overrides = {}, jobId = DF_JOB) =>
    dataflowConnector.fetch(
      { resource, ids: { jobId } },
      { target: dataflowTargetFor(running.url, overrides) },
    );

  it('401: the credentials were refused, and where Application Default Credentials come from', async () => {
    const error = await fetch('job', { auth: testAuth('ya29.expired') }).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error.message).toMatch(
      /^Dataflow did not accept the credentials for jobs.get \(UNAUTHENTICATED: Request had invalid authentication credentials\..*\): check Application Default Credentials/,
    );
    expect(error.message).not.toContain('ya29');
  });

  it('403: names the permission and roles/dataflow.viewer', async () => {
    running.fake.override('dataflow.projects.locations.jobs.messages.list', { status: 403, body: DENIED });
    await expect(fetch('messages')).rejects.toThrow(
      'Dataflow refused jobs.messages.list (PERMISSION_DENIED: The caller does not have permission): the credentials need dataflow.messages.list on project gcpdiag-dataflow1-aaaa, which roles/dataflow.viewer grants (read-only; docs/connectors.md).',
    );
  });

  it('404: says which job was not found, and where it was looked for', async () => {
    await expect(fetch('job', {}, '2026-05-18_07_03_26-1')).rejects.toThrow(
      /^Dataflow has no job 2026-05-18_07_03_26-1 in project gcpdiag-dataflow1-aaaa, region us-central1 \(.*\): check the job id, and that us-central1 is the region the job runs in\.$/,
    );
  });

  it('5xx: the API did not answer, and the command to paste instead', async () => {
    running.fake.override('dataflow.projects.locations.jobs.get', { status: 503, body: '' });
    await expect(fetch('job')).rejects.toThrow(
      `Dataflow did not answer jobs.get (HTTP 503); paste the output of \`${DESCRIBE}\` instead.`,
    );
    expect(running.fake.seen).toHaveLength(1);
  });

  it('a timeout says how long it waited, and offers the paste', async () => {
    running.fake.override('dataflow.projects.locations.jobs.get', { delayMs: 2_000, body: '{}' });
    await expect(fetch('job', { timeoutMs: 200 })).rejects.toThrow(
      `Dataflow did not answer jobs.get (no answer within 200 ms); paste the output of \`${DESCRIBE}\` instead.`,
    );
  });

  it('an answer over maxBytes is refused', async () => {
    await expect(fetch('messages', { maxBytes: 1024 })).rejects.toThrow(
      /^Dataflow answered more than 1024 bytes to jobs\.messages\.list; raise dataflow\.maxBytes in connectors\.yaml or paste the output of/,
    );
  });

  it('no credentials at all: says how to give memdoctor some, and sends nothing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'memdoctor-adc-'));
    vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', undefined);
    vi.stubEnv('HOME', empty);
    vi.stubEnv('CLOUDSDK_CONFIG', join(empty, 'gcloud'));
    vi.stubEnv('METADATA_SERVER_DETECTION', 'none');
    const { auth: _unused, ...noAuth } = dataflowTargetFor(running.url);
    const error = await dataflowConnector
      .fetch({ resource: 'job', ids: { jobId: DF_JOB } }, { target: noAuth })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error.message).toMatch(
      /^memdoctor found no Google credentials for Dataflow: set GOOGLE_APPLICATION_CREDENTIALS/,
    );
    expect(running.fake.seen).toEqual([]);
  });

  it('the token the client holds is sent as a bearer token, and never appears in a message', async () => {
    running.fake.override('dataflow.projects.locations.jobs.get', { status: 500, body: '' });
    const error = await fetch('job').catch((e) => e);
    expect(running.fake.seen[0]?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(error.message).not.toContain(TEST_TOKEN);
  });
});

describe('Dataflow connector with Application Default Credentials, as in production', () => {
  const account = testServiceAccount(DF_PROJECT);
  const running = useFake(() => dataflowFake(undefined, account));
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('a service-account key named by GOOGLE_APPLICATION_CREDENTIALS signs the requests', async () => {
    vi.stubEnv('GOOGLE_APPLICATION_CREDENTIALS', account.file);
    const { auth: _unused, ...adc } = dataflowTargetFor(running.url);
    const got = await dataflowConnector.fetch({ resource: 'job', ids: { jobId: DF_JOB } }, { target: adc });
    expect(got.citations[0]).toBe('job.currentState = JOB_STATE_FAILED');
    const token = running.fake.seen[0]?.headers.authorization?.replace('Bearer ', '') ?? '';
    expect(signedBy(token, account)).toBe(true);
  });
});
