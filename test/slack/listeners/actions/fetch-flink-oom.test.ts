import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../../../src/connectors/config.ts';
import { kubeFake, kubeTargetFor, MEMHOG } from '../../../connectors/fakes/kube-fake.ts';
import { FLINK_TM, flinkFake } from '../../../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../../../connectors/support.ts';
import { buttonsOf, click, startWalk } from '../../support/clicks.ts';
import { type Harness, waitFor } from '../../support/harness.ts';
import { CHANNEL, fetchWithId, OWNER, startWith, stepTitled } from '../fetch-form.ts';

// Registered first, so their stops run after the app's (vitest runs after-hooks in reverse).
const kube = useFake(kubeFake);
const flink = useFake(flinkFake);
let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

const connectors = (): ConnectorsConfig => ({
  kubernetes: kubeTargetFor(kube.url),
  flink: targetFor(flink.url),
});

/** /memdoctor walk flink-container-oom-killed, and "It runs on Kubernetes" chosen: the pod step. */
async function toPodStep() {
  const root = await startWalk(h, 'flink-container-oom-killed', { user: OWNER, channel: CHANNEL });
  const kill = await stepTitled(h, root, 'What killed the container?');
  await click(h, kill, 'It runs on Kubernetes: read the TaskManager pod', OWNER);
  return { root, step: await stepTitled(h, root, "How did the TaskManager pod's container end?") };
}

const TO_CONCLUSION: [string, string][] = [
  ['Which JDK runs the TaskManager?', '8u152 or later, or JDK 11+'],
  ['Can you run commands in the TaskManager container?', 'No'],
  ['Which state backend does the job use?', 'RocksDB'],
  ['Is RocksDB memory managed by Flink?', 'Managed (the default)'],
];

describe('actions/fetch-step: the Flink container OOM-killed walkthrough fetched from Kubernetes and Flink', () => {
  it("reaches its conclusion with no paste: the pod's lastState, then a TaskManager's gauges", async () => {
    h = await startWith(connectors());
    const { root, step } = await toPodStep();
    await fetchWithId(h, step, 'Kubernetes API server', {
      name: 'pod',
      value: `${MEMHOG.namespace}/${MEMHOG.name}`,
    });
    const metrics = await stepTitled(
      h,
      root,
      "How full are a TaskManager's heap, metaspace and direct memory?",
    );
    await fetchWithId(h, metrics, 'Flink JobManager', { name: 'taskManagerId', value: FLINK_TM });
    for (const [title, label] of TO_CONCLUSION)
      await click(h, await stepTitled(h, root, title), label, OWNER);
    await stepTitled(h, root, 'RocksDB briefly exceeds managed memory');
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.status).toBe('done');
    expect(record?.path.find((e) => e.step === 'pod-last-state')?.answer).toMatchObject({
      verdict: 'OOMKilled at the container memory limit',
      fetched: { connector: 'kubernetes' },
    });
    expect(record?.path.find((e) => e.step === 'tm-metrics')?.answer).toMatchObject({
      verdict: 'heap far below its max (16%)',
      fetched: { connector: 'flink' },
    });
    expect(kube.fake.seen.map((s) => s.path)).toEqual([
      `/api/v1/namespaces/${MEMHOG.namespace}/pods/${MEMHOG.name}`,
    ]);
    expect(flink.fake.seen.map((s) => s.path.split('?')[0])).toEqual([
      `/taskmanagers/${encodeURIComponent(FLINK_TM)}/metrics`,
    ]);
  });

  it("a TaskManager id '..' typed in the form asks the JobManager nothing (issue 35 finding 4)", async () => {
    h = await startWith(connectors());
    const { root, step } = await toPodStep();
    await fetchWithId(h, step, 'Kubernetes API server', {
      name: 'pod',
      value: `${MEMHOG.namespace}/${MEMHOG.name}`,
    });
    const metrics = await stepTitled(
      h,
      root,
      "How full are a TaskManager's heap, metaspace and direct memory?",
    );
    await fetchWithId(h, metrics, 'Flink JobManager', { name: 'taskManagerId', value: '..' });
    const told = await waitFor(() =>
      h.fake.callsTo('chat.postEphemeral').find((c) => String(c.args.text).includes('taskManagerId')),
    );
    expect(String(told.args.text)).toContain('".." is not a taskManagerId');
    expect(flink.fake.seen).toEqual([]);
  });

  it('unconfigured, the pod step shows no Fetch button and nothing is requested', async () => {
    h = await startWith({});
    const { step } = await toPodStep();
    expect(buttonsOf(step).map((b) => b.button.text.text)).not.toContain('Fetch from Kubernetes API server…');
    expect(kube.fake.seen).toEqual([]);
    expect(flink.fake.seen).toEqual([]);
  });
});
