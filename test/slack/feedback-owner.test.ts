import { afterEach, describe, expect, it } from 'vitest';
import { FEEDBACK_IDS } from '../../src/slack/ids.ts';
import { MemoryOutcomeStore } from '../../src/stats/memory.ts';
import { buttonsOf, click, threadReplies } from './support/clicks.ts';
import type { StoredMessage } from './support/fake-slack.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { blockActions, slashCommand, viewSubmission } from './support/payloads.ts';

/*
 * Issue 27, items 2 and 3: "Did this fix it?" could be answered by anyone in the channel, and the
 * button's value ({"w","p","c"}) was trusted, so a signed request could write any playbook/cause
 * row. Every request here is signed as Slack signs it and goes through the real app.
 */
const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const OWNER = 'UALICE01';
const COLLEAGUE = 'UBOB0001';
const NEXT = 'UCAROL01';

let h: Harness;
let outcomes: MemoryOutcomeStore;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

async function start(): Promise<void> {
  outcomes = new MemoryOutcomeStore();
  h = await startHarness({ outcomes });
}

async function diagnose(channel: string): Promise<StoredMessage> {
  await h.sender.command(slashCommand(HEAP_OOM, { user: OWNER, channel, responseUrl: h.fake.responseUrl }));
  return waitFor(() => h.fake.messages.find((m) => m.channel === channel && !m.thread_ts));
}

/** Walks Done -> "No" to the "more memory" conclusion as `by`; the "Did this fix it?" prompt. */
async function conclude(channel: string, root: StoredMessage, by = OWNER): Promise<StoredMessage> {
  const step = (n: number) =>
    waitFor(() => threadReplies(h, channel, root.ts).findLast((m) => m.text?.startsWith(`Step ${n}`)));
  await click(h, await step(1), 'Done', by);
  await click(h, await step(2), 'No', by);
  return waitFor(() => threadReplies(h, channel, root.ts).find((m) => m.text === 'Did this fix it?'));
}

/** The ephemeral text `user` was told last, once there is one. */
function toldTo(user: string, containing: string) {
  return waitFor(() =>
    h.fake
      .callsTo('chat.postEphemeral')
      .find((c) => c.args.user === user && (c.args.text ?? '').includes(containing)),
  );
}

/** A "Fixed" click as a signed request, with a button value and team of the sender's choosing. */
function forgedFixed(prompt: StoredMessage, value: object, user = OWNER, team = 'T1') {
  const payload = blockActions({
    user,
    channel: prompt.channel,
    message: {
      ts: prompt.ts,
      ...(prompt.thread_ts ? { thread_ts: prompt.thread_ts } : {}),
      blocks: prompt.blocks,
    },
    action: {
      action_id: `${FEEDBACK_IDS.answerPrefix}fixed`,
      block_id: FEEDBACK_IDS.actionsBlock,
      value: JSON.stringify(value),
    },
    responseUrl: h.fake.responseUrl,
  });
  return h.sender.interaction({
    ...payload,
    team: { id: team, domain: 'other' },
    user: { ...payload.user, team_id: team },
  });
}

function walkthroughOf(prompt: StoredMessage): string {
  const found = buttonsOf(prompt)[0];
  if (!found) throw new Error('no buttons on the prompt');
  return (JSON.parse(found.button.value) as { w: string }).w;
}

