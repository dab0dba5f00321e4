import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { click, threadReplies } from './support/clicks.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, messageTs, slashCommand } from './support/payloads.ts';

const USER = 'UALICE01';
const CHANNEL = 'CMORE';
const HEAP_OOM = 'Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

const command = (text: string) =>
  h.sender.command(slashCommand(text, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }));

describe('more of the Slack surface', () => {
  it('answers memdoctor calc with the same calculators as the CLI, privately', async () => {
    await command('calc spark --spark.executor.memory 8g --spark.executor.cores 4');
    const reply = await waitFor(() => h.fake.responses[0]);
    const text = JSON.stringify(reply.blocks);
    expect(reply.response_type).toBe('ephemeral');
    expect(text).toContain('memdoctor calc spark --spark.executor.memory 8g');
    expect(text).toMatch(/overhead/i);
  });

  it('refuses calculator flags that name files: the bot reads nothing from its own disk', async () => {
    await command('calc flink-slots --taskmanagers /etc/passwd --request cpuCores=1');
    const reply = await waitFor(() => h.fake.responses[0]);
    const text = JSON.stringify(reply.blocks);
    expect(text).toContain('--taskmanagers names a file, which /memdoctor cannot read');
    expect(text).not.toContain('root:');
  });

  it('shows a calc mistake as the calculator words it', async () => {
    await command('calc spark --executor-memory 8g');
    const reply = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(reply.blocks)).toContain('unknown flag --executor-memory');
  });

  it('posts the alternatives in the thread when asked', async () => {
    await command(HEAP_OOM);
    const root = await waitFor(() => h.fake.messages.find((m) => !m.thread_ts));
    await click(h, root, 'Show alternatives', USER);
    const alternatives = await waitFor(() => threadReplies(h, CHANNEL, root.ts)[0]);
    expect(JSON.stringify(alternatives.blocks)).toContain('test-gc-pressure');
  });

  it('diagnoses a file when @memdoctor is mentioned with it, replying in a new thread', async () => {
    const file = h.fake.addFile('F700', 'driver.log', Buffer.from(HEAP_OOM));
    const ts = messageTs();
    const mention = {
      type: 'app_mention',
      user: USER,
      text: '<@UBOT0001> what is this?',
      ts,
      channel: CHANNEL,
      files: [file],
    };
    await h.sender.event(eventEnvelope(mention));
    const reply = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(reply.args.thread_ts).toBe(ts);
    expect(reply.args.text).toContain('Test executor heap exhausted');
  });

  it('explains itself privately when mentioned without a file', async () => {
    const mention = {
      type: 'app_mention',
      user: USER,
      text: '<@UBOT0001> hi',
      ts: messageTs(),
      channel: CHANNEL,
    };
    await h.sender.event(eventEnvelope(mention));
    const note = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(note.args.user).toBe(USER);
    expect(note.args.text).toBe('memdoctor help');
  });

  it('refuses to walk an unknown playbook, naming the way to list them', async () => {
    await command('walk no-such-thing');
    const reply = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(reply.blocks)).toContain(
      'There is no playbook \\"no-such-thing\\". Try /memdoctor list.',
    );
  });

  it('says "no walkthroughs" on status in a quiet channel', async () => {
    await command('status');
    const reply = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(reply.blocks)).toContain('No walkthroughs are running in this channel.');
  });
});
