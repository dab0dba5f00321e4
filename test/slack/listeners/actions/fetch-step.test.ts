import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectorsConfig } from '../../../../src/connectors/config.ts';
import { loadPlaybooks, PLAYBOOKS_DIR } from '../../../../src/playbooks/load.ts';
import { MemoryWalkthroughStore, WalkthroughService } from '../../../../src/walkthrough/index.ts';
import { flinkFake } from '../../../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../../../connectors/support.ts';
import { showAnswersIn } from '../../support/access.ts';
import { buttonsOf, click, startWalk, threadReplies } from '../../support/clicks.ts';
import { type Harness, startHarness, waitFor } from '../../support/harness.ts';

const OWNER = 'UALICE01';
const CHANNEL = 'CFETCH01';
const PLAYBOOKS = loadPlaybooks(PLAYBOOKS_DIR);

// Registered first, so its stop runs after the app's (vitest runs after-hooks in reverse).
const flink = useFake(flinkFake);
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

/** /memdoctor walk flink-pending-slots, clicked through to free-slots (job-slots skipped: no job id). */
async function toFreeSlots() {
  const root = await startWalk(h, 'flink-pending-slots', { user: OWNER, channel: CHANNEL });
  const clicks: [string, string][] = [
    ['Are all tasks of the job running?', 'Some tasks are not running'],
    ["What do the job's exceptions show?", 'Empty, or only slot timeouts'],
    ['Does the JobManager say the job waits for slots?', 'Yes, it waits'],
    ['Did TaskManagers go away while the job ran?', 'No, they stayed up'],
    ['Does the cluster have as many slots', 'Skip'],
    ['How do the slots compare', 'At least as many slots'],
    ['Does the job use more than one slot sharing group?', 'One group'],
    ['What does a pending request ask for?', 'ResourceProfile{UNKNOWN}'],
  ];
  const shown: Record<string, string> = {};
  for (const [title, label] of clicks) {
    const step = await stepTitled(root, title);
    // Kept as posted: an answered step's message loses its buttons and notes.
    shown[title] = JSON.stringify(step.blocks);
    await click(h, step, label, OWNER);
  }
  const jobSlots = shown['Does the cluster have as many slots'] ?? '';
  return { root, jobSlots, freeSlots: await stepTitled(root, 'Is any slot free?') };
}

describe('actions/fetch-step: "Fetch from Flink JobManager" on a step', () => {
  it('answers free-slots from the Flink fake and the walkthrough reaches its conclusion with no paste', async () => {
    h = await startReal({ flink: targetFor(flink.url) });
    const { root, jobSlots, freeSlots } = await toFreeSlots();
    expect(jobSlots).toContain('needs jobId, which this walkthrough does not know yet');
    await click(h, freeSlots, 'Fetch from Flink JobManager', OWNER);
    await click(h, await stepTitled(root, 'Do new TaskManagers arrive in time?'), 'They arrive', OWNER);
    await stepTitled(root, 'TaskManagers start more slowly than the slot request timeout');
    expect(flink.fake.seen.map((s) => s.path)).toEqual(['/taskmanagers']);
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.status).toBe('done');
    expect(record?.path.find((e) => e.step === 'free-slots')?.answer).toMatchObject({
      fetched: { connector: 'flink', paths: ['/taskmanagers'] },
    });
  });

  it('a 503 tells the person the connector message, and the step still takes a paste', async () => {
    h = await startReal({ flink: targetFor(flink.url) });
    flink.fake.override('taskmanagers', { status: 503 });
    const { root, freeSlots } = await toFreeSlots();
    await click(h, freeSlots, 'Fetch from Flink JobManager', OWNER);
    const told = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(told.args.text).toContain('Flink JobManager did not answer (HTTP 503 for GET /taskmanagers)');
    expect(told.args.text).toContain('The step can still be answered by hand.');
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.current).toBe('free-slots');
  });

  it('unconfigured, no step shows a Fetch button', async () => {
    h = await startReal();
    const { jobSlots, freeSlots } = await toFreeSlots();
    expect(jobSlots).not.toContain('Flink JobManager');
    expect(buttonsOf(freeSlots).map((b) => b.button.text.text)).not.toContain('Fetch from Flink JobManager');
    expect(JSON.stringify(freeSlots.blocks)).not.toContain('Flink JobManager');
    expect(flink.fake.seen).toEqual([]);
  });
});
