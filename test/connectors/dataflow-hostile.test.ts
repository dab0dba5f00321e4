import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataflowConnector } from '../../src/connectors/dataflow.ts';
import { ConnectorError } from '../../src/errors.ts';
import { DF_JOB, dataflowFake, dataflowTargetFor, TEST_TOKEN } from './fakes/dataflow-fake.ts';
import { endlessBody, gzipBomb, nestedJson, OtherServer, redirectTo, trickle } from './fakes/hostile.ts';
import { fixture, type RestFake } from './fakes/rest-fake.ts';

const GET = 'dataflow.projects.locations.jobs.get';
const LIST = 'dataflow.projects.locations.jobs.messages.list';
const DESCRIBE = `paste the output of \`gcloud dataflow jobs describe ${DF_JOB} --project gcpdiag-dataflow1-aaaa --region us-central1 --format=json\` instead`;

/** What a security review sends the googleapis client that holds a Google token (issue 35, findings 1, 3 and 7). */
describe('Dataflow connector under hostile answers', () => {
  let fake: RestFake;
  let url: string;
  let other: OtherServer;
  beforeEach(async () => {
    fake = dataflowFake();
    url = await fake.start();
    other = new OtherServer(fixture('dataflow/assembled-job-python-2.50-failed.json'));
  });
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
    await other.stop();
  });
  const fetch = (resource: string, overrides = {}) =>
    dataflowConnector.fetch(
      { resource, ids: { jobId: DF_JOB } },
      { target: dataflowTargetFor(url, { maxBytes: 65_536, timeoutMs: 15_000, ...overrides }) },
    );

  it('an endless body is cut at maxBytes while reading', async () => {
    fake.override(GET, { respond: endlessBody() });
    await expect(fetch('job')).rejects.toThrow(
      `Dataflow answered more than 65536 bytes to jobs.get; raise dataflow.maxBytes in connectors.yaml or ${DESCRIBE}.`,
    );
  });

  it('a gzip bomb is cut at maxBytes of what it inflates to', async () => {
    fake.override(GET, { respond: gzipBomb() });
    await expect(fetch('job')).rejects.toThrow(
      'Dataflow answered more than 65536 bytes (once decompressed) to jobs.get',
    );
  });

  for (const [where, host] of [
    ['another port', '127.0.0.1'],
    ['another host name', 'localhost'],
  ] as const)
    it(`a 302 to ${where} is not followed: the Google token is not sent there, its answer not diagnosed`, async () => {
      const port = await other.start();
      fake.override(GET, {
        respond: redirectTo(`http://${host}:${port}/v1b3/projects/p/locations/l/jobs/j`),
      });
      const error = await fetch('job').catch((e) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect(error.message).toBe(
        `Dataflow redirected jobs.get to http://${host}:${port}, outside dataflow.endpoint (${url}); memdoctor only reads the configured address and sends its credentials nowhere else. Check dataflow.endpoint (${url}), or ${DESCRIBE}.`,
      );
      expect(other.seen).toEqual([]);
      expect(JSON.stringify(other.seen)).not.toContain(TEST_TOKEN);
    });

  it('deeply nested JSON is refused with a sentence, not a stack overflow', async () => {
    fake.override(GET, { body: nestedJson(10_000) });
    await expect(fetch('job')).rejects.toThrow(
      'Dataflow answered jobs.get with JSON nested more than 128 levels deep, which no answer of its API is; memdoctor did not read it.',
    );
  });

  it('an HTML login page is named as one', async () => {
    fake.override(GET, {
      body: fixture('html/knoxsso-login.html'),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    const error = await fetch('job').catch((e) => e);
    expect(error.message).toBe(
      `Dataflow answered jobs.get with an HTML page, not the API's JSON (a login page or a proxy in front of it?); check dataflow.endpoint (${url}), or ${DESCRIBE}.`,
    );
  });

  it('a body that trickles in ends at the deadline with a timeout', async () => {
    fake.override(GET, { respond: trickle() });
    const started = Date.now();
    await expect(fetch('job', { timeoutMs: 300 })).rejects.toThrow(
      `Dataflow did not answer jobs.get (no answer within 300 ms); ${DESCRIBE}.`,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('timeoutMs bounds the whole answer, every page of messages included', async () => {
    fake.override(LIST, { delayMs: 150, body: JSON.stringify({ jobMessages: [], nextPageToken: '2' }) });
    await expect(fetch('messages', { timeoutMs: 400 })).rejects.toThrow(
      /^Dataflow did not answer jobs\.messages\.list \(no answer within 400 ms\)/,
    );
  });
});
