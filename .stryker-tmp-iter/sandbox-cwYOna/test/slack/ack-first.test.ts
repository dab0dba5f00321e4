// @ts-nocheck
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand } from './support/payloads.ts';

const HEAP_OOM = 'java.lang.OutOfMemoryError: Java heap space\n';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

describe('acknowledging before working', () => {
  it('answers a slash command while its reply to Slack is still pending', async () => {
    const release = h.fake.hold('chat.postMessage');
    const res = await h.sender.command(
      slashCommand(HEAP_OOM, { user: 'U1', channel: 'C1', responseUrl: h.fake.responseUrl }),
    );
    // The HTTP answer (the ack) came back although posting the diagnosis has not finished.
    expect(res.status).toBe(200);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
    release();
    await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
  });

  it('acknowledges an upload before downloading and diagnosing it', async () => {
    const release = h.fake.hold('chat.postMessage');
    const file = h.fake.addFile('F1', 'x.log', Buffer.from(HEAP_OOM));
    const event = fileShareEvent({
      user: 'U1',
      channel: 'C1',
      threadTs: '1700000000.000001',
      parentUserId: h.fake.botUserId,
      files: [file],
    });
    const res = await h.sender.event(eventEnvelope(event));
    expect(res.status).toBe(200);
    await waitFor(() => h.fake.arrivals.includes('chat.postMessage'));
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
    release();
    await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
  });
});
