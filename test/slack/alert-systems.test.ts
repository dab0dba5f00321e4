import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectorsConfig } from '../../src/connectors/config.ts';
import type { RoutedAlert } from '../../src/incidents/types.ts';
import { CONNECTOR_TRIES } from '../../src/usecases/alerts.ts';
import type { AwsFake } from '../connectors/fakes/aws-fake.ts';
import { GLUE_JOB, GLUE_RUN, glueFake } from '../connectors/fakes/aws-systems.ts';
import { DF_JOB, dataflowFake, dataflowTargetFor } from '../connectors/fakes/dataflow-fake.ts';
import type { RestFake } from '../connectors/fakes/rest-fake.ts';
import { SPARK_YARN_APP, sparkFake, YARN_APP, yarnFake } from '../connectors/fakes/systems.ts';
import { glueTargetFor, useTestCredentials } from '../connectors/glue-support.ts';
import { targetFor } from '../connectors/support.ts';
import { routedAlert } from '../incidents/alerts.ts';
import { ALERT_CHANNEL, alertRig, textOf, the } from './support/alert-rig.ts';
import { freePort } from './support/harness.ts';

const shown = { showIn: [ALERT_CHANNEL] };

/** An alert of `source` routed to the alert channel with one check. */
function alertFor(
  source: RoutedAlert['event']['source'],
  kind: string,
  check: RoutedAlert['checks'][0],
): RoutedAlert {
  const base = routedAlert(
    { source, kind, incidentKey: `${source}:${check.id}`, title: `${check.connector} ${check.id} failed` },
    ALERT_CHANNEL,
  );
  return { ...base, route: `${check.connector}-oncall`, checks: [check] };
}

describe('an alert from each system to its thread, diagnosed from fetched evidence', () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    vi.unstubAllEnvs();
  });

  /** Accepts the alert, works it off, and returns the thread's root and its diagnosis message. */
  async function thread(connectors: ConnectorsConfig, alert: RoutedAlert) {
    const rig = await alertRig(connectors);
    stops.push(() => rig.stop());
    const r = await rig.replica('r1');
    expect(await r.queue.accept(alert)).toBe('queued');
    await rig.drain(r);
    expect(rig.fake.rejections).toEqual([]);
    const [root, ...others] = rig.roots();
    expect(others).toEqual([]);
    return { rig, root: the(root), answer: textOf(the(rig.replies(the(root))[0])), r };
  }

  function served<F extends { violations: readonly string[]; stop(): Promise<void> }>(fake: F): F {
    stops.push(async () => {
      expect(fake.violations).toEqual([]);
      await fake.stop();
    });
    return fake;
  }

  it('a Glue job run FAILED with a heap OOM (EventBridge via SNS)', async () => {
    useTestCredentials();
    const fake: AwsFake = served(glueFake());
    const url = await fake.start();
    const { answer } = await thread(
      { glue: glueTargetFor(url), access: { glue: shown } },
      alertFor('sns', 'eventbridge-glue-job-state-change', {
        connector: 'glue',
        id: `${GLUE_JOB}/${GLUE_RUN}`,
      }),
    );
    expect(answer).toContain('JobRun.JobRunState = FAILED');
    expect(answer).toContain('glue-heap-oom');
  });

  it('a Spark application on YARN whose executors were killed for memory (PagerDuty)', async () => {
    // The History Server's executors, removed for memory, and YARN's kill diagnostics under the same application.
    const spark: RestFake = served(
      sparkFake(undefined, 'spark/assembled-allexecutors-removed-for-memory.json'),
    );
    const yarn: RestFake = served(yarnFake('yarn/assembled-app-killed-beyond-physical.json', SPARK_YARN_APP));
    const [sparkUrl, yarnUrl] = [await spark.start(), await yarn.start()];
    const alert = alertFor('pagerduty', 'pagerduty-incident.triggered', {
      connector: 'spark',
      id: SPARK_YARN_APP,
    });
    alert.checks.push({ connector: 'yarn', id: SPARK_YARN_APP });
    const { answer } = await thread(
      { spark: targetFor(sparkUrl), yarn: targetFor(yarnUrl), access: { spark: shown, yarn: shown } },
      alert,
    );
    expect(answer).toContain(`Fetched from spark for ${SPARK_YARN_APP}`);
    expect(answer).toContain(`Fetched from yarn for ${SPARK_YARN_APP}`);
    expect(answer).toContain('app.state = FINISHED, app.finalStatus = FAILED');
    expect(answer).toContain('spark-executor-overhead-killed');
  });

  it('a Dataflow Python job (Cloud Monitoring)', async () => {
    const fake: RestFake = served(dataflowFake());
    const url = await fake.start();
    const { answer } = await thread(
      { dataflow: dataflowTargetFor(url), access: { dataflow: shown } },
      alertFor('gcp-monitoring', 'gcp-incident', { connector: 'dataflow', id: DF_JOB }),
    );
    expect(answer).toContain('job.currentState = JOB_STATE_FAILED');
    expect(answer).toContain('beam-python-leak');
  });

  it('a connector that does not answer: waited for, then the thread says what is missing and what to type', async () => {
    // A ResourceManager that is down: nothing listens on its port.
    const url = `http://127.0.0.1:${await freePort()}`;
    const { answer, r, root, rig } = await thread(
      { yarn: targetFor(url, { timeoutMs: 2000 }), access: { yarn: shown } },
      alertFor('pagerduty', 'pagerduty-incident.triggered', { connector: 'yarn', id: YARN_APP }),
    );
    expect(r.delays).toHaveLength(CONNECTOR_TRIES - 1);
    expect(answer).toContain('Nothing could be fetched for this alert');
    expect(answer).toContain(`/memdoctor check yarn ${YARN_APP}`);
    expect(rig.replies(root)).toHaveLength(1); // no diagnosis, so no walkthrough
  });

  it('a channel the access rule does not show answers in: nothing is fetched, the thread says why', async () => {
    const fake: RestFake = served(yarnFake());
    const url = await fake.start();
    const { answer } = await thread(
      { yarn: targetFor(url), access: { yarn: { showIn: ['C0ELSEWHERE'] } } },
      alertFor('pagerduty', 'pagerduty-incident.triggered', { connector: 'yarn', id: YARN_APP }),
    );
    expect(answer).toContain('access.yarn.showIn');
    expect(fake.seen).toEqual([]);
  });
});
