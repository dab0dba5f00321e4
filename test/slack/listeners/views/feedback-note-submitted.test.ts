import { describe, expect, it } from 'vitest';
import { FEEDBACK_IDS } from '../../../../src/slack/ids.ts';
import { feedbackNoteModal, readFeedbackRef } from '../../../../src/slack/views/feedback.ts';
import { MemoryOutcomeStore } from '../../../../src/stats/memory.ts';
import { buttonsOf } from '../../support/clicks.ts';
import { concludedPrompt } from '../../support/conclude.ts';
import { type Harness, harnessPerTest, waitFor } from '../../support/harness.ts';
import { viewSubmission } from '../../support/payloads.ts';

const outcomes = new MemoryOutcomeStore();
const harness = harnessPerTest({ outcomes });
/** The note modal memdoctor opens from a real concluded walkthrough's "Add a note" button. */
async function noteModal(h: Harness) {
  const prompt = await concludedPrompt(h, 'CNOTE1', 'UALICE01');
  const ref = readFeedbackRef(buttonsOf(prompt)[0]?.button.value);
  if (!ref) throw new Error('the prompt carries no feedback reference');
  return { ref, modal: feedbackNoteModal(ref, { channel: 'CNOTE1', ts: prompt.thread_ts ?? prompt.ts }) };
}

const submit = (modal: { private_metadata: string }, text: string) =>
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
    const { ref, modal } = await noteModal(h);
    await h.sender.interaction(submit(modal, '  heap 8g held  '));
    const thanks = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(thanks.args).toMatchObject({
      channel: 'CNOTE1',
      user: 'UALICE01',
    });
    expect(outcomes.notes.get(`T1\t${ref.w}`)).toBe('heap 8g held');
  });

  it('refuses an empty note in the modal itself', async () => {
    const h = harness();
    const res = await h.sender.interaction(submit({ private_metadata: '{}' }, '   '));
    expect(await res.json()).toEqual({
      response_action: 'errors',
      errors: { [FEEDBACK_IDS.noteBlock]: 'Write the note first.' },
    });
    expect(h.fake.callsTo('chat.postEphemeral')).toEqual([]);
  });
});
