import { describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../src/connectors/config.ts';
import { FetchGate } from '../../src/diagnosis/fetch-access.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { findPlaybook, loadPlaybooks } from '../../src/playbooks/load.ts';
import { fetchOffer, fetchStep } from '../../src/usecases/fetch-step.ts';
import { startWalkthrough } from '../../src/usecases/start-walkthrough.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../src/walkthrough/index.ts';
import { fixture } from '../connectors/fakes/rest-fake.ts';
import { SPARK_YARN_APP, sparkFake, yarnFake } from '../connectors/fakes/systems.ts';
import { FIXED_NOW, targetFor, useFake } from '../connectors/support.ts';

/** A console's asker: the access rules name Slack people, so only the caps apply. */
const CONSOLE = { surface: 'console' as const, workspace: 'local', user: 'U1' };

// spark-executor-overhead-killed's two fetches on YARN: the kill (YARN's application, or Spark's
// executor list when YARN's diagnostics hold none) and spark.executor.cores from /environment.

const PLAYBOOKS = loadPlaybooks();
const where = { workspace: 'T1', conversation: 'C1' };

/** spark-executor-overhead-killed on YARN, its limit not known: the diagnostics step. */
const TO_YARN_DIAGNOSTICS = [
  { type: 'choose', answer: 'yarn' },
  { type: 'choose', answer: 'unsure' },
] as const;
/** From the Python question on, a JVM-only job without off-heap memory: the cores measurement. */
const TO_CORES = [
  { type: 'choose', answer: 'jvm' },
  { type: 'choose', answer: 'no' },
] as const;
const REMOVED = 'spark/assembled-allexecutors-removed-for-memory.json';

describe('fetch the Spark-on-YARN executor kill and settings from YARN and the Spark History Server', () => {
  const spark = useFake(() => sparkFake(undefined, REMOVED));
  // YARN's own docs sample, a finished application whose diagnostics are empty, under the Spark application's id.
  const yarn = useFake(() => yarnFake('yarn/app-docs-finished.json', SPARK_YARN_APP));
  const killed = useFake(() => yarnFake('yarn/assembled-app-killed-beyond-physical.json', SPARK_YARN_APP));

  async function atDiagnostics(connectors: ConnectorsConfig) {
    const walkthroughs = new WalkthroughService({ store: new MemoryWalkthroughStore() });
    const context = {
      walkthroughs,
      playbooks: PLAYBOOKS,
      connectors,
      now: FIXED_NOW,
      gate: new FetchGate(undefined),
    };
    const playbook = findPlaybook(PLAYBOOKS, 'spark-executor-overhead-killed');
    const started = await startWalkthrough(context, { playbook, where, owner: 'U1' });
    for (const event of TO_YARN_DIAGNOSTICS) await walkthroughs.apply(started.id, event, 'U1');
    return { context, id: started.id, walkthroughs };
  }
  const fetchApp = (context: Parameters<typeof fetchStep>[0], id: string) =>
    fetchStep(context, { asker: CONSOLE, walkthrough: id, actor: 'U1', ids: { appId: SPARK_YARN_APP } });

  it("YARN's diagnostics without the kill hand on to allexecutors: the removal reason judged as the pasted line", async () => {
    const connectors = { yarn: targetFor(yarn.url), spark: targetFor(spark.url) };
    const { context, id, walkthroughs } = await atDiagnostics(connectors);
    expect(fetchOffer(await walkthroughs.get(id), connectors)).toEqual({
      connector: 'yarn',
      title: 'YARN ResourceManager or Spark History Server',
      missingIds: ['appId'],
    });
    const result = await fetchApp(context, id);
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    // What the driver logs for it ("Lost executor 2 on ...: <reason>"), pasted.
    const reason = (JSON.parse(fixture(REMOVED)) as { removeReason?: string }[]).find(
      (e) => e.removeReason,
    )?.removeReason;
    const pasted = parseText('yarn-container', `Lost executor 2 on host: ${reason}`);
    const entry = result.after.path.find((e) => e.step === 'yarn-diagnostics');
    expect(entry?.answer).toMatchObject({ kind: 'paste', values: pasted.values, summary: pasted.summary });
    expect(pasted.values).toMatchObject({ resource: 'physical', usedBytes: 5905580032 });
    expect(entry?.answer).toMatchObject({
      fetched: { connector: 'spark', paths: [`/api/v1/applications/${SPARK_YARN_APP}/allexecutors`] },
    });
    // Physical memory, no Python process named: the walkthrough asks about Python code, as for the paste.
    expect(result.after.current).toBe('python-code');
    expect(yarn.fake.seen.map((s) => s.path)).toEqual([`/ws/v1/cluster/apps/${SPARK_YARN_APP}`]);
  });

  it('YARN diagnostics that name the kill answer the step, and Spark is not asked', async () => {
    const { context, id } = await atDiagnostics({
      yarn: targetFor(killed.url),
      spark: targetFor(spark.url),
    });
    const result = await fetchApp(context, id);
    expect(result.kind === 'answered' && result.after.path.at(-1)?.answer).toMatchObject({
      fetched: { connector: 'yarn' },
    });
    expect(spark.fake.seen).toEqual([]);
  });

  it('with only Spark configured, the step fetches from Spark', async () => {
    const connectors = { spark: targetFor(spark.url) };
    const { context, id, walkthroughs } = await atDiagnostics(connectors);
    expect(fetchOffer(await walkthroughs.get(id), connectors)).toEqual({
      connector: 'spark',
      title: 'Spark History Server',
      missingIds: ['appId'],
    });
    const result = await fetchApp(context, id);
    expect(result.kind === 'answered' && result.after.current).toBe('python-code');
  });

  it('when neither holds a kill, nothing is answered and both reasons are told', async () => {
    const { context, id, walkthroughs } = await atDiagnostics({
      yarn: targetFor(yarn.url),
      spark: targetFor(spark.url),
    });
    spark.fake.override('allexecutors', {
      body: fixture('spark/executor-metrics-allexecutors-trimmed.json'),
    });
    const result = await fetchApp(context, id);
    expect(result.kind).toBe('not-fetched');
    if (result.kind === 'not-fetched')
      // Both answers are valid and empty: each is said for what it means, not called the wrong output.
      expect(result.error.message).toBe(
        "YARN ResourceManager answered, but the application's diagnostics are empty: YARN wrote no reason for it (it does when the application or its ApplicationMaster fails), so they name no container kill. Spark History Server answered, but no executor was removed (allexecutors gives a removeReason to removed executors only), so none has a kill to read.",
      );
    expect((await walkthroughs.get(id)).current).toBe('yarn-diagnostics');
  });

  it('answers the cores measurement from /environment: spark.executor.cores 1, so not too many tasks', async () => {
    const { context, id, walkthroughs } = await atDiagnostics({ spark: targetFor(spark.url) });
    await fetchApp(context, id);
    for (const event of TO_CORES) await walkthroughs.apply(id, event, 'U1');
    expect((await walkthroughs.get(id)).current).toBe('cores');
    const result = await fetchApp(context, id);
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    const pasted = parseText('spark-environment', fixture('spark/converted-environment-yarn-24630151.json'));
    expect(result.after.path.at(-1)?.answer).toMatchObject({
      kind: 'measurement',
      value: pasted.values.executorCores,
      fetched: { connector: 'spark', paths: [`/api/v1/applications/${SPARK_YARN_APP}/environment`] },
    });
    expect(result.after.current).toBe('native-libs');
  });
});
