// @ts-nocheck
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTION, BLOCK, INPUT, VIEW } from '../../src/slack/ids.ts';
import { BOT_TOKEN, type Harness, SIGNING_SECRET, startHarness, waitFor } from './support/harness.ts';
import {
  blockActions,
  eventEnvelope,
  fileShareEvent,
  slashCommand,
  viewSubmission,
} from './support/payloads.ts';

const HEAP_OOM = [
  '24/11/29 10:01:02 INFO SparkContext: Running Spark version 3.5.1',
  '24/11/29 10:05:13 ERROR Executor: Exception in task 3.0 in stage 7.0 (TID 42)',
  'java.lang.OutOfMemoryError: Java heap space',
  '\tat java.util.Arrays.copyOf(Arrays.java:3236)',
].join('\n');

const USER = 'UALICE01';
const CHANNEL = 'CINCIDENT';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
});

function command(text: string) {
  return h.sender.command(
    slashCommand(text, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
}

function blocksOf(call: { args: Record<string, string> } | undefined): Record<string, unknown>[] {
  return JSON.parse(call?.args.blocks ?? '[]') as Record<string, unknown>[];
}

describe('the /memdoctor slash command', () => {
  it('posts the diagnosis as a thread root with evidence, cause, actions and buttons', async () => {
    const res = await command(HEAP_OOM);
    expect(res.status).toBe(200);
    const post = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(post.args.channel).toBe(CHANNEL);
    expect(post.args.thread_ts).toBeUndefined();
    const blocks = blocksOf(post);
    const text = JSON.stringify(blocks);
    expect(text).toContain('Test executor heap exhausted');
    expect(text).toContain('java.lang.OutOfMemoryError: Java heap space');
    expect(text).toContain('One partition too large for the heap');
    const actions = blocks.find((b) => b.type === 'actions') as { elements: { action_id: string }[] };
    expect(actions.elements.map((e) => e.action_id)).toEqual([
      ACTION.startWalkthrough,
      ACTION.showAlternatives,
      ACTION.notMemory,
    ]);
  });

  it('answers help privately through the response_url', async () => {
    await command('help');
    const reply = await waitFor(() => h.fake.responses[0]);
    expect(reply.response_type).toBe('ephemeral');
    expect(JSON.stringify(reply.blocks)).toContain('/memdoctor list');
  });

  it('lists the loaded playbooks', async () => {
    await command('list');
    const reply = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(reply.blocks)).toContain('test-gc-pressure');
  });

  it('opens the paste modal when given no text, and diagnoses what is submitted', async () => {
    await command('');
    const open = await waitFor(() => h.fake.callsTo('views.open')[0]);
    const view = JSON.parse(open.args.view ?? '{}') as { callback_id: string; private_metadata: string };
    expect(view.callback_id).toBe(VIEW.paste);
    const res = await h.sender.interaction(
      viewSubmission({
        user: USER,
        callbackId: VIEW.paste,
        privateMetadata: view.private_metadata,
        values: {
          [BLOCK.modalText]: { [INPUT.text]: { type: 'plain_text_input', value: HEAP_OOM } },
          [BLOCK.modalEngine]: {
            [INPUT.engine]: {
              type: 'static_select',
              selected_option: { value: 'spark', text: { type: 'plain_text', text: 'spark' } },
            },
          },
        },
      }),
    );
    expect(res.status).toBe(200);
    const post = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(post.args.channel).toBe(CHANNEL);
    expect(post.args.text).toContain('Test executor heap exhausted');
  });

  it('marks a diagnosis as not a memory problem, removing its buttons', async () => {
    await command(HEAP_OOM);
    const post = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    const blocks = blocksOf(post);
    await h.sender.interaction(
      blockActions({
        user: USER,
        channel: CHANNEL,
        message: { ts: '1700000000.000009', blocks },
        action: { action_id: ACTION.notMemory, block_id: BLOCK.diagnosisActions, value: 'test-heap-oom' },
        responseUrl: h.fake.responseUrl,
      }),
    );
    const update = await waitFor(() => h.fake.callsTo('chat.update')[0]);
    expect(update.args.ts).toBe('1700000000.000009');
    const after = JSON.stringify(blocksOf(update));
    expect(after).not.toContain(ACTION.notMemory);
    expect(after).toContain(`<@${USER}> marked this as not a memory problem`);
  });
});

describe('request verification', () => {
  it('refuses a bad signature with 401 and does nothing', async () => {
    const res = await h.sender.command(
      slashCommand('help', { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
      {
        secret: 'not-the-secret',
      },
    );
    expect(res.status).toBe(401);
  });

  it('refuses a timestamp older than five minutes with 401', async () => {
    const res = await h.sender.command(
      slashCommand('help', { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
      {
        timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
      },
    );
    expect(res.status).toBe(401);
  });

  it('serves /healthz', async () => {
    const res = await fetch(`${h.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, store: 'memory' });
  });
});

describe('files shared in a memdoctor thread', () => {
  const THREAD = '1700000000.000001';

  async function share(files: Record<string, unknown>[], eventId?: string, retryNum?: number) {
    const event = fileShareEvent({
      user: USER,
      channel: CHANNEL,
      threadTs: THREAD,
      parentUserId: h.fake.botUserId,
      files,
    });
    return h.sender.event(eventEnvelope(event, eventId), retryNum);
  }

  it('downloads a gzipped log with the bot token and replies in the thread', async () => {
    const file = h.fake.addFile('F100', 'executor.log.gz', gzipSync(Buffer.from(HEAP_OOM)));
    expect((await share([file])).status).toBe(200);
    const post = await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(post.args.thread_ts).toBe(THREAD);
    expect(post.args.text).toContain('Test executor heap exhausted');
  });

  it('processes a retried delivery of the same event once', async () => {
    const file = h.fake.addFile('F101', 'executor.log', Buffer.from(HEAP_OOM));
    const event = fileShareEvent({
      user: USER,
      channel: CHANNEL,
      threadTs: THREAD,
      parentUserId: h.fake.botUserId,
      files: [file],
    });
    const envelope = eventEnvelope(event, 'EvRETRY1');
    expect((await h.sender.event(envelope)).status).toBe(200);
    expect((await h.sender.event(envelope, 1)).status).toBe(200);
    expect((await h.sender.event(envelope, 2)).status).toBe(200);
    await waitFor(() => h.logs.lines.filter((l) => l.msg === 'repeat delivery skipped').length === 2);
    await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('refuses an upload over the size limit with a clear private note, without downloading', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'a');
    const file = h.fake.addFile('F102', 'huge.log', big);
    await share([file]);
    const note = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(note.args.user).toBe(USER);
    expect(note.args.text).toMatch(/huge\.log: larger than the limit of 1 MiB/);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('says so when Slack returns its sign-in page instead of the file', async () => {
    const file = {
      ...h.fake.addFile('F103', 'x.log', Buffer.from(HEAP_OOM)),
      url_private_download: `${h.fake.base}/files-pri/T1-F999/download/x.log`,
    };
    await share([file]);
    const note = await waitFor(() => h.fake.callsTo('chat.postEphemeral')[0]);
    expect(note.args.text).toContain('sign-in page');
  });

  it('ignores files in threads memdoctor did not start', async () => {
    const file = h.fake.addFile('F104', 'executor.log', Buffer.from(HEAP_OOM));
    const event = fileShareEvent({
      user: USER,
      channel: CHANNEL,
      threadTs: THREAD,
      parentUserId: 'USOMEONE',
      files: [file],
    });
    await h.sender.event(eventEnvelope(event));
    await h.sender.command(
      slashCommand('help', { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    await waitFor(() => h.fake.responses[0]);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });
});

describe('logs', () => {
  it('are pino JSON and never contain the token or the signing secret', async () => {
    await command(HEAP_OOM);
    await waitFor(() => h.fake.callsTo('chat.postMessage')[0]);
    await h.sender.command(
      slashCommand('help', { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
      { secret: 'wrong' },
    );
    expect(h.logs.lines.length).toBeGreaterThan(0);
    expect(h.logs.raw).not.toContain(BOT_TOKEN);
    expect(h.logs.raw).not.toContain(SIGNING_SECRET);
    expect(h.logs.raw).not.toContain('testtokenvalue');
  });
});