describe('"Did this fix it?" answers only from who may give them', () => {
  it('refuses a colleague’s answer on someone else’s walkthrough, and counts nothing', async () => {
    await start();
    const root = await diagnose('CFOWN01');
    await click(h, root, 'Start walkthrough', OWNER);
    const prompt = await conclude('CFOWN01', root);

    await click(h, prompt, 'Fixed', COLLEAGUE);
    const told = await toldTo(COLLEAGUE, 'can say whether it fixed things');
    expect(told.args.text).toContain(`Only <@${OWNER}>`);
    expect(await outcomes.rows('T1')).not.toContainEqual(
      expect.objectContaining({ counts: expect.objectContaining({ fixed: 1 }) }),
    );
    expect(JSON.stringify(prompt.blocks)).not.toContain('answered');

    await click(h, prompt, 'Fixed', OWNER);
    await waitFor(() => JSON.stringify(prompt.blocks).includes(`<@${OWNER}> answered: *Fixed*`));
    const row = (await outcomes.rows('T1')).find((r) => r.cause === 'more-memory');
    expect(row?.counts.fixed).toBe(1);
  });

  it('after a hand-over, the new owner answers and the one who handed it over no longer can', async () => {
    await start();
    const root = await diagnose('CFOWN02');
    await click(h, root, 'Start walkthrough', OWNER);
    await waitFor(() => threadReplies(h, 'CFOWN02', root.ts)[0]);
    const url = h.fake.responseUrl;
    await h.sender.command(
      slashCommand(`handover <@${NEXT}|carol>`, { user: OWNER, channel: 'CFOWN02', responseUrl: url }),
    );
    await waitFor(() => threadReplies(h, 'CFOWN02', root.ts).find((m) => (m.text ?? '').includes('handed')));
    // The current step is shown again for the new owner; the first one's buttons are stale.
    await waitFor(
      () => threadReplies(h, 'CFOWN02', root.ts).filter((m) => m.text?.startsWith('Step 1')).length === 2,
    );
    const prompt = await conclude('CFOWN02', root, NEXT);

    await click(h, prompt, 'Not fixed', OWNER);
    await toldTo(OWNER, `Only <@${NEXT}>`);
    await click(h, prompt, 'Not fixed', NEXT);
    await waitFor(() => JSON.stringify(prompt.blocks).includes(`<@${NEXT}> answered: *Not fixed*`));
    expect((await outcomes.rows('T1')).find((r) => r.cause === 'more-memory')?.counts.not_fixed).toBe(1);
  });

  it('takes playbook and conclusion from the walkthrough, not from the button’s value', async () => {
    await start();
    const root = await diagnose('CFOWN03');
    await click(h, root, 'Start walkthrough', OWNER);
    const prompt = await conclude('CFOWN03', root);
    const w = walkthroughOf(prompt);

    await forgedFixed(prompt, { w, p: 'jvm-oom', c: 'made-up-cause' });
    await waitFor(() => JSON.stringify(prompt.blocks).includes('answered: *Fixed*'));
    const rows = await outcomes.rows('T1');
    expect(rows.map((r) => `${r.playbook}/${r.cause}`)).not.toContain('jvm-oom/made-up-cause');
    expect(rows.find((r) => r.playbook === 'test-heap-oom' && r.cause === 'more-memory')?.counts.fixed).toBe(
      1,
    );
  });

  it('keeps nothing for a walkthrough that does not exist, is not concluded, or is another team’s', async () => {
    await start();
    const root = await diagnose('CFOWN04');
    await click(h, root, 'Start walkthrough', OWNER);
    const step1 = await waitFor(() => threadReplies(h, 'CFOWN04', root.ts)[0]);
    const active = (JSON.parse(buttonsOf(step1)[0]?.button.value ?? '{}') as { w: string }).w;
    expect(active).toMatch(/^T1-CFOWN04-/);

    await forgedFixed(step1, { w: 'T1-CFOWN04-nothere', p: 'test-heap-oom', c: 'more-memory' });
    await toldTo(OWNER, 'no longer stored');
    await forgedFixed(step1, { w: active, p: 'test-heap-oom', c: 'more-memory' });
    await toldTo(OWNER, 'has not reached a conclusion');

    const prompt = await conclude('CFOWN04', root);
    await forgedFixed(
      prompt,
      { w: walkthroughOf(prompt), p: 'test-heap-oom', c: 'more-memory' },
      OWNER,
      'T2',
    );
    // Another team's request is refused without a word to it (Slack would refuse that anyway).
    const refused = await waitFor(() =>
      h.logs.lines.find((l) => l.msg === 'feedback refused' && l.why === 'other workspace'),
    );
    expect(refused.walkthrough).toBe(walkthroughOf(prompt));
    expect(await outcomes.rows('T2')).toEqual([]);
    expect((await outcomes.rows('T1')).some((r) => r.counts.fixed > 0)).toBe(false);
  });
});

describe('the feedback note', () => {
  it('opens and is kept only for who may answer; a forged submission from a colleague is refused', async () => {
    await start();
    const root = await diagnose('CFOWN05');
    await click(h, root, 'Start walkthrough', OWNER);
    const prompt = await conclude('CFOWN05', root);
    await click(h, prompt, 'Partly', OWNER);
    await waitFor(() => JSON.stringify(prompt.blocks).includes('answered: *Partly*'));

    await click(h, prompt, 'Add a note', COLLEAGUE);
    await toldTo(COLLEAGUE, `Only <@${OWNER}>`);
    expect(h.fake.callsTo('views.open')).toHaveLength(0);

    await click(h, prompt, 'Add a note', OWNER);
    const opened = await waitFor(() => h.fake.callsTo('views.open')[0]);
    const modal = JSON.parse(opened.args.view ?? '{}') as { callback_id: string; private_metadata: string };
    const submit = (user: string, value: string) =>
      h.sender.interaction(
        viewSubmission({
          user,
          callbackId: modal.callback_id,
          privateMetadata: modal.private_metadata,
          values: { [FEEDBACK_IDS.noteBlock]: { note: { type: 'plain_text_input', value } } },
        }),
      );
    await submit(COLLEAGUE, 'not my walkthrough');
    await waitFor(
      () => h.fake.callsTo('chat.postEphemeral').filter((c) => c.args.user === COLLEAGUE).length === 2,
    );
    expect(outcomes.notes.size).toBe(0);
    await submit(OWNER, 'heap 8g held');
    await toldTo(OWNER, 'your note is kept');
    expect([...outcomes.notes.values()]).toEqual(['heap 8g held']);
  });
});
