import { describe, expect, it } from 'vitest';
import { HEAP_METRICS } from '../../src/connectors/glue-heap-metrics.ts';
import { CONNECTORS } from '../../src/connectors/registry.ts';
import { FetchGate } from '../../src/diagnosis/fetch-access.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { findPlaybook, loadPlaybooks } from '../../src/playbooks/load.ts';
import { fetchOffer, fetchStep } from '../../src/usecases/fetch-step.ts';
import { startWalkthrough } from '../../src/usecases/start-walkthrough.ts';
import { MemoryWalkthroughStore, renderTranscript, WalkthroughService } from '../../src/walkthrough/index.ts';
import type { Procedure } from '../../src/walkthrough/procedure-schema.ts';
import type { FetchSpec } from '../../src/walkthrough/steps/step-schemas.ts';
import { GLUE_JOB, GLUE_RUN } from '../connectors/fakes/aws-systems.ts';
import { kubeFake, kubeTargetFor, MEMHOG } from '../connectors/fakes/kube-fake.ts';
import { fixture } from '../connectors/fakes/rest-fake.ts';
import { FLINK_JOB, flinkFake } from '../connectors/fakes/systems.ts';
import { glueTargetFor, useGlueFake } from '../connectors/glue-support.ts';
import { FIXED_NOW, targetFor, useFake } from '../connectors/support.ts';

/** A console's asker: the access rules name Slack people, so only the caps apply. */
const CONSOLE = { surface: 'console' as const, workspace: 'local', user: 'U1' };

const PLAYBOOKS = loadPlaybooks();
const where = { workspace: 'T1', conversation: 'C1' };

/** flink-pending-slots answered by clicks up to its first paste step (job-slots). */
const TO_JOB_SLOTS = [
  { type: 'choose', answer: 'waiting' },
  { type: 'choose', answer: 'only-timeouts' },
  { type: 'choose', answer: 'yes' },
  { type: 'choose', answer: 'no' },
] as const;

/** What a measurement's fetch reads, by the parser of its last resource: the value that is its number. */
const MEASURED: Record<string, RegExp> = {
  'cloudwatch-metrics': /HeapUsagePeak$|^heapUsagePeak$/,
  'spark-environment': /^executorCores$/,
};

describe('every fetch: in the seed procedures feeds the parser the step reads', () => {
  const steps = PLAYBOOKS.flatMap((p) =>
    ((p.procedure as Procedure | undefined)?.steps ?? []).flatMap((s) =>
      'fetch' in s && s.fetch
        ? [
            {
              at: `${p.id}/${s.id}`,
              parser: 'parser' in s ? s.parser : undefined,
              fetch: s.fetch as FetchSpec,
            },
          ]
        : [],
    ),
  );
  const sources = steps.flatMap(({ at, parser, fetch }) =>
    [fetch, ...(fetch.or ? [fetch.or] : [])].map((source) => ({
      at: `${at} from ${source.connector}`,
      parser,
      source,
    })),
  );
  it('covers the Flink, Spark, YARN, Kubernetes, Glue and Dataflow steps named in issue 23', () => {
    expect(sources.map((s) => s.at).sort()).toEqual([
      'beam-python-leak/dataflow-job from dataflow',
      'flink-container-oom-killed/pod-last-state from kubernetes',
      'flink-container-oom-killed/tm-metrics from flink',
      'flink-pending-slots/free-slots from flink',
      'flink-pending-slots/job-slots from flink',
      'glue-heap-oom/check-heap from glue',
      'glue-heap-oom/driver-heap from glue',
      'spark-executor-overhead-killed/cores from spark',
      'spark-executor-overhead-killed/pod-status from kubernetes',
      'spark-executor-overhead-killed/yarn-diagnostics from spark',
      'spark-executor-overhead-killed/yarn-diagnostics from yarn',
    ]);
  });
  it.each(sources)(
    '$at: the last resource goes to the step parser, or names the value a measurement takes',
    ({ parser, source }) => {
      const last = source.resources.at(-1) ?? '';
      const resourceParser = CONNECTORS[source.connector].resources[last]?.parser;
      if (parser) expect(resourceParser).toBe(parser);
      else expect(source.value).toMatch(MEASURED[resourceParser ?? ''] ?? /^$/);
    },
  );
});

