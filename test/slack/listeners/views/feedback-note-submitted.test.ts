import { describe, expect, it } from 'vitest';
import { FEEDBACK_IDS } from '../../../../src/slack/ids.ts';
import { feedbackNoteModal } from '../../../../src/slack/views/feedback.ts';
import { MemoryOutcomeStore } from '../../../../src/stats/memory.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { viewSubmission } from '../../support/payloads.ts';

const outcomes = new MemoryOutcomeStore();
const harness = harnessPerTest({ outcomes });
const REF = { w: 'T1-CNOTE1-abcdef012345', p: 'test-heap-oom', c: 'more-memory' };
const modal = feedbackNoteModal(REF, { channel: 'CNOTE1', ts: '1700000000.000200' });

const submit = (text: string) =>
  viewSubmission({
    user: 'UALICE01',
    callbackId: FEEDBACK_IDS.noteView,
    privateMetadata: modal.private_metadata,
    values: {
      [FEEDBACK_IDS.noteBlock]: { [FEEDBACK_IDS.noteInput]: { type: 'plain_text_input', value: text } },
    },
  });

describe('views/feedback-note-submitted', () => {
  it('keeps the note with the walkthrough and thanks the person privately in the thread', async () => {
    const h = harness();
    await h.sender.interaction(submit('  heap 8g held  '));
    const thanks = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(thanks.args).toMatchObject({
      channel: 'CNOTE1',
      user: 'UALICE01',
      thread_ts: '1700000000.000200',
    });
    expect(outcomes.notes.get(`T1:${REF.w}`) ?? [...outcomes.notes.values()].at(-1)).toBe('heap 8g held');
  });

  it('refuses an empty note in the modal itself', async () => {
    const h = harness();
    const res = await h.sender.interaction(submit('   '));
    expect(await res.json()).toEqual({
      response_action: 'errors',
      errors: { [FEEDBACK_IDS.noteBlock]: 'Write the note first.' },
    });
    expect(h.fake.callsTo('chat.postEphemeral')).toEqual([]);
  });
});
