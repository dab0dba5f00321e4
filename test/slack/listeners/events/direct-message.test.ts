import { describe, expect, it } from 'vitest';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { directMessageEvent } from '../../support/oncall-payloads.ts';
import { eventEnvelope } from '../../support/payloads.ts';

const harness = harnessPerTest();
const DM = 'DDIRECT1';

describe('events/direct-message', () => {
  it('diagnoses a paste in a DM with the bot, in the DM', async () => {
    const h = harness();
    const text = 'java.lang.OutOfMemoryError: Java heap space\n';
    await h.sender.event(eventEnvelope(directMessageEvent({ user: 'UALICE01', channel: DM, text })));
    const posted = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(posted.args.channel).toBe(DM);
    expect(posted.args.text).toContain('Test executor heap exhausted');
  });

  it('answers "help" with the help, and diagnoses nothing', async () => {
    const h = harness();
    await h.sender.event(eventEnvelope(directMessageEvent({ user: 'UALICE01', channel: DM, text: 'help' })));
    const posted = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(posted.args.blocks).toContain('/memdoctor');
    expect(posted.args.text).not.toContain('Test executor heap exhausted');
  });
});