describe('fetch a walkthrough step from the Flink fake', () => {
  const flink = useFake(flinkFake);

  async function atJobSlots() {
    const walkthroughs = new WalkthroughService({ store: new MemoryWalkthroughStore() });
    const context = {
      walkthroughs,
      playbooks: PLAYBOOKS,
      connectors: { flink: targetFor(flink.url) },
      now: FIXED_NOW,
      gate: new FetchGate(undefined),
    };
    const playbook = findPlaybook(PLAYBOOKS, 'flink-pending-slots');
    const started = await startWalkthrough(context, { playbook, where, owner: 'U1' });
    for (const event of TO_JOB_SLOTS) await walkthroughs.apply(started.id, event, 'U1');
    return { context, id: started.id, walkthroughs };
  }

  it('answers job-slots from /overview and the job exactly as the two pasted curls', async () => {
    const { context, id, walkthroughs } = await atJobSlots();
    const offer = fetchOffer(await walkthroughs.get(id), context.connectors);
    expect(offer).toEqual({ connector: 'flink', title: 'Flink JobManager', missingIds: ['jobId'] });
    const result = await fetchStep(context, {
      asker: CONSOLE,
      walkthrough: id,
      actor: 'U1',
      ids: { jobId: FLINK_JOB },
    });
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    const entry = result.after.path.find((e) => e.step === 'job-slots');
    const pasted = parseText('flink-job-slots', (result.fetched ?? []).map((f) => f.paste).join('\n'));
    expect(entry?.answer).toMatchObject({ kind: 'paste', summary: pasted.summary, values: pasted.values });
    expect(entry?.answer).toMatchObject({
      fetched: {
        connector: 'flink',
        paths: ['/overview', `/jobs/${FLINK_JOB}`],
        fetchedAt: '2026-12-03T11:00:00.000Z',
      },
    });
    expect(renderTranscript(result.after)).toContain(
      `Fetched from flink: GET /overview, GET /jobs/${FLINK_JOB} at 2026-12-03T11:00:00.000Z`,
    );
  });

  it('a 503 answers nothing, says the system did not answer, and the step still takes a paste', async () => {
    const { context, id, walkthroughs } = await atJobSlots();
    flink.fake.override('overview', { status: 503 });
    const result = await fetchStep(context, {
      asker: CONSOLE,
      walkthrough: id,
      actor: 'U1',
      ids: { jobId: FLINK_JOB },
    });
    expect(result.kind).toBe('not-fetched');
    if (result.kind === 'not-fetched')
      expect(result.error.message).toBe(
        `Flink JobManager did not answer (HTTP 503 for GET /overview); paste the output of \`curl ${flink.url}/overview\` instead.`,
      );
    const record = await walkthroughs.get(id);
    expect(record.current).toBe('job-slots');
    expect(record.path.some((e) => e.step === 'job-slots')).toBe(false);
  });

  it('a TaskManager Flink holds no metrics of answers nothing and says why, not that it is the wrong output', async () => {
    const walkthroughs = new WalkthroughService({ store: new MemoryWalkthroughStore() });
    const context = {
      walkthroughs,
      playbooks: PLAYBOOKS,
      connectors: { flink: targetFor(flink.url) },
      now: FIXED_NOW,
      gate: new FetchGate(undefined),
    };
    const playbook = findPlaybook(PLAYBOOKS, 'flink-container-oom-killed');
    const started = await startWalkthrough(context, { playbook, where, owner: 'U1' });
    await walkthroughs.apply(started.id, { type: 'choose', answer: 'pod' }, 'U1');
    const pod = fixture('../../engine/parsers/fixtures/k8s-pod/aiops-memhog-get-pod-yaml.txt');
    await walkthroughs.apply(started.id, { type: 'paste', text: pod, step: 'pod-last-state' }, 'U1');
    expect((await walkthroughs.get(started.id)).current).toBe('tm-metrics');
    const result = await fetchStep(context, {
      asker: CONSOLE,
      walkthrough: started.id,
      actor: 'U1',
      ids: { taskManagerId: 'restarted-tm' },
    });
    expect(result.kind).toBe('not-fetched');
    if (result.kind === 'not-fetched')
      expect(result.error.message).toMatch(
        /^Flink JobManager answered, but the answer is an empty list: Flink holds no metrics for that TaskManager, .* ask again in a few seconds\.$/,
      );
    expect((await walkthroughs.get(started.id)).current).toBe('tm-metrics');
  });

  it('unconfigured, no step offers a fetch', async () => {
    const { id, walkthroughs } = await atJobSlots();
    const record = await walkthroughs.get(id);
    expect(fetchOffer(record, {})).toBeUndefined();
    expect(fetchOffer(record, undefined)).toBeUndefined();
  });
});

