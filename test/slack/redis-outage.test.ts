import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisEventDedupe } from '../../src/dedupe/redis.ts';
import { connectRedis } from '../../src/redis/connect.ts';
import { RedisKeys } from '../../src/redis/keys.ts';
import type { WalkthroughService } from '../../src/walkthrough/index.ts';
import { RedisWalkthroughStore } from '../../src/walkthrough/store/redis.ts';
import { countPrefix, deletePrefix, newRedis, randomPrefix, snapshotPrefix } from '../support/redis.ts';
import { TcpProxy } from '../support/tcp-proxy.ts';
import { buttonsOf, click, threadReplies } from './support/clicks.ts';
import type { StoredMessage } from './support/fake-slack.ts';
import { type Harness, startHarness, waitFor } from './support/harness.ts';
import { eventEnvelope, fileShareEvent, slashCommand, threadReply } from './support/payloads.ts';
import { testWalkthroughs } from './support/walkthroughs.ts';

/**
 * Redis goes away mid-walkthrough: the app reaches the shared Redis through a TCP proxy the test
 * cuts (the server itself stays up for everyone else). Every surface must tell the person that
 * Redis is unavailable and nothing was lost, and Redis must hold exactly what it held before.
 */

const OWNER = 'UALICE01';
const CHANNEL = 'COUTAGE1';
const UNAVAILABLE = 'Redis, where memdoctor keeps walkthroughs, is unavailable (it does not answer)';
const NOTHING_LOST = 'Nothing was lost: every change is stored whole or not at all.';

let h: Harness;
let proxy: TcpProxy;
let redis: Redis;
let admin: Redis;
let prefix: string;

async function harness(wrap?: (w: WalkthroughService) => WalkthroughService): Promise<void> {
  const store = new RedisWalkthroughStore(redis, { prefix, target: { kind: 'server', url: proxy.url } });
  const walkthroughs = testWalkthroughs(store);
  h = await startHarness({
    walkthroughs: wrap ? wrap(walkthroughs) : walkthroughs,
    dedupe: new RedisEventDedupe(redis, new RedisKeys(prefix)),
  });
}

beforeEach(async () => {
  proxy = await TcpProxy.start(6379);
  redis = await connectRedis(proxy.url);
  admin = newRedis();
  prefix = randomPrefix();
});

afterEach(async () => {
  await h.stop();
  expect(h.fake.rejections).toEqual([]);
  redis.disconnect();
  await proxy.close();
  await deletePrefix(admin, prefix);
  await admin.quit();
});

/** Cuts Redis off; `restore` brings it back and waits until the app's connection is ready again. */
async function outage(): Promise<{ restore(): Promise<void> }> {
  await proxy.cut();
  await waitFor(() => redis.status !== 'ready');
  return {
    async restore() {
      await proxy.restore();
      await waitFor(() => redis.status === 'ready');
    },
  };
}

async function walk(): Promise<StoredMessage> {
  await h.sender.command(
    slashCommand('walk test-heap-oom', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
  );
  return waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL && !m.thread_ts));
}

function reply(root: StoredMessage, n: number): Promise<StoredMessage> {
  return waitFor(() => threadReplies(h, CHANNEL, root.ts)[n]);
}

/** Up to the paste step: Done, then Yes. */
async function toPasteStep(): Promise<StoredMessage> {
  const root = await walk();
  await click(h, await reply(root, 0), 'Done', OWNER);
  await click(h, await reply(root, 1), 'Yes', OWNER);
  expect((await reply(root, 2)).text).toContain('Paste the task memory samples');
  return root;
}

function ephemerals(): string[] {
  return h.fake.callsTo('chat.postEphemeral').map((c) => `${c.args.text ?? ''}${c.args.blocks ?? ''}`);
}

function paste(root: StoredMessage, text: string) {
  return eventEnvelope(
    threadReply({ user: OWNER, channel: CHANNEL, threadTs: root.ts, parentUserId: h.fake.botUserId, text }),
  );
}

