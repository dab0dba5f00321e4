import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../../../src/connectors/config.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../../src/playbooks/load.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../../../src/walkthrough/index.ts';
import { DF_JOB, dataflowFake, dataflowTargetFor } from '../../../connectors/fakes/dataflow-fake.ts';
import { useFake } from '../../../connectors/support.ts';
import { showAnswersIn } from '../../support/access.ts';
import { buttonsOf, click, threadReplies } from '../../support/clicks.ts';
import { diagnoseInChannel, type Harness, startHarness, waitFor } from '../../support/harness.ts';

const OWNER = 'UALICE01';
const CHANNEL = 'CFETCH02';
const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);
/**
 * A launcher's log as a person pastes it: the DataflowRunner's "Created job with id" line (its format
 * in apache/beam apiclient.py) for the fake's job, then the job's error messages as the runner logs them.
 */
const LAUNCHER_LOG = `INFO:apache_beam.runners.dataflow.internal.apiclient:Created job with id: [${DF_JOB}]\n${readFileSync(
  join(
    import.meta.dirname,
    '..',
    '..',
    '..',
    'engine',
    'parsers',
    'fixtures',
    'dataflow-messages',
    'assembled-runner-log-workers-lost.txt',
  ),
  'utf8',
)}`;

// Registered first, so its stop runs after the app's (vitest runs after-hooks in reverse).
const dataflow = useFake(() => dataflowFake());
let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

function startReal(connectors?: ConnectorsConfig): Promise<Harness> {
  return startHarness({
    walkthroughs: new WalkthroughService({ store: new MemoryWalkthroughStore() }),
    extend: (base) => ({
      ...base,
      playbooks: PLAYBOOKS,
      ...(connectors ? { connectors: showAnswersIn(connectors, CHANNEL) } : {}),
    }),
  });
}

const stepTitled = (root: { ts: string }, title: string) =>
  waitFor(() => threadReplies(h, CHANNEL, root.ts).find((m) => m.text?.includes(title)));

/** The launcher log diagnosed in the channel, the walkthrough started, Dataflow chosen for the SDK. */
async function toDataflowJob() {
  const root = await diagnoseInChannel(h, LAUNCHER_LOG, OWNER, CHANNEL);
  expect(root.text).toContain('Beam Python pipeline runs out of memory');
  await click(h, root, 'Start walkthrough', OWNER);
  const sdk = await stepTitled(root, 'Which Beam Python release does the pipeline run?');
  await click(h, sdk, 'It runs on Dataflow: read it from the job', OWNER);
  return { root, step: await stepTitled(root, 'What do the Dataflow job and its error messages say?') };
}

describe('actions/fetch-step: "Fetch from Google Cloud Dataflow" on the Beam walkthrough', () => {
  it('fetches the job the log named, and the walkthrough reaches its conclusion with no paste', async () => {
    h = await startReal({ dataflow: dataflowTargetFor(dataflow.url) });
    const { root, step } = await toDataflowJob();
    await click(h, step, 'Fetch from Google Cloud Dataflow', OWNER);
    await stepTitled(root, 'This Beam release leaks memory by itself');
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.status).toBe('done');
    expect(record?.path.find((e) => e.step === 'dataflow-job')?.answer).toMatchObject({
      verdict: 'known SDK leak (apache/beam#28246)',
      fetched: { connector: 'dataflow' },
    });
    expect(record?.path.find((e) => e.step === 'sdk-from-job')).toMatchObject({ prefilled: true });
    expect(dataflow.fake.seen.map((s) => new URL(s.path, 'http://x').pathname.split('/').pop())).toEqual([
      DF_JOB,
      'messages',
      'messages',
    ]);
  });

  it('unconfigured, the step shows no Fetch button and nothing is requested', async () => {
    h = await startReal();
    const { step } = await toDataflowJob();
    expect(buttonsOf(step).map((b) => b.button.text.text)).not.toContain('Fetch from Google Cloud Dataflow');
    expect(dataflow.fake.seen).toEqual([]);
  });
});
