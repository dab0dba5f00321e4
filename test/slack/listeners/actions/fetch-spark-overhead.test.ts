import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../../../src/connectors/config.ts';
import { SPARK_YARN_APP, sparkFake, yarnFake } from '../../../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../../../connectors/support.ts';
import { buttonsOf, click, startWalk } from '../../support/clicks.ts';
import type { Harness } from '../../support/harness.ts';
import { CHANNEL, fetchWithId, OWNER, startWith, stepTitled } from '../fetch-form.ts';

// Registered first, so their stops run after the app's (vitest runs after-hooks in reverse).
// YARN's docs sample (a finished application, empty diagnostics) under the Spark application's id;
// Spark's executors with one removed by YARN for memory, and that application's settings.
const yarn = useFake(() => yarnFake('yarn/app-docs-finished.json', SPARK_YARN_APP));
const spark = useFake(() => sparkFake(undefined, 'spark/assembled-allexecutors-removed-for-memory.json'));
let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

const connectors = (): ConnectorsConfig => ({ yarn: targetFor(yarn.url), spark: targetFor(spark.url) });

/** /memdoctor walk spark-executor-overhead-killed, on YARN, the limit not known: the diagnostics step. */
async function toDiagnostics() {
  const root = await startWalk(h, 'spark-executor-overhead-killed', { user: OWNER, channel: CHANNEL });
  await click(
    h,
    await stepTitled(h, root, 'Where do the executors run?'),
    'YARN (EMR, Dataproc, Hadoop)',
    OWNER,
  );
  const limit = await stepTitled(h, root, 'Which limit did YARN enforce?');
  await click(h, limit, 'Not sure: read the diagnostics', OWNER);
  return { root, step: await stepTitled(h, root, 'What did YARN report?') };
}

describe('actions/fetch-step: the Spark executor killed on YARN, fetched from YARN and the History Server', () => {
  it('reaches its conclusion with no paste: the kill from allexecutors, the cores from /environment', async () => {
    h = await startWith(connectors());
    const { root, step } = await toDiagnostics();
    await fetchWithId(h, step, 'YARN ResourceManager or Spark History Server', {
      name: 'appId',
      value: SPARK_YARN_APP,
    });
    await click(
      h,
      await stepTitled(h, root, 'Do the executors run Python code?'),
      'No, JVM code only (Scala, Java, SQL)',
      OWNER,
    );
    await click(h, await stepTitled(h, root, "Is Spark's off-heap memory enabled?"), 'No', OWNER);
    const cores = await stepTitled(h, root, 'How many cores does each executor have?');
    // The application id given for the kill serves the settings: no form asks for it again.
    const forms = h.fake.callsTo('views.open').length;
    await click(h, cores, 'Fetch from Spark History Server', OWNER);
    await click(
      h,
      await stepTitled(h, root, 'Do the executors use native libraries?'),
      'No, or not that we know',
      OWNER,
    );
    await stepTitled(h, root, 'The memory overhead is too small');
    expect(h.fake.callsTo('views.open')).toHaveLength(forms);
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.status).toBe('done');
    expect(record?.path.find((e) => e.step === 'yarn-diagnostics')?.answer).toMatchObject({
      verdict: 'killed for physical memory: the process outgrew its container',
      values: { resource: 'physical' },
      fetched: {
        connector: 'spark',
        paths: [`/api/v1/applications/${SPARK_YARN_APP}/allexecutors`],
        ids: { appId: SPARK_YARN_APP },
      },
    });
    expect(record?.path.find((e) => e.step === 'cores')?.answer).toMatchObject({
      value: 1,
      fetched: { connector: 'spark', paths: [`/api/v1/applications/${SPARK_YARN_APP}/environment`] },
    });
    expect(yarn.fake.seen.map((s) => s.path)).toEqual([`/ws/v1/cluster/apps/${SPARK_YARN_APP}`]);
    expect(spark.fake.seen.map((s) => s.path)).toEqual([
      `/api/v1/applications/${SPARK_YARN_APP}/allexecutors`,
      `/api/v1/applications/${SPARK_YARN_APP}/environment`,
    ]);
  });

  it('unconfigured, the diagnostics step shows no Fetch button and nothing is requested', async () => {
    h = await startWith({});
    const { step } = await toDiagnostics();
    expect(buttonsOf(step).map((b) => b.button.text.text)).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/^Fetch from/)]),
    );
    expect(yarn.fake.seen).toEqual([]);
    expect(spark.fake.seen).toEqual([]);
  });
});
