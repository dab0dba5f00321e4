import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisEventDedupe } from '../../src/dedupe/redis.ts';
import { RedisKeys } from '../../src/redis/keys.ts';
import { BLOCK, INPUT, SHORTCUT, VIEW } from '../../src/slack/ids.ts';
import { deletePrefix, randomPrefix, TEST_REDIS_URL } from '../support/redis.ts';
import { FakeSlack } from './support/fake-slack.ts';
import { BOT_TOKEN, type Harness, startHarness, waitFor } from './support/harness.ts';
import { botAlertMessage, messageShortcut } from './support/oncall-payloads.ts';
import { slashCommand, viewSubmission } from './support/payloads.ts';

/*
 * Issue 13, item 7: a signed slash command replayed within Slack's 5 minutes was diagnosed twice,
 * and a request dated in the future was accepted (Bolt checks only that it is not too old). Each
 * request here is signed as Slack signs it; a replay is the very same bytes and signature.
 */
const HEAP_OOM = [
  '24/11/29 10:05:13 ERROR Executor: Exception in task 3.0 in stage 7.0 (TID 42)',
  'java.lang.OutOfMemoryError: Java heap space',
].join('\n');
const USER = 'UALICE01';
const CHANNEL = 'CREPLAY';
const now = () => Math.floor(Date.now() / 1000);

function diagnosesPosted(fake: FakeSlack): number {
  return fake.callsTo('chat.postMessage').filter((c) => (c.args.text ?? '').includes('Test executor heap'))
    .length;
}

/** Lets the app finish what it would do with a request (a replay must do nothing in that time). */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 400));
}

describe('a replayed signed request runs once', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
    expect(h.fake.rejections).toEqual([]);
  });

  it('a slash command replayed within 5 minutes is diagnosed once (in memory)', async () => {
    h = await startHarness();
    const fields = slashCommand(HEAP_OOM, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl });
    const timestamp = now() - 60;
    expect((await h.sender.command(fields, { timestamp })).status).toBe(200);
    await waitFor(() => diagnosesPosted(h.fake) === 1);
    expect((await h.sender.command(fields, { timestamp })).status).toBe(200);
    await settle();
    expect(diagnosesPosted(h.fake)).toBe(1);
    const skipped = h.logs.lines.find((l) => l.msg === 'repeat delivery skipped');
    expect(skipped?.claim).toBe(`command:${fields.trigger_id}`);
  });

  it('a paste-modal submission replayed is diagnosed once', async () => {
    h = await startHarness();
    await h.sender.command(
      slashCommand('', { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const open = await waitFor(() => h.fake.callsTo('views.open')[0]);
    const view = JSON.parse(open.args.view ?? '{}') as { private_metadata: string };
    const payload = viewSubmission({
      user: USER,
      callbackId: VIEW.paste,
      privateMetadata: view.private_metadata,
      values: { [BLOCK.modalText]: { [INPUT.text]: { type: 'plain_text_input', value: HEAP_OOM } } },
    });
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const form = 'application/x-www-form-urlencoded';
    const timestamp = now();
    expect((await h.sender.post(body, form, { timestamp })).status).toBe(200);
    await waitFor(() => diagnosesPosted(h.fake) === 1);
    expect((await h.sender.post(body, form, { timestamp })).status).toBe(200);
    await settle();
    expect(diagnosesPosted(h.fake)).toBe(1);
  });
});

describe('a replayed message shortcut runs once', () => {
  let h: Harness;
  afterEach(async () => {
    await h.stop();
    expect(h.fake.rejections).toEqual([]);
  });

  it('three deliveries of one shortcut (same trigger_id and message ts) diagnose once', async () => {
    h = await startHarness();
    const alert = botAlertMessage(HEAP_OOM);
    const payload = messageShortcut({
      callbackId: SHORTCUT.diagnoseMessage,
      user: USER,
      channel: CHANNEL,
      message: alert,
      responseUrl: h.fake.responseUrl,
    });
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    const form = 'application/x-www-form-urlencoded';
    const timestamp = now();
    for (let i = 0; i < 3; i++) expect((await h.sender.post(body, form, { timestamp })).status).toBe(200);
    await waitFor(() => diagnosesPosted(h.fake) === 1);
    await settle();
    expect(diagnosesPosted(h.fake)).toBe(1);
    const skipped = h.logs.lines.filter((l) => l.msg === 'repeat delivery skipped');
    expect(skipped.map((l) => l.claim)).toEqual(Array(2).fill(`shortcut:${payload.trigger_id}:${alert.ts}`));
  });
});

describe('a replay to another replica sharing Redis runs once', () => {
  const prefix = randomPrefix();
  const connections = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)];
  const fake = new FakeSlack(BOT_TOKEN);
  const replicas: Harness[] = [];

  beforeAll(async () => {
    await fake.start();
    for (const redis of connections)
      replicas.push(await startHarness({ fake, dedupe: new RedisEventDedupe(redis, new RedisKeys(prefix)) }));
  });
  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await fake.stop();
    await deletePrefix(connections[0] as Redis, prefix);
    for (const c of connections) c.disconnect();
  });

  it('claims the trigger_id in Redis, with an expiry past the 5-minute window', async () => {
    const [a, b] = replicas as [Harness, Harness];
    const fields = slashCommand(HEAP_OOM, { user: USER, channel: CHANNEL, responseUrl: fake.responseUrl });
    const timestamp = now();
    await a.sender.command(fields, { timestamp });
    await waitFor(() => diagnosesPosted(fake) === 1);
    await b.sender.command(fields, { timestamp });
    await waitFor(() => b.logs.lines.find((l) => l.msg === 'repeat delivery skipped'));
    await settle();
    expect(diagnosesPosted(fake)).toBe(1);
    const key = new RedisKeys(prefix).claim(`command:${fields.trigger_id}`);
    const ttl = await (connections[0] as Redis).ttl(key);
    expect(ttl).toBeGreaterThan(5 * 60);
    expect(ttl).toBeLessThanOrEqual(15 * 60);
  });
});

describe('request timestamps ahead of the clock', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  it('refuses a request signed more than 5 minutes in the future, and diagnoses nothing', async () => {
    const fields = slashCommand(HEAP_OOM, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl });
    const res = await h.sender.command(fields, { timestamp: now() + 6 * 60 });
    expect(res.status).toBe(401);
    await settle();
    expect(diagnosesPosted(h.fake)).toBe(0);
    expect(h.logs.lines.some((l) => String(l.msg).includes('s ahead of this server'))).toBe(true);
  });

  it('accepts one a little ahead (clocks drift), as Slack allows', async () => {
    const fields = slashCommand(HEAP_OOM, { user: USER, channel: CHANNEL, responseUrl: h.fake.responseUrl });
    const before = diagnosesPosted(h.fake);
    expect((await h.sender.command(fields, { timestamp: now() + 60 })).status).toBe(200);
    await waitFor(() => diagnosesPosted(h.fake) === before + 1);
  });
});