describe('fetch the executor pod of a Spark walkthrough from the Kubernetes fake', () => {
  const kube = useFake(kubeFake);

  it('answers pod-status from the API server as the pasted kubectl get pod -o yaml, and takes its branch', async () => {
    const walkthroughs = new WalkthroughService({ store: new MemoryWalkthroughStore() });
    const context = {
      walkthroughs,
      playbooks: PLAYBOOKS,
      connectors: { kubernetes: kubeTargetFor(kube.url) },
      now: FIXED_NOW,
      gate: new FetchGate(undefined),
    };
    const playbook = findPlaybook(PLAYBOOKS, 'spark-executor-overhead-killed');
    const started = await startWalkthrough(context, { playbook, where, owner: 'U1' });
    await walkthroughs.apply(started.id, { type: 'choose', answer: 'kubernetes' }, 'U1');
    const offer = fetchOffer(await walkthroughs.get(started.id), context.connectors);
    expect(offer).toEqual({ connector: 'kubernetes', title: 'Kubernetes API server', missingIds: ['pod'] });
    const pod = `${MEMHOG.namespace}/${MEMHOG.name}`;
    const result = await fetchStep(context, {
      asker: CONSOLE,
      walkthrough: started.id,
      actor: 'U1',
      ids: { pod },
    });
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    const entry = result.after.path.find((e) => e.step === 'pod-status');
    const pasted = parseText(
      'k8s-pod',
      fixture('../../engine/parsers/fixtures/k8s-pod/aiops-memhog-get-pod-yaml.txt'),
    );
    expect(entry?.answer).toMatchObject({ kind: 'paste', values: pasted.values });
    expect(entry?.answer).toMatchObject({
      fetched: {
        connector: 'kubernetes',
        paths: [`/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`],
        fetchedAt: '2026-12-03T11:00:00.000Z',
      },
    });
    // oomKilled is true, so the walkthrough goes on to the Python question, as it does for the paste.
    expect(result.after.current).toBe('python-code');
  });
});

/** glue-heap-oom answered by clicks up to the driver's heap measurement. */
const TO_DRIVER_HEAP = [
  { type: 'choose', answer: 'investigate' },
  { type: 'choose', answer: 'unsure' },
] as const;

describe('fetch a Glue measurement step from the fake AWS', () => {
  const aws = useGlueFake();

  async function atDriverHeap() {
    const walkthroughs = new WalkthroughService({ store: new MemoryWalkthroughStore() });
    const context = {
      walkthroughs,
      playbooks: PLAYBOOKS,
      connectors: { glue: glueTargetFor(aws.url) },
      now: FIXED_NOW,
      gate: new FetchGate(undefined),
    };
    const playbook = findPlaybook(PLAYBOOKS, 'glue-heap-oom');
    const started = await startWalkthrough(context, { playbook, where, owner: 'U1' });
    for (const event of TO_DRIVER_HEAP) await walkthroughs.apply(started.id, event, 'U1');
    return { context, id: started.id, walkthroughs };
  }

  it("answers the driver's peak heap from GetMetricData, as the pasted get-metric-data output gives it", async () => {
    const { context, id, walkthroughs } = await atDriverHeap();
    const offer = fetchOffer(await walkthroughs.get(id), context.connectors);
    expect(offer).toEqual({ connector: 'glue', title: 'AWS Glue', missingIds: ['jobName', 'runId'] });
    const result = await fetchStep(context, {
      asker: CONSOLE,
      walkthrough: id,
      actor: 'U1',
      ids: { jobName: GLUE_JOB, runId: GLUE_RUN },
    });
    expect(result.kind).toBe('answered');
    if (result.kind !== 'answered') return;
    const pasted = parseText(
      'cloudwatch-metrics',
      fixture('../../engine/parsers/fixtures/cloudwatch-metrics/assembled-glue-heap-driver-oom.json'),
    );
    const entry = result.after.path.find((e) => e.step === 'driver-heap');
    expect(entry?.answer).toMatchObject({
      kind: 'measurement',
      value: pasted.values.driverHeapUsagePeak,
      unit: 'ratio',
    });
    // 0.98 >= 0.8: the driver is the place to look.
    expect(result.after.current).toBe('driver-collect');
    expect(renderTranscript(result.after)).toMatch(
      new RegExp(
        `Fetched from glue: GetJobRun JobName=${GLUE_JOB} RunId=${GLUE_RUN}, GetMetricData Glue .* at 2026-12-03T11:00:00.000Z`,
      ),
    );
  });

  it('an answer with no heap points answers nothing and says what it held', async () => {
    const { context, id, walkthroughs } = await atDriverHeap();
    // What CloudWatch answers for a run that sent no job metrics: each query, labelled, with no points.
    const empty = HEAP_METRICS.map(({ id, name }) => ({
      Id: id,
      Label: name,
      Timestamps: [],
      Values: [],
      StatusCode: 'Complete',
    }));
    aws.fake.override('GraniteServiceVersion20100801.GetMetricData', {
      body: { MetricDataResults: empty, Messages: [] },
    });
    const result = await fetchStep(context, {
      asker: CONSOLE,
      walkthrough: id,
      actor: 'U1',
      ids: { jobName: GLUE_JOB, runId: GLUE_RUN },
    });
    expect(result.kind).toBe('not-fetched');
    if (result.kind === 'not-fetched')
      expect(result.error.message).toBe(
        'AWS Glue answered, but its answer holds no driverHeapUsagePeak: glue.driver.jvm.heap.usage: no data points; glue.driver.jvm.heap.used: no data points; glue.ALL.jvm.heap.usage: no data points; glue.ALL.jvm.heap.used: no data points. So enter the figure by hand.',
      );
    expect((await walkthroughs.get(id)).current).toBe('driver-heap');
  });
});
