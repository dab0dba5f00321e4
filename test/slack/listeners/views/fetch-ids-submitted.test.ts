import { afterEach, describe, expect, it } from 'vitest';
import { FETCH_ID_BLOCK_PREFIX } from '../../../../src/slack/ids.ts';
import { FLINK_JOB, flinkFake } from '../../../connectors/fakes/systems.ts';
import { targetFor, useFake } from '../../../connectors/support.ts';
import { threadReplies } from '../../support/clicks.ts';
import { type Harness, waitFor } from '../../support/harness.ts';
import { CHANNEL, startWith, stepTitled, toJobSlotsForm } from '../fetch-form.ts';

// Registered first, so its stop runs after the app's (vitest runs after-hooks in reverse).
const flink = useFake(flinkFake);
let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

const where = { workspace: 'T1', conversation: CHANNEL };

describe('views/fetch-ids-submitted: the form with the ids a fetch lacks', () => {
  it('keeps the form open on an empty field; the id given fetches and answers the step', async () => {
    h = await startWith({ flink: targetFor(flink.url) });
    const { root, submit } = await toJobSlotsForm(h);
    const empty = await submit('  ');
    expect(await empty.json()).toEqual({
      response_action: 'errors',
      errors: { [`${FETCH_ID_BLOCK_PREFIX}jobId`]: 'Give the job id.' },
    });
    expect(flink.fake.seen).toEqual([]);
    await submit(` ${FLINK_JOB} `);
    await stepTitled(h, root, 'Does the job use more than one slot sharing group?');
    expect(threadReplies(h, CHANNEL, root.ts).map((m) => m.text)).toContain(
      'Answered by UALICE01: 1 TaskManager(s) with 4 slots, 4 available; the job (FINISHED) has 1 vertices, largest parallelism 1, 0 subtask(s) waiting for a slot.',
    );
    expect(flink.fake.seen.map((s) => s.path)).toEqual(['/overview', `/jobs/${FLINK_JOB}`]);
    const record = await h.deps.walkthroughs.findByThread(where, root.ts);
    expect(record?.path.find((e) => e.step === 'job-slots')?.answer).toMatchObject({
      fetched: { connector: 'flink', paths: ['/overview', `/jobs/${FLINK_JOB}`] },
    });
  });

  it('tells privately of an id that is not one, builds no path from it, and the step still takes a paste', async () => {
    h = await startWith({ flink: targetFor(flink.url) });
    const { root, submit } = await toJobSlotsForm(h);
    await submit('../taskmanagers');
    const told = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(told.args.text).toContain('"../taskmanagers" is not a jobId (expected something like');
    // The overview needs no id and is read first; the job's path is never built.
    expect(flink.fake.seen.map((s) => s.path)).toEqual(['/overview']);
    expect((await h.deps.walkthroughs.findByThread(where, root.ts))?.current).toBe('job-slots');
  });
});
