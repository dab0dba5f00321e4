import { afterEach, describe, expect, it } from 'vitest';
import { SHORTCUT } from '../../src/slack/ids.ts';
import { buttonsOf, click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { botAlertMessage, directMessageEvent, messageShortcut } from './support/oncall-payloads.ts';
import { eventEnvelope, messageTs } from './support/payloads.ts';

const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';
const ONCALL = 'UONCALL1';
const COLLEAGUE = 'UBOB0001';
const ALERTS = 'CALERTS1';
const DM = 'D0DM0001';

let h: Harness;
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

function shortcutOn(message: Record<string, unknown>, user = ONCALL) {
  return h.sender.interaction(
    messageShortcut({
      callbackId: SHORTCUT.diagnoseMessage,
      user,
      channel: ALERTS,
      message,
      responseUrl: h.fake.responseUrl,
    }),
  );
}

describe('the "Diagnose with memdoctor" message shortcut', () => {
  it('diagnoses an alert bot’s post into that post’s thread, with the usual buttons', async () => {
    h = await startHarness();
    const alert = botAlertMessage(HEAP_OOM);
    const res = await shortcutOn(alert);
    expect(res.status).toBe(200);
    const [diagnosis] = await waitFor(() => {
      const found = threadReplies(h, ALERTS, alert.ts);
      return found.length > 0 && found;
    });
    expect(diagnosis?.text).toContain('Test executor heap exhausted');
    expect(JSON.stringify(diagnosis?.blocks)).toContain(`asked by <@${ONCALL}>`);
    const labels = buttonsOf(diagnosis as NonNullable<typeof diagnosis>).map((b) => b.button.text.text);
    expect(labels).toContain('Start walkthrough');
    expect(labels).toContain('Not a memory problem');
  });

  it('downloads the files of a colleague’s message and diagnoses each in its thread', async () => {
    h = await startHarness();
    const file = h.fake.addFile('F100', 'driver.log', Buffer.from(HEAP_OOM));
    const message = { user: COLLEAGUE, ts: messageTs(), text: 'nightly job died again', files: [file] };
    await shortcutOn(message);
    const replies = await waitFor(() => {
      const found = threadReplies(h, ALERTS, message.ts);
      return found.length > 0 && found;
    });
    expect(replies).toHaveLength(1);
    expect(replies[0]?.text).toContain('Test executor heap exhausted');
    expect(JSON.stringify(replies[0]?.blocks)).toContain('lines read');
  });

  it('starts the walkthrough in that message’s thread', async () => {
    h = await startHarness();
    const message = { user: COLLEAGUE, ts: messageTs(), text: HEAP_OOM };
    await shortcutOn(message);
    const diagnosis = await waitFor(() => threadReplies(h, ALERTS, message.ts)[0]);
    await click(h, diagnosis, 'Start walkthrough', ONCALL);
    const step = await waitFor(() => threadReplies(h, ALERTS, message.ts)[1]);
    expect(step.text).toContain('Step 1: Open the failed stage in the Spark UI');
    const record = await h.deps.walkthroughs.findByThread(
      { workspace: 'T1', conversation: ALERTS },
      message.ts,
    );
    expect(record?.owner).toBe(ONCALL);
  });

  it('says privately when the message holds nothing to read', async () => {
    h = await startHarness();
    await shortcutOn({ user: COLLEAGUE, ts: messageTs(), text: '' });
    const answer = await waitFor(() => h.fake.responses[0]);
    expect(answer.response_type).toBe('ephemeral');
    expect(JSON.stringify(answer)).toContain('no text or file memdoctor can read');
    expect(h.fake.callsTo('chat.postMessage')).toEqual([]);
  });
});

describe('a direct message with the bot', () => {
  it('diagnoses a paste in the DM and runs its walkthrough there', async () => {
    h = await startHarness();
    await h.sender.event(eventEnvelope(directMessageEvent({ user: COLLEAGUE, channel: DM, text: HEAP_OOM })));
    const diagnosis = await waitFor(() => h.fake.messages.find((m) => m.channel === DM && !m.thread_ts));
    expect(diagnosis.text).toContain('Test executor heap exhausted');
    await click(h, diagnosis, 'Start walkthrough', COLLEAGUE);
    const step = await waitFor(() => threadReplies(h, DM, diagnosis.ts)[0]);
    expect(step.text).toContain('Step 1');
    await click(h, step, 'Done', COLLEAGUE);
    const step2 = await waitFor(() => threadReplies(h, DM, diagnosis.ts)[1]);
    expect(step2.text).toContain('Is one task much slower than the rest?');
  });

  it('diagnoses a file shared in the DM, once even when Slack retries the event', async () => {
    h = await startHarness();
    const file = h.fake.addFile('F200', 'executor.log', Buffer.from(HEAP_OOM));
    const envelope = eventEnvelope(
      directMessageEvent({ user: COLLEAGUE, channel: DM, text: '', files: [file] }),
    );
    await h.sender.event(envelope);
    await h.sender.event({ ...envelope, event_id: 'EvRetryOther' });
    await waitFor(() => h.fake.messages.find((m) => m.channel === DM));
    await new Promise((r) => setTimeout(r, 200));
    const posted = h.fake.messages.filter((m) => m.channel === DM);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.text).toContain('Test executor heap exhausted');
  });

  it('leaves thread replies in the DM to the walkthrough and answers "help" with help', async () => {
    h = await startHarness();
    const root = messageTs();
    await h.sender.event(
      eventEnvelope(directMessageEvent({ user: COLLEAGUE, channel: DM, text: HEAP_OOM, threadTs: root })),
    );
    await h.sender.event(eventEnvelope(directMessageEvent({ user: COLLEAGUE, channel: DM, text: 'help' })));
    const help = await waitFor(() => h.fake.messages.find((m) => m.channel === DM));
    expect(help.text).toMatch(/memdoctor/i);
    await new Promise((r) => setTimeout(r, 200));
    expect(h.fake.messages.filter((m) => m.channel === DM)).toHaveLength(1);
    expect(h.fake.messages.some((m) => (m.text ?? '').includes('ran out of heap'))).toBe(false);
  });
});
