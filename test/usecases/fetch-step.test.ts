import { describe, expect, it } from 'vitest';
import { CONNECTORS } from '../../src/connectors/registry.ts';
import { parseText } from '../../src/engine/parsers/parse-text.ts';
import { findPlaybook, loadPlaybooks } from '../../src/playbooks/load.ts';
import { fetchOffer, fetchStep } from '../../src/usecases/fetch-step.ts';
import { startWalkthrough } from '../../src/usecases/start-walkthrough.ts';
import { MemoryWalkthroughStore, renderTranscript, WalkthroughService } from '../../src/walkthrough/index.ts';
import type { Procedure } from '../../src/walkthrough/procedure-schema.ts';
import type { FetchSpec } from '../../src/walkthrough/steps/step-schemas.ts';
import { kubeFake, kubeTargetFor, MEMHOG } from '../connectors/fakes/kube-fake.ts';
import { fixture } from '../connectors/fakes/rest-fake.ts';
import { FLINK_JOB, flinkFake } from '../connectors/fakes/systems.ts';
import { FIXED_NOW, targetFor, useFake } from '../connectors/support.ts';

const PLAYBOOKS = loadPlaybooks();
const where = { workspace: 'T1', conversation: 'C1' };

/** flink-pending-slots answered by clicks up to its first paste step (job-slots). */
const TO_JOB_SLOTS = [
  { type: 'choose', answer: 'waiting' },
  { type: 'choose', answer: 'only-timeouts' },
  { type: 'choose', answer: 'yes' },
  { type: 'choose', answer: 'no' },
] as const;

describe('every fetch: in the seed procedures feeds the parser the step reads', () => {
  const steps = PLAYBOOKS.flatMap((p) =>
    ((p.procedure as Procedure | undefined)?.steps ?? []).flatMap((s) =>
      'fetch' in s && s.fetch
        ? [{ at: `${p.id}/${s.id}`, parser: s.parser, fetch: s.fetch as FetchSpec }]
        : [],
    ),
  );
  it('covers the Flink, YARN and Kubernetes steps named in issue 23', () => {
    expect(steps.map((s) => s.at).sort()).toEqual([
      'flink-pending-slots/free-slots',
      'flink-pending-slots/job-slots',
      'spark-executor-overhead-killed/pod-status',
      'spark-executor-overhead-killed/yarn-diagnostics',
    ]);
  });
  it.each(steps)('$at: the last resource goes to the step parser', ({ parser, fetch }) => {
    const last = fetch.resources.at(-1) ?? '';
    expect(CONNECTORS[fetch.connector].resources[last]?.parser).toBe(parser);
  });
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
    const result = await fetchStep(context, { walkthrough: id, actor: 'U1', ids: { jobId: FLINK_JOB } });
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
    const result = await fetchStep(context, { walkthrough: id, actor: 'U1', ids: { jobId: FLINK_JOB } });
    expect(result.kind).toBe('not-fetched');
    if (result.kind === 'not-fetched')
      expect(result.error.message).toBe(
        `Flink JobManager did not answer (HTTP 503 for GET /overview); paste the output of \`curl ${flink.url}/overview\` instead.`,
      );
    const record = await walkthroughs.get(id);
    expect(record.current).toBe('job-slots');
    expect(record.path.some((e) => e.step === 'job-slots')).toBe(false);
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
    };
    const playbook = findPlaybook(PLAYBOOKS, 'spark-executor-overhead-killed');
    const started = await startWalkthrough(context, { playbook, where, owner: 'U1' });
    await walkthroughs.apply(started.id, { type: 'choose', answer: 'kubernetes' }, 'U1');
    const offer = fetchOffer(await walkthroughs.get(started.id), context.connectors);
    expect(offer).toEqual({ connector: 'kubernetes', title: 'Kubernetes API server', missingIds: ['pod'] });
    const pod = `${MEMHOG.namespace}/${MEMHOG.name}`;
    const result = await fetchStep(context, { walkthrough: started.id, actor: 'U1', ids: { pod } });
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
