import { describe, expect, it } from 'vitest';
import { ACTION } from '../../../../src/slack/ids.ts';
import { packExplainRef } from '../../../../src/slack/views/explain-ref.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { blockActions, messageTs } from '../../support/payloads.ts';

const harness = harnessPerTest();

describe('actions/explain-diagnosis', () => {
  it('without a model tells only the person that the diagnosis stands, and posts nothing', async () => {
    const h = harness();
    const diagnosis = {
      playbook: 'test-heap-oom',
      title: 'Test executor heap exhausted',
      confidence: 0.9,
      cause: null,
      evidence: [{ line: 1, text: 'java.lang.OutOfMemoryError: Java heap space' }],
      facts: {},
      actions: ['Give the executors more heap.'],
    };
    const ts = messageTs();
    await h.sender.interaction(
      blockActions({
        user: 'UALICE01',
        channel: 'CEXPL01',
        message: { ts, blocks: [] },
        action: { action_id: ACTION.explain, block_id: 'b', value: packExplainRef(diagnosis) },
        responseUrl: h.fake.responseUrl,
      }),
    );
    const told = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(told.args).toMatchObject({ channel: 'CEXPL01', user: 'UALICE01', thread_ts: ts });
    expect(told.args.text).toContain('No model is configured here');
    expect(h.fake.callsTo('chat.postMessage')).toEqual([]);
  });
});
