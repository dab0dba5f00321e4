import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flinkConnector } from '../../src/connectors/flink.ts';
import { ConnectorError } from '../../src/errors.ts';
import type { RestFake } from './fakes/rest-fake.ts';
import { FLINK_JOB, FLINK_TM, flinkFake } from './fakes/systems.ts';
import { secret, targetFor } from './support.ts';

describe('connector faults', () => {
  let fake: RestFake;
  let url: string;
  beforeEach(async () => {
    fake = flinkFake();
    url = await fake.start();
  });
  afterEach(async () => {
    await fake.stop();
  });
  const overview = (overrides = {}) =>
    flinkConnector.fetch({ resource: 'overview' }, { target: targetFor(url, overrides) });

  it('401 says the API needs credentials and where to set them', async () => {
    fake.override('overview', { status: 401 });
    await expect(overview()).rejects.toThrow(
      /^Flink JobManager answered 401 \(not authenticated\) to GET \/overview: it needs read access to the JobManager REST API.*set the credentials in connectors.yaml headers/,
    );
  });

  it('403 names the permission the credentials lack, and never the secret', async () => {
    fake.override('overview', { status: 403 });
    const error = await overview({ headers: { Authorization: secret('Bearer s3cr3t-token') } }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error.message).toMatch(
      /answered 403 \(forbidden\) to GET \/overview: the configured credentials lack read access/,
    );
    expect(error.message).not.toContain('s3cr3t');
    expect(fake.seen[0]?.headers.authorization).toBe('Bearer s3cr3t-token');
  });

  it('5xx says the system did not answer and offers the paste', async () => {
    fake.override('overview', { status: 503 });
    await expect(overview()).rejects.toThrow(
      `Flink JobManager did not answer (HTTP 503 for GET /overview); paste the output of \`curl ${url}/overview\` instead.`,
    );
  });

  it("a job's exceptions: 404 says which job is missing, 5xx offers the paste of the same curl", async () => {
    const exceptions = (jobId: string) =>
      flinkConnector.fetch({ resource: 'exceptions', ids: { jobId } }, { target: targetFor(url) });
    await expect(exceptions('0'.repeat(32))).rejects.toThrow(
      `Flink JobManager has no job with that id (404 for GET /jobs/${'0'.repeat(32)}/exceptions)`,
    );
    fake.override('exceptions', { status: 500 });
    await expect(exceptions(FLINK_JOB)).rejects.toThrow(
      `Flink JobManager did not answer (HTTP 500 for GET /jobs/${FLINK_JOB}/exceptions); paste the output of \`curl ${url}/jobs/${FLINK_JOB}/exceptions\` instead.`,
    );
  });

  it("a TaskManager's metrics: 404 says which TaskManager is missing, 5xx offers the paste with the gauges asked", async () => {
    const metrics = (taskManagerId: string) =>
      flinkConnector.fetch(
        { resource: 'taskmanager-metrics', ids: { taskManagerId } },
        { target: targetFor(url) },
      );
    // Flink answers [] for an id it does not know (AbstractMetricsHandler); a 404 comes from what stands
    // in front of it (a proxy, a JobManager that is gone), and is told the same way as for any resource.
    fake.override('taskmanager-metrics', { status: 404, body: '' });
    await expect(metrics('container_e07_1647426438639_0022_01_000002')).rejects.toThrow(
      /^Flink JobManager has no TaskManager with that id \(404 for GET \/taskmanagers\/container_e07_1647426438639_0022_01_000002\/metrics\?get=Status\.JVM\.Memory\.Heap\.Used,/,
    );
    fake.override('taskmanager-metrics', { status: 503 });
    const error = await metrics(FLINK_TM).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error.message).toMatch(/^Flink JobManager did not answer \(HTTP 503 for GET \/taskmanagers\//);
    expect(error.message).toContain(
      `paste the output of \`curl "${url}/taskmanagers/${encodeURIComponent(FLINK_TM)}/metrics?get=Status.JVM.Memory.Heap.Used,`,
    );
  });

  it('a slow answer stops at the timeout and offers the paste', async () => {
    // The answer would come only after the test timeout: a connector that waited for it fails the test.
    fake.override('overview', { delayMs: 120_000, body: '{}' });
    await expect(overview({ timeoutMs: 200 })).rejects.toThrow(
      /did not answer GET \/overview \(no answer within 200 ms\); paste the output of/,
    );
    // It gave up while the answer was still on its way, not once it came.
    expect(fake.pending).toBe(1);
  });

  it('a refused connection offers the paste', async () => {
    await fake.stop();
    await expect(overview()).rejects.toThrow(
      /did not answer GET \/overview \(ECONNREFUSED\); paste the output/,
    );
    fake = flinkFake();
    await fake.start();
  });

  it('an answer over the size cap is refused, declared or streamed', async () => {
    fake.override('overview', { body: 'x'.repeat(4096) });
    await expect(overview({ maxBytes: 1024 })).rejects.toThrow(
      /answered more than 1024 bytes to GET \/overview/,
    );
    fake.override('overview', { body: 'x'.repeat(4096), headers: { 'transfer-encoding': 'chunked' } });
    await expect(overview({ maxBytes: 1024 })).rejects.toThrow(/answered more than 1024 bytes/);
  });

  it('a redirect to another host is refused without following it', async () => {
    let hits = 0;
    const other = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const port = (other.address() as AddressInfo).port;
    fake.override('overview', { status: 302, headers: { location: `http://localhost:${port}/overview` } });
    await expect(overview()).rejects.toThrow(
      `Flink JobManager redirected GET /overview to http://localhost:${port}, outside the url in connectors.yaml (${url}); memdoctor only reads the configured address and sends its credentials nowhere else.`,
    );
    expect(hits).toBe(0);
    await new Promise((r) => other.close(r));
  });

  it('a redirect on the same host is followed', async () => {
    fake.override('overview', { status: 307, headers: { location: '/taskmanagers' } });
    const got = await overview();
    expect(JSON.parse(got.body).taskmanagers[0].slotsNumber).toBe(12);
  });

  it('an answer that is not JSON (a login page) is refused with what to check', async () => {
    fake.override('overview', { body: '<html>Sign in</html>' });
    await expect(overview()).rejects.toThrow(
      /with an HTML page, not the API's JSON \(a login page or a proxy in front of it\?\)/,
    );
    fake.override('overview', { body: '{"taskmanagers": 1,' });
    await expect(overview()).rejects.toThrow(
      `Flink JobManager answered GET /overview with something that is not JSON (a proxy in front of it?); check the url in connectors.yaml (${url}), or paste the output of \`curl ${url}/overview\` instead.`,
    );
  });

  it('sends one request at a time to a target', async () => {
    fake.override('overview', {
      delayMs: 100,
      body: '{"taskmanagers":1,"slots-total":1,"slots-available":1}',
    });
    await Promise.all([overview(), overview(), overview()]);
    expect(fake.seen).toHaveLength(3);
    expect(fake.maxInFlight).toBe(1);
  });

  it('the fake itself answers a request outside the API shape with 404 and records it', async () => {
    const response = await fetch(`${url}/jobs/overview?x=1`);
    expect(response.status).toBe(404);
    expect(fake.violations).toEqual(['GET /jobs/overview: no such endpoint']);
  });
});
