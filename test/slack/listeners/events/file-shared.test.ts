import { describe, expect, it } from 'vitest';
import { threadReplies } from '../../support/clicks.ts';
import { diagnoseInChannel, harnessPerTest, waitFor } from '../../support/harness.ts';
import { eventEnvelope, fileShareEvent } from '../../support/payloads.ts';

const harness = harnessPerTest();

describe('events/file-shared', () => {
  it('diagnoses a file uploaded into a thread memdoctor started, in that thread', async () => {
    const h = harness();
    const root = await diagnoseInChannel(h, 'nothing to see here', 'UALICE01', 'CFILE01');
    const file = h.fake.addFile(
      'F802',
      'executor.log',
      Buffer.from('java.lang.OutOfMemoryError: Java heap space\n'),
    );
    await h.sender.event(
      eventEnvelope(
        fileShareEvent({
          user: 'UALICE01',
          channel: 'CFILE01',
          threadTs: root.ts,
          parentUserId: h.fake.botUserId,
          files: [file],
        }),
      ),
    );
    const reply = await waitFor(() => threadReplies(h, 'CFILE01', root.ts)[0]);
    expect(reply.text).toContain('Test executor heap exhausted');
  });

  it('leaves a file in someone else’s thread alone', async () => {
    const h = harness();
    const file = h.fake.addFile(
      'F803',
      'executor.log',
      Buffer.from('java.lang.OutOfMemoryError: Java heap space\n'),
    );
    await h.sender.event(
      eventEnvelope(
        fileShareEvent({
          user: 'UALICE01',
          channel: 'CFILE02',
          threadTs: '1700000000.000100',
          parentUserId: 'UOTHER01',
          files: [file],
        }),
      ),
    );
    // The ack and dedupe happen first; give the listener time to (not) act.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.fake.callsTo('chat.postMessage')).toEqual([]);
    expect(h.fake.callsTo('files.info')).toEqual([]);
  });
});
