import { describe, expect, it } from 'vitest';
import { harnessPerTest, waitFor } from '../../support/harness.ts';
import { eventEnvelope, messageTs } from '../../support/payloads.ts';

const harness = harnessPerTest();
const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space\n';

describe('events/app-mention', () => {
  it('diagnoses the file it is mentioned with, replying in that message’s thread', async () => {
    const h = harness();
    const file = h.fake.addFile('F801', 'driver.log', Buffer.from(HEAP_OOM));
    const ts = messageTs();
    await h.sender.event(
      eventEnvelope({
        type: 'app_mention',
        user: 'UALICE01',
        text: '<@UBOT0001> look',
        ts,
        channel: 'CMENT01',
        files: [file],
      }),
    );
    const reply = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(reply.args).toMatchObject({ channel: 'CMENT01', thread_ts: ts });
    expect(reply.args.text).toContain('Test executor heap exhausted');
  });

  it('explains itself privately when mentioned with nothing to read', async () => {
    const h = harness();
    await h.sender.event(
      eventEnvelope({
        type: 'app_mention',
        user: 'UALICE01',
        text: '<@UBOT0001> hi',
        ts: messageTs(),
        channel: 'CMENT02',
      }),
    );
    const note = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(note.args.user).toBe('UALICE01');
    expect(h.fake.callsTo('chat.postMessage')).toEqual([]);
  });
});
