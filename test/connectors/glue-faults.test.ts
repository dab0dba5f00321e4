import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { glueConnector } from '../../src/connectors/glue.ts';
import { ConnectorError } from '../../src/errors.ts';
import { type AwsFake, awsError, TEST_CREDENTIALS } from './fakes/aws-fake.ts';
import { GLUE_JOB, GLUE_RUN, glueFake } from './fakes/aws-systems.ts';
import { glueTargetFor, useNoCredentials, useTestCredentials } from './glue-support.ts';

const RUN = { jobName: GLUE_JOB, runId: GLUE_RUN };
const PASTE_RUN = `paste the output of \`aws glue get-job-run --job-name 'Combine legistators data' --run-id ${GLUE_RUN} --region us-east-1\` instead`;
// A real AccessDeniedException message of Glue (LBHackney-IT/Data-Platform#2274, for GetJobRuns).
const DENIED =
  'User: arn:aws:sts::120038763019:assumed-role/mwaa_execution_role/AmazonMWAA-airflow is not authorized to perform: glue:GetJobRuns on resource: arn:aws:glue:eu-west-2:120038763019:job/Copy parking Liberator landing zone to raw because no identity-based policy allows the glue:GetJobRuns action';

describe('Glue connector faults', () => {
  let fake: AwsFake;
  let url: string;
  beforeEach(async () => {
    useTestCredentials();
    fake = glueFake();
    url = await fake.start();
  });
  afterEach(async () => {
    await fake.stop();
    vi.unstubAllEnvs();
  });
  const fetch = (resource: string, ids: Record<string, string> = RUN, overrides = {}) =>
    glueConnector.fetch({ resource, ids }, { target: glueTargetFor(url, overrides) });

  it('an unknown job says what was not found and where to look', async () => {
    await expect(fetch('job-run', { ...RUN, jobName: 'nightly rollup' })).rejects.toThrow(
      `AWS Glue has no job run ${GLUE_RUN} of job "nightly rollup" (EntityNotFoundException: Job with name: nightly rollup not found.): check the names, and that us-east-1 is the region the job runs in.`,
    );
    expect(fake.violations).toEqual([]);
  });

  it('access denied names the IAM action the credentials need, and never the secret key', async () => {
    fake.override('AWSGlue.GetJobRun', awsError('AccessDeniedException', DENIED));
    const error = await fetch('job-run').catch((e) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error.message).toMatch(
      /^AWS Glue refused GetJobRun \(AccessDeniedException: User: arn:aws:sts::.*\): the credentials need glue:GetJobRun \(read-only; docs\/connectors.md has the policy\)\.$/,
    );
    expect(error.message).not.toContain(TEST_CREDENTIALS.secretAccessKey);
    expect(fake.violations).toEqual([]);
  });

  it("CloudWatch's access denied, in its query-compatible shape, names cloudwatch:GetMetricData", async () => {
    fake.override(
      'GraniteServiceVersion20100801.GetMetricData',
      awsError('AccessDeniedException', 'User is not authorized to perform: cloudwatch:GetMetricData', {
        headers: { 'x-amzn-query-error': 'AccessDenied;Sender' },
      }),
    );
    await expect(fetch('heap-metrics')).rejects.toThrow(
      /^Amazon CloudWatch refused GetMetricData \(AccessDenied: User is not authorized.*\): the credentials need cloudwatch:GetMetricData/,
    );
  });

  it('a run with no error stream says so, and where else the log may be', async () => {
    await expect(fetch('error-log', RUN, { logGroup: '/custom/errors' })).rejects.toThrow(
      /^CloudWatch Logs has no error log stream jr_\w+ in \/custom\/errors \(a run that logged no error has none.*\(ResourceNotFoundException: The specified log stream does not exist\.\)/,
    );
  });

  it('throttling is retried by the SDK, then said with the attempts made', async () => {
    fake.override('AWSGlue.GetJobRun', awsError('ThrottlingException', 'Rate exceeded'));
    await expect(fetch('job-run', RUN, { maxAttempts: 2 })).rejects.toThrow(
      `AWS Glue throttled GetJobRun (ThrottlingException: Rate exceeded) after 2 attempt(s); try again in a minute, or ${PASTE_RUN}.`,
    );
    expect(fake.seen).toHaveLength(2);
  });

  it('a 5xx says the service did not answer and offers the paste', async () => {
    fake.override(
      'AWSGlue.GetJobRun',
      awsError('InternalServiceException', 'An internal service error occurred', { status: 500 }),
    );
    await expect(fetch('job-run')).rejects.toThrow(
      `AWS Glue did not answer GetJobRun (HTTP 500, InternalServiceException); ${PASTE_RUN}.`,
    );
  });

  it('a slow answer stops at the timeout and offers the paste', async () => {
    fake.override('AWSGlue.GetJobRun', { delayMs: 2_000, body: {} });
    const started = Date.now();
    await expect(fetch('job-run', RUN, { timeoutMs: 200 })).rejects.toThrow(
      `AWS Glue did not answer GetJobRun (no answer within 200 ms); ${PASTE_RUN}.`,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('a refused connection offers the paste', async () => {
    await fake.stop();
    await expect(fetch('error-log')).rejects.toThrow(
      /^CloudWatch Logs did not answer GetLogEvents \(ECONNREFUSED\); paste the output of `aws logs get-log-events --log-group-name \/aws-glue\/jobs\/error --log-stream-name jr_\w+ --no-start-from-head --limit 200 --region us-east-1/,
    );
    fake = glueFake();
    await fake.start();
  });

  it('no credentials anywhere in the chain says where the SDK looks', async () => {
    useNoCredentials();
    await expect(fetch('job-run')).rejects.toThrow(
      /^memdoctor found no AWS credentials for AWS Glue \(.*\): give the process a role, AWS_PROFILE or ~\/.aws credentials, or name a profile in connectors.yaml \(glue.profile\)\.$/,
    );
    expect(fake.seen).toEqual([]);
  });

  it('sends one request at a time to an account', async () => {
    fake.override('AWSGlue.GetJobRun', {
      delayMs: 100,
      body: { JobRun: { Id: GLUE_RUN, JobName: GLUE_JOB } },
    });
    await Promise.all([fetch('job-run'), fetch('job-run'), fetch('job-run')]);
    expect(fake.seen).toHaveLength(3);
    expect(fake.maxInFlight).toBe(1);
  });

  it('refuses a run id that is not one before anything is sent', async () => {
    await expect(fetch('job-run', { ...RUN, runId: '../jr_1' })).rejects.toThrow(
      /^AWS Glue: "..\/jr_1" is not a job run id \(expected something like jr_012e/,
    );
    expect(fake.seen).toEqual([]);
  });
});

describe('the fake AWS endpoint checks what it is sent', () => {
  let fake: AwsFake;
  let url: string;
  beforeEach(async () => {
    fake = glueFake();
    url = await fake.start();
  });
  afterEach(async () => {
    await fake.stop();
    vi.unstubAllEnvs();
  });

  it('refuses a request without a SigV4 signature', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'x-amz-target': 'AWSGlue.GetJobRun', 'content-type': 'application/x-amz-json-1.1' },
      body: JSON.stringify(RUN),
    });
    expect(response.status).toBe(400);
    expect(fake.violations).toEqual(['AWSGlue.GetJobRun: no SigV4 Authorization header']);
  });

  it('refuses a request signed with another secret key', async () => {
    useTestCredentials({ accessKeyId: TEST_CREDENTIALS.accessKeyId, secretAccessKey: 'not-the-test-secret' });
    await expect(
      glueConnector.fetch({ resource: 'job-run', ids: RUN }, { target: glueTargetFor(url) }),
    ).rejects.toThrow(/ValidationException/);
    expect(fake.violations).toEqual(['AWSGlue.GetJobRun: the signature does not match the request']);
  });

  it('refuses a request signed for another region', async () => {
    useTestCredentials();
    await expect(
      glueConnector.fetch(
        { resource: 'job-run', ids: RUN },
        { target: glueTargetFor(url, { region: 'eu-west-1' }) },
      ),
    ).rejects.toThrow(ConnectorError);
    expect(fake.violations).toEqual([
      'AWSGlue.GetJobRun: signed for AKIDEXAMPLE eu-west-1/glue, not us-east-1/glue',
    ]);
  });
});
