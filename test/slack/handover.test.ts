import { afterEach, describe, expect, it } from 'vitest';
import { parseSlashText } from '../../src/slack/command-text.ts';
import { click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { slashCommand } from './support/payloads.ts';

const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const NIGHT = 'UNIGHT01';
const DAY = 'UDAY0001';
const CHANNEL = 'CHAND001';

let h: Harness | undefined;
afterEach(async () => {
  if (!h) return;
  await h.stop();
  expect(app().fake.rejections).toEqual([]);
  h = undefined;
});

function app(): Harness {
  if (!h) throw new Error('no app started');
  return h;
}

async function command(text: string, user: string) {
  const url = app().fake.responseUrl;
  const before = app().fake.responses.length;
  await app().sender.command(slashCommand(text, { user, channel: CHANNEL, responseUrl: url }));
  return waitFor(() =>
    app()
      .fake.responses.slice(before)
      .find((r) => typeof r.text === 'string'),
  );
}

describe('/memdoctor handover', () => {
  it('passes a walkthrough to the next on-call person, in its audit trail; the new owner answers', async () => {
    h = await startHarness();
    await app().sender.command(
      slashCommand(HEAP_OOM, { user: NIGHT, channel: CHANNEL, responseUrl: app().fake.responseUrl }),
    );
    const root = await waitFor(() => app().fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
    await click(app(), root, 'Start walkthrough', NIGHT);
    const step1 = await waitFor(() => threadReplies(app(), CHANNEL, root.ts)[0]);

    // Before the hand-over the day engineer may not answer.
    await click(app(), step1, 'Done', DAY);
    await waitFor(() =>
      app()
        .fake.callsTo('chat.postEphemeral')
        .find((c) => c.args.user === DAY),
    );

    const reply = await command(`handover <@${DAY}|day>`, NIGHT);
    expect(reply.text).toContain(`to <@${DAY}>`);
    const note = await waitFor(() =>
      threadReplies(app(), CHANNEL, root.ts).find((m) => (m.text ?? '').includes('handed')),
    );
    expect(note.text).toContain(`<@${NIGHT}> handed this walkthrough to <@${DAY}>`);

    // The current step is shown again for the new owner (the old buttons are stale now).
    const again = await waitFor(() =>
      threadReplies(app(), CHANNEL, root.ts).findLast((m) => (m.text ?? '').startsWith('Step 1')),
    );
    expect(again.ts).not.toBe(step1.ts);
    await click(app(), step1, 'Done', DAY);
    await waitFor(() =>
      app()
        .fake.callsTo('chat.postEphemeral')
        .find((c) => (c.args.text ?? '').includes('moved on')),
    );
    await click(app(), again, 'Done', DAY);
    const step2 = await waitFor(() =>
      threadReplies(app(), CHANNEL, root.ts).find((m) => (m.text ?? '').includes('Step 2')),
    );
    expect(step2.text).toContain('Is one task much slower');
    const record = await app().deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: CHANNEL },
      root.ts,
    );
    expect(record?.owner).toBe(DAY);
    expect(record?.audit.find((a) => a.event === 'handover')).toMatchObject({
      actor: NIGHT,
      detail: `handed over from ${NIGHT} to ${DAY}`,
    });
    expect(record?.path.at(-1)?.by).toBe(DAY);

    // The previous owner is no longer the owner, so a second hand-over by them is refused.
    const refused = await command(`handover <@${NIGHT}>`, NIGHT);
    expect(refused.text).toContain('You own no active walkthrough in this channel');
  });

  it('says what to type when Slack sent a name instead of a member id', async () => {
    h = await startHarness();
    const reply = await command('handover @day', NIGHT);
    expect(reply.text).toContain('"@day" is not a member id');
  });

  it('reads escaped mentions and bare member ids', () => {
    expect(parseSlashText('handover <@U0DAY1|day>')).toEqual({
      kind: 'handover',
      to: 'U0DAY1',
      typed: '<@U0DAY1|day>',
    });
    expect(parseSlashText('handover U0DAY1 T1-C1-abc123')).toEqual({
      kind: 'handover',
      to: 'U0DAY1',
      typed: 'U0DAY1',
      walkthrough: 'T1-C1-abc123',
    });
    expect(parseSlashText('handover @day')).toEqual({ kind: 'handover', typed: '@day' });
  });
});
