import { describe, expect, it } from 'vitest';
import { FEEDBACK_IDS } from '../../../../src/slack/ids.ts';
import { feedbackPrompt } from '../../../../src/slack/views/feedback.ts';
import { MemoryOutcomeStore } from '../../../../src/stats/memory.ts';
import { buttonsOf, click } from '../../support/clicks.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { messageTs } from '../../support/payloads.ts';

const outcomes = new MemoryOutcomeStore();
const harness = harnessPerTest({ outcomes });
const REF = { w: 'T1-CFB01-abcdef012345', p: 'test-heap-oom', c: 'more-memory' };

/** The "Did this fix it?" prompt as memdoctor posts it, in the fake Slack's message store. */
function prompt() {
  const message = {
    channel: 'CFB01',
    ts: messageTs(),
    thread_ts: '1700000000.000001',
    user: 'UBOT0001',
    ...JSON.parse(JSON.stringify(feedbackPrompt(REF))),
  };
  return message;
}

describe('actions/feedback-given', () => {
  it('keeps the answer once per walkthrough and shows who gave it', async () => {
    const h = harness();
    const message = prompt();
    expect(buttonsOf(message).map((b) => b.button.action_id)).toContain(`${FEEDBACK_IDS.answerPrefix}fixed`);
    await click(h, message, 'Fixed', 'UALICE01');
    const update = await waitFor(() => h.fake.callsTo('chat.update')[0]);
    expect(update.args.blocks).toContain('<@UALICE01> answered: *Fixed*');
    const rows = await outcomes.rows('T1');
    expect(rows.find((r) => r.cause === 'more-memory')?.counts.fixed).toBe(1);
  });

  it('opens the note modal from "Add a note"', async () => {
    const h = harness();
    const message = prompt();
    await click(h, message, 'Fixed', 'UALICE01');
    const update = await waitFor(() => h.fake.callsTo('chat.update')[0]);
    const answered = { ...message, blocks: JSON.parse(update.args.blocks ?? '[]') };
    await click(h, answered, 'Add a note', 'UALICE01');
    const opened = await waitFor(() => h.fake.callsTo('views.open')[0]);
    expect(JSON.parse(opened.args.view ?? '{}')).toMatchObject({ callback_id: FEEDBACK_IDS.noteView });
  });
});
