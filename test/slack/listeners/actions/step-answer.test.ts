import { describe, expect, it } from 'vitest';
import { click, threadReplies } from '../../support/clicks.ts';
import { diagnoseInChannel, harnessPerTest, waitFor } from '../../support/harness.ts';

const harness = harnessPerTest();
const OWNER = 'UALICE01';

async function firstStep(channel: string) {
  const h = harness();
  const root = await diagnoseInChannel(h, 'java.lang.OutOfMemoryError: Java heap space\n', OWNER, channel);
  await click(h, root, 'Start walkthrough', OWNER);
  return { h, root, step: await waitFor(() => threadReplies(h, channel, root.ts)[0]) };
}

describe('actions/step-answer', () => {
  it("records the owner's click, marks the step answered and posts the next one", async () => {
    const { h, root, step } = await firstStep('CSTEP01');
    await click(h, step, 'Done', OWNER);
    const next = await waitFor(() => threadReplies(h, 'CSTEP01', root.ts)[1]);
    expect(next.text).toContain('Step 2');
    expect(JSON.stringify(step.blocks)).toContain(`<@${OWNER}> answered: *done*`);
  });

  it('tells someone who may not answer, privately, and changes nothing', async () => {
    const { h, root, step } = await firstStep('CSTEP02');
    await click(h, step, 'Done', 'USTRANGER');
    const told = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(told.args).toMatchObject({ user: 'USTRANGER', thread_ts: root.ts });
    expect(told.args.text).toContain(`Only <@${OWNER}>, who started this walkthrough`);
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: 'CSTEP02' },
      root.ts,
    );
    expect(record?.path).toEqual([]);
    expect(threadReplies(h, 'CSTEP02', root.ts)).toHaveLength(1);
  });
});
