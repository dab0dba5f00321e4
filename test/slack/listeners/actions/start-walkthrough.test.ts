import { describe, expect, it } from 'vitest';
import { click, threadReplies } from '../../support/clicks.ts';
import { diagnoseInChannel, harnessPerTest, waitFor } from '../../support/harness.ts';

const harness = harnessPerTest();
const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space\n';

describe('actions/start-walkthrough', () => {
  it('starts the walkthrough in the diagnosis thread once, however often Start is clicked', async () => {
    const h = harness();
    const root = await diagnoseInChannel(h, HEAP_OOM, 'UALICE01', 'CSTART1');
    await click(h, root, 'Start walkthrough', 'UALICE01');
    const step = await waitFor(() => threadReplies(h, 'CSTART1', root.ts)[0]);
    expect(step.text).toContain('Step 1');
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: 'CSTART1' },
      root.ts,
    );
    expect(record).toMatchObject({ owner: 'UALICE01', status: 'active', playbook: { id: 'test-heap-oom' } });

    await click(h, root, 'Start walkthrough', 'UBOB0002');
    const told = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(told.args.text).toContain('A walkthrough is already running in this thread');
    expect(threadReplies(h, 'CSTART1', root.ts)).toHaveLength(1);
  });
});