describe('Redis unavailable mid-walkthrough', () => {
  it('a click says Redis is unavailable and nothing was lost, not that the walkthrough expired', async () => {
    await harness();
    const root = await walk();
    const step1 = await reply(root, 0);
    const before = await snapshotPrefix(admin, prefix);
    const down = await outage();

    await click(h, step1, 'Done', OWNER);
    const told = await waitFor(() => ephemerals()[0]);
    expect(told).toContain(`${UNAVAILABLE}, so your answer was not recorded. ${NOTHING_LOST}`);
    expect(told).not.toContain('expired');
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(1);
    expect(buttonsOf(step1).length).toBeGreaterThan(0);

    await down.restore();
    expect(await snapshotPrefix(admin, prefix)).toEqual(before);
    await click(h, step1, 'Done', OWNER);
    expect((await reply(root, 1)).text).toContain('Is one task much slower than the rest?');
  });

  it('a pasted thread reply is told so, talk is left alone, and the paste answers once Redis is back', async () => {
    await harness();
    const root = await toPasteStep();
    const before = await snapshotPrefix(admin, prefix);
    const down = await outage();

    await h.sender.event(paste(root, 'looking now'));
    await h.sender.event(paste(root, '```# samples\ngrowth=3```'));
    const told = await waitFor(() => ephemerals()[0]);
    expect(told).toContain(
      `${UNAVAILABLE}, so this reply was not taken as the answer to a walkthrough step. ${NOTHING_LOST}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ephemerals()).toHaveLength(1);
    expect(threadReplies(h, CHANNEL, root.ts)).toHaveLength(3);

    await down.restore();
    expect(await snapshotPrefix(admin, prefix)).toEqual(before);
    await h.sender.event(paste(root, '```# samples\ngrowth=3```'));
    expect((await reply(root, 3)).text).toContain('Give the executors more memory');
  });

  it('a file for the waiting paste step is told so, and nothing is claimed or written', async () => {
    await harness();
    const root = await toPasteStep();
    const before = await snapshotPrefix(admin, prefix);
    const posted = h.fake.callsTo('chat.postMessage').length;
    const down = await outage();

    const file = h.fake.addFile('F901', 'samples.txt', Buffer.from('# samples\ngrowth=25\n'));
    // Each call is a new upload message (its own ts), as uploading the file again would be.
    const share = () =>
      fileShareEvent({
        user: OWNER,
        channel: CHANNEL,
        threadTs: root.ts,
        parentUserId: h.fake.botUserId,
        files: [file],
      });
    await h.sender.event(eventEnvelope(share()));
    const told = await waitFor(() => ephemerals()[0]);
    expect(told).toContain(`${UNAVAILABLE}, so this file was not used`);
    expect(told).toContain(NOTHING_LOST);
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(posted);

    await down.restore();
    expect(await snapshotPrefix(admin, prefix)).toEqual(before);
    await h.sender.event(eventEnvelope(share()));
    expect((await reply(root, 3)).text).toContain('Conclusion: Split the skewed partition');
  });

  it('/memdoctor walk posts nothing and stores nothing when Redis is down', async () => {
    await harness();
    const down = await outage();
    await h.sender.command(
      slashCommand('walk test-heap-oom', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const response = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(response)).toContain(
      `${UNAVAILABLE}, so no walkthrough was started and nothing was left in the channel.`,
    );
    expect(h.fake.callsTo('chat.postMessage')).toEqual([]);
    await down.restore();
    expect(await countPrefix(admin, prefix)).toBe(0);
  });

  it('/memdoctor walk leaves no orphan when Redis fails between storing and linking the thread', async () => {
    // Redis goes away after the walkthrough is stored and its root posted, before the thread link.
    await harness((walkthroughs) => {
      const applyTo = walkthroughs.applyTo.bind(walkthroughs);
      walkthroughs.applyTo = async (...args) => {
        if (args[1].type === 'thread') await outage();
        return applyTo(...args);
      };
      return walkthroughs;
    });
    await h.sender.command(
      slashCommand('walk test-heap-oom', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const response = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(response)).toContain(`${UNAVAILABLE}, so no walkthrough was started`);
    const [root] = h.fake.callsTo('chat.postMessage');
    expect(h.fake.callsTo('chat.delete').map((c) => c.args.ts)).toEqual([root?.result.ts]);
    expect(h.fake.messages).toEqual([]);

    await proxy.restore();
    await waitFor(() => redis.status === 'ready');
    const where = { workspace: 'T1', conversation: CHANNEL };
    expect(await h.deps.walkthroughs.listActive(where)).toEqual([]);
    expect(await h.deps.walkthroughs.findByThread(where, String(root?.result.ts))).toBeUndefined();
  });

  it('/memdoctor walk abandons the stored walkthrough when its root cannot be posted', async () => {
    await harness();
    h.fake.failNext('chat.postMessage', 'not_in_channel');
    await h.sender.command(
      slashCommand('walk test-heap-oom', { user: OWNER, channel: CHANNEL, responseUrl: h.fake.responseUrl }),
    );
    const response = await waitFor(() => h.fake.responses[0]);
    expect(JSON.stringify(response)).toContain('Invite it with /invite @memdoctor');
    expect(h.fake.messages).toEqual([]);
    const snapshot = await snapshotPrefix(admin, prefix);
    const records = Object.entries(snapshot).filter(([key]) => key.includes(':wt:'));
    expect(records).toHaveLength(1);
    const [, hash] = records[0] ?? [];
    expect(JSON.parse((hash as { data: string }).data).status).toBe('abandoned');
    expect(await h.deps.walkthroughs.listActive({ workspace: 'T1', conversation: CHANNEL })).toEqual([]);
  });

  it('Start walkthrough on a diagnosis says Redis is unavailable', async () => {
    await harness();
    await h.sender.command(
      slashCommand('Running Spark version 3.5.1\njava.lang.OutOfMemoryError: Java heap space\n', {
        user: OWNER,
        channel: CHANNEL,
        responseUrl: h.fake.responseUrl,
      }),
    );
    const diagnosis = await waitFor(() => h.fake.messages.find((m) => m.channel === CHANNEL));
    const down = await outage();
    await click(h, diagnosis, 'Start walkthrough', OWNER);
    const told = await waitFor(() => ephemerals()[0]);
    expect(told).toContain(`${UNAVAILABLE}, so no walkthrough was started. ${NOTHING_LOST}`);
    expect(threadReplies(h, CHANNEL, diagnosis.ts)).toEqual([]);
    await down.restore();
    // Only the slash command's replay claim (taken before the outage) is there: no walkthrough.
    const keys = Object.keys(await snapshotPrefix(admin, prefix));
    expect(keys.filter((key) => !/:\{slack:command:[^}]+\}:seen$/.test(key))).toEqual([]);
  });
});
