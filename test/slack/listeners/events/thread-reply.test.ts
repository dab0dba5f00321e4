import { describe, expect, it } from 'vitest';
import { threadReplies } from '../../support/clicks.ts';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { eventEnvelope, slashCommand, threadReply } from '../../support/payloads.ts';

const harness = harnessPerTest();
const OWNER = 'UALICE01';
const CHANNEL = 'CREPLY1';

/** `/memdoctor walk test-gc-pressure`: its first step waits for a measurement. */
async function walkGcPressure() {
  const h = harness();
  await h.sender.command(
    slashCommand('walk test-gc-pressure', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
  const root = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
  await waitFor(() => threadReplies(h, CHANNEL, root.ts)[0]);
  const reply = (text: string) =>
    h.sender.event(
      eventEnvelope(
        threadReply({
          user: OWNER,
          channel: CHANNEL,
          threadTs: root.ts,
          parentUserId: h.fake.botUserId,
          text,
        }),
      ),
    );
  return { h, root, reply };
}

describe('events/thread-reply', () => {
  it('takes a figure replied in the thread as the answer to the waiting measurement', async () => {
    const { h, root, reply } = await walkGcPressure();
    await reply('25%');
    const conclusion = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[1]);
    expect(conclusion.text).toContain('The collector is thrashing');
  });

  it('leaves talk alone, and tells only the replier when a figure does not read', async () => {
    const { h, root, reply } = await walkGcPressure();
    await reply('looking now');
    await reply('12 parsecs');
    const told = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(told.args).toMatchObject({ user: OWNER, thread_ts: root.ts });
    expect(h.fake.callsTo('chat.postEphemeral')).toHaveLength(1);
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(1);
  });
});
