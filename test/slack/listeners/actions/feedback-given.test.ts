import { describe, expect, it } from 'vitest';
import { FEEDBACK_IDS } from '../../../../src/slack/ids.ts';
import { MemoryOutcomeStore } from '../../../../src/stats/memory.ts';
import { buttonsOf, click } from '../../support/clicks.ts';
import { concludedPrompt } from '../../support/conclude.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';

const outcomes = new MemoryOutcomeStore();
const harness = harnessPerTest({ outcomes });

describe('actions/feedback-given', () => {
  it('keeps the answer once per walkthrough and shows who gave it', async () => {
    const h = harness();
    const message = await concludedPrompt(h, 'CFB01', 'UALICE01');
    expect(buttonsOf(message).map((b) => b.button.action_id)).toContain(`${FEEDBACK_IDS.answerPrefix}fixed`);
    await click(h, message, 'Fixed', 'UALICE01');
    const update = await waitFor(() => h.fake.callsTo('chat.update').find((c) => c.args.ts === message.ts));
    expect(update.args.blocks).toContain('<@UALICE01> answered: *Fixed*');
    const rows = await outcomes.rows('T1');
    expect(rows.find((r) => r.cause === 'more-memory')?.counts.fixed).toBe(1);
  });

  it('opens the note modal from "Add a note"', async () => {
    const h = harness();
    const message = await concludedPrompt(h, 'CFB01', 'UALICE01');
    await click(h, message, 'Fixed', 'UALICE01');
    const update = await waitFor(() => h.fake.callsTo('chat.update').find((c) => c.args.ts === message.ts));
    const answered = { ...message, blocks: JSON.parse(update.args.blocks ?? '[]') };
    await click(h, answered, 'Add a note', 'UALICE01');
    const opened = await waitFor(() => h.fake.callsTo('views.open')[0]);
    expect(JSON.parse(opened.args.view ?? '{}')).toMatchObject({ callback_id: FEEDBACK_IDS.noteView });
  });
});
