import { afterEach, describe, expect, it } from 'vitest';
import { flinkConnector } from '../../src/connectors/flink.ts';
import { sparkConnector } from '../../src/connectors/spark.ts';
import { yarnConnector } from '../../src/connectors/yarn.ts';
import { ConnectorError } from '../../src/errors.ts';
import type { RestFake } from './fakes/rest-fake.ts';
import { FLINK_TM, flinkFake, SPARK_APP, sparkFake, yarnFake } from './fakes/systems.ts';
import { FIXED_NOW, targetFor } from './support.ts';

// Issue 35 finding 4: a typed id of dots was put in the path as it was, and the URL parser folded
// it away: `check spark ..` asked GET /api/v1/allexecutors, a TaskManager id `..` the JobManager's /metrics.
describe('ids are checked against their grammar before a path is built', () => {
  let fake: RestFake;
  afterEach(async () => {
    await fake.stop();
  });

  async function start(make: () => RestFake) {
    fake = make();
    return targetFor(await fake.start());
  }

  it.each(['..', '.', '...', '', '../x', 'a/../..', '%2e%2e', 'app-1/..', ' app-1'])(
    'a Spark application id %j is refused and nothing is requested',
    async (appId) => {
      const target = await start(() => sparkFake());
      const asked = sparkConnector.fetch(
        { resource: 'executors', ids: { appId } },
        { target, now: FIXED_NOW },
      );
      await expect(asked).rejects.toBeInstanceOf(ConnectorError);
      await expect(asked).rejects.toThrow(/is not a appId|is not an? application id/);
      expect(fake.seen).toEqual([]);
    },
  );

  it.each(['..', '.', '', '../..', '..:1', '%2e%2e'])(
    'a TaskManager id %j is refused and the JobManager is not asked',
    async (taskManagerId) => {
      const target = await start(flinkFake);
      const asked = flinkConnector.fetch(
        { resource: 'taskmanager-metrics', ids: { taskManagerId } },
        { target, now: FIXED_NOW },
      );
      await expect(asked).rejects.toBeInstanceOf(ConnectorError);
      expect(fake.seen).toEqual([]);
    },
  );

  it('real ids still pass: a standalone TaskManager id, a Spark and a YARN application id', async () => {
    const flink = await start(flinkFake);
    const tm = await flinkConnector.fetch(
      { resource: 'taskmanager-metrics', ids: { taskManagerId: FLINK_TM } },
      { target: flink, now: FIXED_NOW },
    );
    expect(tm.from.path).toContain(`/taskmanagers/${encodeURIComponent(FLINK_TM)}/metrics`);
    await fake.stop();
    const spark = await start(() => sparkFake());
    const executors = await sparkConnector.fetch(
      { resource: 'executors', ids: { appId: SPARK_APP } },
      { target: spark, now: FIXED_NOW },
    );
    expect(executors.from.path).toBe(`/api/v1/applications/${SPARK_APP}/allexecutors`);
    await fake.stop();
    const yarn = await start(() => yarnFake());
    await expect(
      yarnConnector.fetch({ resource: 'app', ids: { appId: 'application_1_2/..' } }, { target: yarn }),
    ).rejects.toBeInstanceOf(ConnectorError);
    expect(fake.seen).toEqual([]);
  });
});

describe('staysUnder: the built path re-checked against the base URL', () => {
  it.each([
    ['http://jm:8081', '/taskmanagers/tm-1/metrics?get=a,b', true],
    ['http://proxy/flink', '/overview', true],
    ['http://jm:8081', '/taskmanagers/../metrics', false],
    ['http://jm:8081', '/taskmanagers/./x', false],
    ['http://proxy/flink', '/../admin', false],
    ['http://jm:8081', '//evil.example/x', false],
    ['http://jm:8081', 'overview', false],
    ['http://jm:8081', '/a#b', false],
    ['http://jm:8081', '/a b', false],
  ])('%s + %s stays under it: %s', async (base, path, expected) => {
    const { staysUnder } = await import('../../src/connectors/ids.ts');
    expect(staysUnder(base, path)).toBe(expected);
  });
});
