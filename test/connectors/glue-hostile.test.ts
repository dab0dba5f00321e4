import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { glueConnector } from '../../src/connectors/glue.ts';
import { ConnectorError } from '../../src/errors.ts';
import { type AwsFake, awsError } from './fakes/aws-fake.ts';
import { GLUE_JOB, GLUE_RUN, glueFake } from './fakes/aws-systems.ts';
import { endlessBody, gzipBomb, nestedJson, OtherServer, redirectTo, trickle } from './fakes/hostile.ts';
import { fixture } from './fakes/rest-fake.ts';
import { glueTargetFor, useTestCredentials } from './glue-support.ts';

const RUN = { jobName: GLUE_JOB, runId: GLUE_RUN };
const PASTE_RUN = `paste the output of \`aws glue get-job-run --job-name 'Combine legistators data' --run-id ${GLUE_RUN} --region us-east-1\` instead`;
const JSON_11 = 'application/x-amz-json-1.1';

/** What a security review sends the AWS SDK clients that hold an AWS role (issue 35, findings 1, 3 and 7). */
describe('Glue connector under hostile answers', () => {
  let fake: AwsFake;
  let url: string;
  let other: OtherServer;
  beforeEach(async () => {
    useTestCredentials();
    fake = glueFake();
    url = await fake.start();
    other = new OtherServer('{"JobRun": {}}');
  });
  afterEach(async () => {
    expect(fake.violations).toEqual([]);
    await fake.stop();
    await other.stop();
    vi.unstubAllEnvs();
  });
  const fetch = (resource: string, overrides = {}) =>
    glueConnector.fetch(
      { resource, ids: RUN },
      { target: glueTargetFor(url, { maxBytes: 65_536, timeoutMs: 15_000, ...overrides }) },
    );

  it('an endless body is cut at maxBytes while reading, not collected by the SDK to the deadline', async () => {
    fake.override('AWSGlue.GetJobRun', { respond: endlessBody(JSON_11) });
    await expect(fetch('job-run')).rejects.toThrow(
      `AWS Glue answered more than 65536 bytes to GetJobRun; raise glue.maxBytes in connectors.yaml or ${PASTE_RUN}.`,
    );
  });

  it('a gzip bomb (an encoding the SDK never asks for) is refused unread', async () => {
    fake.override('AWSGlue.GetJobRun', { respond: gzipBomb(JSON_11) });
    await expect(fetch('job-run')).rejects.toThrow(
      `AWS Glue answered GetJobRun in a gzip encoding memdoctor did not ask for; check glue.endpoint (${url}), or ${PASTE_RUN}.`,
    );
  });

  it('a 302 to another server is refused: nothing is sent there, nothing diagnosed', async () => {
    const port = await other.start();
    fake.override('AWSGlue.GetJobRun', { respond: redirectTo(`http://localhost:${port}/`) });
    const error = await fetch('job-run').catch((e) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error.message).toBe(
      `AWS Glue redirected GetJobRun to http://localhost:${port}, outside glue.endpoint (${url}); memdoctor only reads the configured address and sends its credentials nowhere else. Check glue.endpoint (${url}), or ${PASTE_RUN}.`,
    );
    expect(other.seen).toEqual([]);
  });

  it('deeply nested JSON is refused with a sentence, not a stack overflow', async () => {
    // 60 KB, under the cap: the depth is what is refused.
    fake.override('AWSGlue.GetJobRun', { body: nestedJson(10_000) });
    await expect(fetch('job-run')).rejects.toThrow(
      `AWS Glue answered GetJobRun with JSON nested more than 128 levels deep, which no answer of its API is; memdoctor did not read it.`,
    );
  });

  it('an HTML login page is named as one, not "Unexpected token" with a deserialisation hint', async () => {
    fake.override('AWSGlue.GetJobRun', {
      body: fixture('html/knoxsso-login.html'),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    const error = await fetch('job-run').catch((e) => e);
    expect(error.message).toBe(
      `AWS Glue answered GetJobRun with an HTML page, not the API's JSON (a login page or a proxy in front of it?); check glue.endpoint (${url}), or ${PASTE_RUN}.`,
    );
  });

  it('a body that trickles in ends at the deadline with a timeout, not a deserialisation hint', async () => {
    fake.override('AWSGlue.GetJobRun', { respond: trickle(50, JSON_11) });
    const started = Date.now();
    const error = await fetch('job-run', { timeoutMs: 300, maxAttempts: 3 }).catch((e) => e);
    expect(error.message).toBe(`AWS Glue did not answer GetJobRun (no answer within 300 ms); ${PASTE_RUN}.`);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('timeoutMs bounds the whole answer, retries included, not each attempt', async () => {
    fake.override(
      'AWSGlue.GetJobRun',
      awsError('InternalServiceException', 'An internal service error occurred', {
        status: 500,
        delayMs: 150,
      }),
    );
    const started = Date.now();
    await expect(fetch('job-run', { timeoutMs: 400, maxAttempts: 5 })).rejects.toThrow(
      `AWS Glue did not answer GetJobRun (no answer within 400 ms); ${PASTE_RUN}.`,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(fake.seen.length).toBeLessThan(5);
  });

  it('timeoutMs bounds the whole answer across its calls: GetJobRun then GetMetricData', async () => {
    const run = { JobRun: { Id: GLUE_RUN, JobName: GLUE_JOB, StartedOn: 1_700_000_000 } };
    fake.override('AWSGlue.GetJobRun', { body: run, delayMs: 250 });
    fake.override('GraniteServiceVersion20100801.GetMetricData', {
      body: { MetricDataResults: [] },
      delayMs: 250,
    });
    await expect(fetch('heap-metrics', { timeoutMs: 400 })).rejects.toThrow(
      /^Amazon CloudWatch did not answer GetMetricData \(no answer within 400 ms\)/,
    );
  });
});
