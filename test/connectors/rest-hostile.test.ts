import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flinkConnector } from '../../src/connectors/flink.ts';
import { ConnectorError } from '../../src/errors.ts';
import { endlessBody, gzipBomb, nestedJson, OtherServer, redirectTo, trickle } from './fakes/hostile.ts';
import { fixture, type RestFake } from './fakes/rest-fake.ts';
import { flinkFake } from './fakes/systems.ts';
import { secret, targetFor } from './support.ts';

const TOKEN = 'Bearer s3cr3t-flink-token';

/** The REST connectors (Flink, Spark, YARN share restGet) under the answers of issue 35's security review. */
describe('REST connectors under hostile answers', () => {
  let fake: RestFake;
  let url: string;
  let other: OtherServer;
  beforeEach(async () => {
    fake = flinkFake();
    url = await fake.start();
    other = new OtherServer('{"taskmanagers":1,"slots-total":1,"slots-available":1}');
  });
  afterEach(async () => {
    await fake.stop();
    await other.stop();
  });
  const overview = (overrides = {}) =>
    flinkConnector.fetch(
      { resource: 'overview' },
      {
        target: targetFor(url, {
          maxBytes: 65_536,
          timeoutMs: 1_500,
          headers: { Authorization: secret(TOKEN) },
          ...overrides,
        }),
      },
    );
  const paste = () => `paste the output of \`curl ${url}/overview\` instead`;

  it('an endless body is cut at maxBytes while reading', async () => {
    fake.override('overview', { respond: endlessBody() });
    await expect(overview()).rejects.toThrow(
      `Flink JobManager answered more than 65536 bytes to GET /overview; raise maxBytes in connectors.yaml or ${paste()}.`,
    );
  });

  it('a gzip bomb is cut at maxBytes of what it inflates to, and says so', async () => {
    fake.override('overview', { respond: gzipBomb() });
    await expect(overview()).rejects.toThrow(
      'Flink JobManager answered more than 65536 bytes (once decompressed) to GET /overview',
    );
  });

  it('a 302 to another port of the same host is refused: the Authorization header is not sent there', async () => {
    const port = await other.start();
    fake.override('overview', { respond: redirectTo(`http://127.0.0.1:${port}/overview`) });
    const error = await overview().catch((e) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error.message).toMatch(
      new RegExp(
        `^Flink JobManager redirected GET /overview to http://127\\.0\\.0\\.1:${port}, outside the url`,
      ),
    );
    expect(other.seen).toEqual([]);
  });

  it('deeply nested JSON is refused with a sentence, not "Maximum call stack size exceeded"', async () => {
    fake.override('overview', { body: nestedJson(10_000) });
    await expect(overview()).rejects.toThrow(
      'Flink JobManager answered GET /overview with JSON nested more than 128 levels deep, which no answer of its API is; memdoctor did not read it.',
    );
  });

  it('an HTML login page served as text/html is named as one', async () => {
    fake.override('overview', {
      body: fixture('html/knoxsso-login.html'),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
    await expect(overview()).rejects.toThrow(
      `Flink JobManager answered GET /overview with an HTML page, not the API's JSON (a login page or a proxy in front of it?); check the url in connectors.yaml (${url}), or ${paste()}.`,
    );
  });

  it('a body that trickles in ends at the deadline with a timeout', async () => {
    fake.override('overview', { respond: trickle() });
    const started = Date.now();
    await expect(overview({ timeoutMs: 300 })).rejects.toThrow(
      `Flink JobManager did not answer GET /overview (no answer within 300 ms); ${paste()}.`,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
